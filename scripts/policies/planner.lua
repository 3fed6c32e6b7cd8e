-- The planning hero policy: it plays as the default policy (scripts/policies/default.lua) but weighs
-- its choices by playing them out (`ctx:rollouts`: the kernel plays the game on with the default policy
-- and the Behaviours, on the same dice for every candidate).
--   * Whom it nominates, it nominates with the dice (one, two or three) and, for a Leader, the group
--     (its friends along, or alone) that play out best.
--   * Each order of a model taking its actions: the default's order against striking each other enemy in
--     contact, shooting each enemy the rules allow, closing in on each of the three nearest enemies or
--     on the enemy nearest the Town Hall, or walking to the Town Hall.
-- A candidate is taken only when it beats the default's choice on the same dice by more than SURE
-- standard errors of the paired difference, so where nothing is worth planning it plays as the default.
-- Whether to nominate a model now or let it wait, spellcasting, the Council, deployment and Blessing are
-- the default's (docs/scripting.md, "A policy that plans", gives what was measured).
local D = require("policies.default")
local A = require("lib.act")

-- Eight playouts a candidate, each to the end of the hero turn: the enemies' turn after it told no more
-- (measured: docs/scripting.md).
local OPTIONS = { samples = 8, depth = "turn" }
-- How sure the planner must be that a candidate beats the default's choice: standard errors of the
-- paired difference of their scores.
local SURE = 1.5

-- The index of the best candidate: the first (the default's choice) unless another beats it on the
-- same dice: the mean of its paired differences with the first, less SURE standard errors, above zero.
local function best(r)
	local base = r.estimates[1].scores
	local at, top = 1, 0
	for i = 2, #r.estimates do
		local s = r.estimates[i].scores
		local n = #s
		if not r.estimates[i].refused and n > 1 and n == #base then
			local sum, sq = 0, 0
			for k = 1, n do
				local d = s[k] - base[k]
				sum = sum + d
				sq = sq + d * d
			end
			local mean = sum / n
			local se = math.sqrt(math.max(0, (sq - n * mean * mean) / (n - 1)) / n)
			if mean - SURE * se > top then
				at, top = i, mean - SURE * se
			end
		end
	end
	return at
end

local function words(r, at)
	local e = r.estimates[at]
	return string.format(
		"played out: %.3f (%.3f–%.3f) over %d playouts, against %.3f for the default policy's choice",
		e.mean,
		e.low,
		e.high,
		e.playouts,
		r.estimates[1].mean
	)
end

-- Play `cands` out (the first, the default's choice, then the others) and choose among `choices`, the
-- same list as the policy returns them: the first, with the default's reason `why`, unless another
-- beats it on the same dice (`best`). Explaining, each candidate is named (`name`) with its estimate.
local function weigh(ctx, what, choices, cands, name, why)
	local r = ctx:rollouts(cands, OPTIONS)
	if ctx.explaining then
		local names, scores = {}, {}
		for i, c in ipairs(choices) do
			names[i] = name(c)
			scores[i] = r.estimates[i].mean
		end
		ctx:why(
			"each " .. what .. " played out " .. r.samples .. " times to the end of the turn",
			names,
			scores
		)
	end
	local at = best(r)
	if at == 1 then
		return choices[1], why
	end
	return choices[at], words(r, at)
end

-- The orders worth weighing against the default's: strike each enemy in contact (a Power Blow with two
-- actions left); not in contact, shoot each of the three nearest enemies the rules allow (aimed with two
-- actions left), close in on each of them and on the enemy nearest the Town Hall, or walk to the Town
-- Hall.
local function alternatives(ctx, self, first)
	local out = { first }
	local attack = A.may_attack(ctx, self)
	local engaged = ctx:engaged(self)
	if #engaged > 0 then
		if attack then
			for _, e in ipairs(engaged) do
				out[#out + 1] = { melee = e, power_blow = self.actions_left >= 2 }
			end
		end
		return out
	end
	local th = ctx:buildings({ town_hall = true, standing = true })[1]
	if th then
		local near = ctx:models({ side = "enemies", near = th })[1]
		if near then
			out[#out + 1] = { move = near }
		end
		out[#out + 1] = { move = th }
	end
	for i, e in ipairs(ctx:models({ side = "enemies", near = self })) do
		if i > 3 then
			break
		end
		if attack and self.weapon and ctx:can_shoot(self, e) then
			out[#out + 1] = { shoot = e, aimed = self.actions_left >= 2 }
		end
		out[#out + 1] = { move = e }
	end
	return out
end

-- An order in a few words, for the decision's candidates ("shoot Orc Warrior").
local function order_name(o)
	-- The order's key found in a fixed list: `next` would name a two-key order (a cast) by whichever
	-- key the table's layout gives first, which differs from one run to the next.
	for _, k in ipairs({ "melee", "shoot", "move", "heal", "step", "cast", "ability", "claim", "use" }) do
		local t = o[k]
		if t ~= nil then
			local name = t
			if type(t) == "table" then
				-- A model by its name and id ("Orc Warrior (9)", as the log names it); a building by its name.
				name = (t.side and t.id) and string.format("%s (%d)", t.name, t.id) or (t.name or t.id)
			end
			return k .. " " .. tostring(name)
		end
	end
	return o.break_free and "break free" or "order"
end

local function act(ctx, self)
	local order, why = D.act(ctx, self)
	if order == nil then
		return order, why
	end
	local orders = alternatives(ctx, self, order)
	local cands = {}
	for i, o in ipairs(orders) do
		cands[i] = { order = o }
	end
	return weigh(ctx, "order", orders, cands, order_name, why)
end

-- A nomination in a few words, for the decision's candidates ("2 dice, with the group").
local function ask_name(a)
	return string.format(
		"%d %s%s",
		a.dice,
		a.dice == 1 and "die" or "dice",
		a.group and ", with the group" or ""
	)
end

-- The nomination the default policy makes, weighed against the same model with each other number of
-- dice, and, when the default takes a Leader's group along, with each number of dice alone: a turnover
-- ends the turn for every model yet to act, so the dice are a wager the playouts can price.
local function activate(ctx, self)
	local ask, why = D.activate(ctx, self)
	if not ask then
		return ask, why
	end
	local asks = { ask }
	for n = 1, 3 do
		if n ~= ask.dice then
			asks[#asks + 1] = { dice = n, cast = ask.cast, group = ask.group }
		end
		if ask.group then
			asks[#asks + 1] = { dice = n, cast = ask.cast }
		end
	end
	local cands = {}
	for i, a in ipairs(asks) do
		cands[i] = { model = self, dice = a.dice, cast = a.cast, group = a.group }
	end
	return weigh(ctx, "nomination", asks, cands, ask_name, why)
end

return {
	deploy = D.deploy,
	blessing = D.blessing,
	activate = activate,
	act = act,
	council = D.council,
}
