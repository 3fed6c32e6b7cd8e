-- The universal priority of core §6.2, shared by the Behaviour scripts: pick the candidate nearest to the
-- model, breaking ties by the rulebook's order — closest to the Town Hall, lowest current Integrity, most
-- Wounds, lowest Combat, lowest Group number — and finally a D6 for each still tied (highest wins).
local P = {}

-- Two distances this close are a tie (inches).
local EPS = 1e-6

--- The Town Hall's view (nil if the village has none).
function P.town_hall(ctx)
	return ctx:town_hall()
end

local town_hall = P.town_hall

-- Tie-breaker keys in the rulebook's order: smaller is better for each.
local function keys(ctx, c)
	local th = town_hall(ctx)
	local to_hall = 0
	-- A token from ctx:tokens has an id too (and a token `kind`); a model snapshot's `kind` is its profile's.
	local token = c.kind == "opportunity" or c.kind == "barricade" or c.kind == "trap"
	if th and c.id and not token then
		to_hall = ctx:distance_to(c, th)
	elseif th and (c.pos or c.x) then
		-- A building (its centre) or a token from ctx:tokens (its point).
		local p = c.pos or c
		to_hall = math.sqrt((p.x - th.pos.x) ^ 2 + (p.y - th.pos.y) ^ 2)
	end
	return {
		to_hall,
		c.integrity or 0,
		-(c.wounds or 0),
		c.combat or 0,
		c.group or 0,
	}
end

local function better(a, b)
	for i = 1, #a do
		if a[i] < b[i] - EPS then
			return true
		elseif a[i] > b[i] + EPS then
			return false
		end
	end
	return nil -- tied
end

