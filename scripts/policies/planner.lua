-- The planning hero policy: it plays as the default policy (scripts/policies/default.lua) but weighs
-- each order of a model taking its actions by playing it out (`ctx:rollouts`: the kernel plays the
-- game on with the default policy and the Behaviours, on the same dice for every candidate): the
-- default's order against striking each other enemy in contact, shooting each enemy the rules allow,
-- closing in on each of the three nearest enemies or on the enemy nearest the Town Hall, or walking to
-- the Town Hall. A candidate is taken only when it beats the default's order on the same dice by more
-- than SURE standard errors of the paired difference, so where nothing is worth planning it plays as
-- the default. Its activations (dice, whom, spellcasting), Council, deployment and Blessing are the
-- default's: weighing the dice and letting a model wait by playouts too was measured no stronger, at
-- 2.5 times the cost (docs/scripting.md, "Which policy for which question").
local D = require("policies.default")
local A = require("lib.act")

-- Eight playouts a candidate, each to the end of the hero turn: the enemies' turn after it added more
-- noise than it told (measured: docs/scripting.md).
local OPTIONS = { samples = 8, depth = "turn" }
-- How sure the planner must be that a candidate beats the default's order: standard errors of the
-- paired difference of their scores.
local SURE = 1.5

-- The index of the best candidate: the first (the default's order) unless another beats it on the
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
		"played out: %.3f (%.3f–%.3f) over %d playouts, against %.3f for the default policy's order",
		e.mean,
		e.low,
		e.high,
		e.playouts,
		r.estimates[1].mean
	)
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
			local name = type(t) == "table" and (t.name or t.id) or t
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
	local r = ctx:rollouts(cands, OPTIONS)
	if ctx.explaining then
		local names, scores = {}, {}
		for i, o in ipairs(orders) do
			names[i] = order_name(o)
			scores[i] = r.estimates[i].mean
		end
		ctx:why("each order played out " .. r.samples .. " times to the end of the turn", names, scores)
	end
	local at = best(r)
	if at == 1 then
		return order, why
	end
	return orders[at], words(r, at)
end

return {
	deploy = D.deploy,
	blessing = D.blessing,
	activate = D.activate,
	act = act,
	council = D.council,
}
