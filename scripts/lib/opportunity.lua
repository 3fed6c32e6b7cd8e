-- Opportunities for a hero policy (core §6.1; SUPPLEMENT §7): when a hero should drink a Potion, claim a
-- token it touches, or walk to one. Plain decisions over `ctx`; the kernel checks and executes the order
-- (only heroes claim, only in base contact), so a mistake here loses an action, never breaks a rule.
local M = {}

local POTION = "Potion of Healing"

-- A token as a point: a Token table also has an `id`, which a `move` order would read as a model's.
local function point(t)
	return { x = t.x, y = t.y }
end

--- Whether `m` may claim Opportunities: a hero (not a Village Defender) that is not an Animal.
function M.may_claim(m)
	return m.kind == "hero" and not m:has_trait("Animal")
end

--- Whether no enemy (of `enemies`) stands within `range` of the point.
local function safe(ctx, enemies, p, range)
	for _, d in ipairs(ctx:distances_to(enemies, p)) do
		if d <= range then
			return false
		end
	end
	return true
end

--- The free heroes (not Engaged) that may claim, in id order.
local function claimers_of(ctx)
	local out = {}
	for _, h in ipairs(ctx:models({ side = "heroes", kind = "hero", engaged = false })) do
		if M.may_claim(h) then
			out[#out + 1] = h
		end
	end
	return out
end

--- The hero who should fetch the token at `p`: the nearest of `claimers` (ties by id), the free heroes
--- (not Engaged) that may claim.
local function fetcher(ctx, claimers, p)
	local best, best_d
	for i, d in ipairs(ctx:distances_to(claimers, p)) do
		if not best_d or d < best_d then
			best, best_d = claimers[i], d
		end
	end
	return best
end

--- An Opportunity order for `self`, or nil to let the policy decide:
--- * `{ use = "Potion of Healing" }` when it carries one and is wounded or has a condition;
--- * `{ claim = id }` when its base touches a token;
--- * `{ move = point }` toward the nearest token with no enemy within Long of it, when `self` is not
---   Engaged and is the nearest free hero to that token (the others keep fighting).
function M.claim_or_approach(ctx, self)
	-- Nothing carried and no token on the table (most actions): nothing to do, whoever it is.
	local tokens = ctx:tokens("opportunity")
	if #tokens == 0 and #self.items == 0 then
		return nil
	end
	if not M.may_claim(self) then
		return nil
	end
	for _, item in ipairs(self.items) do
		if item == POTION and (self.wounds > 0 or #self.conditions > 0) then
			return { use = item }, "hurt, and it carries a Potion of Healing: it drinks it"
		end
	end
	if #tokens == 0 then
		return nil
	end
	-- Each token as a point, and how far `self` stands from it.
	local touch = ctx:rule("bases", "contact_tolerance")
	local points, mine = {}, {}
	for i, t in ipairs(tokens) do
		points[i] = point(t)
		mine[i] = ctx:distance_to(self, points[i])
		if mine[i] <= touch then
			return { claim = t.id }, "its base touches an Opportunity token: it claims it"
		end
	end
	if self.engaged then
		return nil
	end
	-- The nearest token that is safe and that `self` is the fetcher of. The three tests are asked
	-- cheapest first (only a token nearer than the best so far can change the answer; the claimers and
	-- the enemies are listed once, when first needed): the answer is the same in any order.
	local range = ctx:rule("measures", "long")
	local claimers, enemies
	local best, best_d
	for i, p in ipairs(points) do
		local d = mine[i]
		if not best_d or d < best_d then
			claimers = claimers or claimers_of(ctx)
			local h = fetcher(ctx, claimers, p)
			if h and h.id == self.id then
				enemies = enemies or ctx:models({ side = "enemies" })
				if safe(ctx, enemies, p, range) then
					best, best_d = p, d
				end
			end
		end
	end
	if best then
		return { move = best },
			"the nearest free hero to an Opportunity token no enemy is within Long of: it walks to it"
	end
	return nil
end

return M