--- Keep the candidates whose `values[i]` (for `candidates[i]`) is the smallest (ties within EPS), in order.
function P.smallest_of(candidates, values)
	local best, out = nil, {}
	for i, c in ipairs(candidates) do
		local s = values[i]
		if best == nil or s < best - EPS then
			best, out = s, { c }
		elseif math.abs(s - best) <= EPS then
			out[#out + 1] = c
		end
	end
	return out
end

--- Keep the candidates with the smallest `score` (ties within EPS).
function P.smallest(candidates, score)
	local values = {}
	for i, c in ipairs(candidates) do
		values[i] = score(c)
	end
	return P.smallest_of(candidates, values)
end

--- Break a tie among `tied` by the universal tie-breakers, then a D6 each (re-rolled while tied).
function P.break_tie(ctx, tied)
	if #tied <= 1 then
		return tied[1]
	end
	local best, out = nil, {}
	for _, c in ipairs(tied) do
		local k = keys(ctx, c)
		if best == nil then
			best, out = k, { c }
		else
			local b = better(k, best)
			if b == true then
				best, out = k, { c }
			elseif b == nil then
				out[#out + 1] = c
			end
		end
	end
	while #out > 1 do
		local dice = ctx:roll(#out, "tie-breaker")
		local top = math.max(table.unpack(dice))
		local next_round = {}
		for i, c in ipairs(out) do
			if dice[i] == top then
				next_round[#next_round + 1] = c
			end
		end
		out = next_round
	end
	return out[1]
end

--- The nearest candidate to `self` (a model view), by edge-to-edge distance (measured by the kernel in
--- one call), ties broken as above.
function P.nearest(ctx, self, candidates, extra_tie)
	return P.pick(ctx, P.smallest_of(candidates, ctx:distances_from(self, candidates)), extra_tie)
end

--- One of `tied` (the candidates tied for nearest): `extra_tie` narrows them when given, then the
--- tie-breakers above choose. Nil when `tied` is empty.
function P.pick(ctx, tied, extra_tie)
	if extra_tie and #tied > 1 then
		tied = extra_tie(tied)
	end
	return P.break_tie(ctx, tied)
end

--- While the decision is explained (`ctx.explaining`: the REPL, a written log, the viewer), say why
--- `chosen` was picked as the nearest of `among` (`ctx:why`): `reason`, every candidate with its
--- distance, and how many were tied. Measuring every candidate is explaining's own work: a game that
--- keeps no decisions skips it.
function P.explain_nearest(ctx, self, among, chosen, tied, reason)
	if chosen == nil or not ctx.explaining then
		return
	end
	local all = {}
	for _, m in ipairs(among.models and ctx:models(among.models) or {}) do
		all[#all + 1] = m
	end
	for _, b in ipairs(among.buildings and ctx:buildings(among.buildings) or {}) do
		all[#all + 1] = b
	end
	if #tied > 1 then
		reason = string.format("%s (%d tied for nearest; the tie-breakers chose)", reason, #tied)
	end
	ctx:why(reason, all, ctx:distances_from(self, all))
end

--- The nearest of the candidates `among` names (`{ models = ModelQuery, buildings = BuildingQuery }`),
--- as P.nearest picks it from their list: the kernel measures them and hands out views only of those
--- tied for nearest (`ctx:nearest`), `extra_tie` and the tie-breakers above choose among those. Nil
--- when there is no candidate. `reason`, when given, is said for the choice (P.explain_nearest).
function P.nearest_of(ctx, self, among, extra_tie, reason)
	local tied = ctx:nearest(self, among)
	local chosen = P.pick(ctx, tied, extra_tie)
	-- Asked here first: a game that keeps no decisions makes no call for it.
	if reason and ctx.explaining then
		P.explain_nearest(ctx, self, among, chosen, tied, reason)
	end
	return chosen
end

-- A declared step's own tie-breaker (`prefer`): the score the tied candidates keep the smallest of.
local PREFER = {
	most_wounds = function(c)
		return -(c.wounds or 0)
	end,
	lowest_integrity = function(c)
		return c.integrity or 0
	end,
}

--- The target a Behaviour's declared steps choose (its `targets`, which the kernel follows natively
--- when no decision is explained; this follows them in Lua and says why). The first step that finds
--- something gives the target:
--- * `models` ("any", "hero" or "defender" of the other side) and/or `buildings` ("standing"): the
---   nearest of them, ties narrowed by `prefer` ("most_wounds", "lowest_integrity"), then broken by
---   the universal tie-breakers (P.nearest_of);
--- * `town_hall = true`: the Town Hall, while it stands;
--- * `fallback = true`: the target its roster entry's `fallback_behaviour` chooses (nil when none).
--- `why` is the step's reason.
function P.declared(ctx, self, targets)
	for _, step in ipairs(targets) do
		if step.models or step.buildings then
			local among = {}
			if step.models then
				among.models = P.foes_query(self, step.models ~= "any" and step.models or nil)
			end
			if step.buildings then
				among.buildings = { standing = true }
			end
			local score = step.prefer and PREFER[step.prefer]
			local narrow = score and function(tied)
				return P.smallest(tied, score)
			end
			local chosen = P.nearest_of(ctx, self, among, narrow, step.why)
			if chosen then
				return chosen
			end
		elseif step.town_hall then
			local th = town_hall(ctx)
			if th and not th.destroyed then
				return th, step.why
			end
		elseif step.fallback then
			-- Required here: lib.act requires this library.
			local fallback = require("lib.act").fallback(ctx, self)
			if fallback == nil then
				return nil
			end
			return fallback.target(ctx, self), step.why
		end
	end
	return nil
end

--- Buildings that are still standing.
function P.standing(ctx)
	return ctx:buildings({ standing = true })
end

--- The `ctx:models` query of the models of one kind ("hero", "defender"; any when nil) on the other
--- side from `self`.
function P.foes_query(self, kind)
	return { side = self.side == "enemies" and "heroes" or "enemies", kind = kind }
end

--- Models of one kind ("hero", "defender"; any when nil) on the other side from `self`.
function P.foes(ctx, self, kind)
	return ctx:models(P.foes_query(self, kind))
end

return P
