-- The default hero policy's fighting sense (scripts/policies/default.lua): who goes for which enemy,
-- when to shoot, how many dice to roll. Everything here is recomputed from the table at every call (no
-- module state: a plan kept between calls would not survive a hot reload, and the table changes anyway).
local P = require("lib.priority")
local A = require("lib.act")

local T = {}

T.PER_THREAT = 1

local function town_hall(ctx)
	for _, b in ipairs(ctx:buildings()) do
		if b.town_hall then
			return b
		end
	end
end

--- The enemies in the order they threaten the village: closest to the Town Hall first (ties by id).
function T.threats(ctx)
	local th = town_hall(ctx)
	local foes = ctx:models({ side = "enemies" })
	local d = {}
	for _, f in ipairs(foes) do
		d[f.id] = th and ctx:distance_to(f, th) or 0
	end
	table.sort(foes, function(a, b)
		if d[a.id] ~= d[b.id] then
			return d[a.id] < d[b.id]
		end
		return a.id < b.id
	end)
	return foes
end

--- Each model of the heroes' side gets one enemy to go for: taking the threats in order, the nearest
--- model not yet given one goes for it, so the party spreads over the enemies instead of queueing behind
--- the same one. Models left over (more defenders than enemies) go for their nearest enemy.
--- Returns a table from model id to the enemy snapshot.
function T.assignment(ctx)
	local friends = ctx:models({ side = "heroes" })
	local threats = T.threats(ctx)
	local out, taken = {}, {}
	for _, foe in ipairs(threats) do
		for _ = 1, T.PER_THREAT do
			local best, best_d
			for _, f in ipairs(friends) do
				if not taken[f.id] then
					local d = ctx:distance(f, foe)
					if best == nil or d < best_d - 1e-9 then
						best, best_d = f, d
					end
				end
			end
			if best == nil then
				break
			end
			taken[best.id] = true
			out[best.id] = foe
		end
	end
	for _, f in ipairs(friends) do
		if not out[f.id] and #threats > 0 then
			out[f.id] = P.smallest(threats, function(e)
				return ctx:distance(f, e)
			end)[1]
		end
	end
	return out
end

--- Activation dice: two, which keeps a turnover (two failures) to one roll in nine at Quality 3+; three
--- for the last model of the side still to activate, whose turnover costs nobody an activation.
function T.dice(ctx, self)
	for _, f in ipairs(ctx:models({ side = "heroes" })) do
		if f.id ~= self.id and f.active then
			return 2
		end
	end
	return 3
end

--- The adjacent enemy to strike: a Defenseless one first (+2 and it cannot strike back well), then the
--- one nearest the Town Hall.
local function melee_target(ctx, self)
	local engaged = ctx:engaged(self)
	if #engaged == 0 then
		return nil
	end
	for _, e in ipairs(engaged) do
		if e:has("defenseless") then
			return e
		end
	end
	return A.nearest_adjacent(ctx, self, town_hall(ctx))
end

--- A shot worth taking: the most threatening enemy the rules let it shoot now.
local function shot(ctx, self)
	if not self.weapon or self.weapon_broken then
		return nil
	end
	for _, foe in ipairs(T.threats(ctx)) do
		if ctx:can_shoot(self, foe) then
			return foe
		end
	end
end

--- One action: strike what is in contact, else shoot, else close in on the enemy assigned to it.
function T.act(ctx, self)
	local foe = melee_target(ctx, self)
	if foe then
		-- In contact after its one attack this turn (§3.2): stay (leaving costs Free Hacks).
		return A.may_attack(ctx, self) and { melee = foe } or nil
	end
	local target = shot(ctx, self)
	if target then
		-- A Shooter with a target keeps its distance once it has shot this turn.
		return A.may_attack(ctx, self) and { shoot = target } or nil
	end
	local mine = T.assignment(ctx)[self.id]
	if mine then
		return { move = mine }
	end
	return nil
end

return T
