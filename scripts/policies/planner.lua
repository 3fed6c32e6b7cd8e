-- The planning hero policy: it plays as the default policy (scripts/policies/default.lua) but weighs its
-- decisions by playing them out (`ctx:rollouts`, the kernel's rollouts with the default policy and the
-- Behaviours, on the same dice for every candidate): how many dice an activation rolls, and for the
-- model taking its actions, the default's order against the other attacks and approaches open to it.
-- A candidate must beat the default's choice by more than a margin to be taken, so where nothing is
-- worth planning it plays as the default. Its Council, deployment and Blessing are the default's.
local T = require("lib.tactics")
local A = require("lib.act")
local O = require("lib.opportunity")
local C = require("lib.council")
local VA = require("lib.village_abilities")

-- How the planner plays out its candidates: eight playouts each, to the end of the round.
local OPTIONS = { samples = 8, depth = "round" }
-- How sure the planner must be that a candidate beats the default's choice: standard errors of the
-- paired difference.
local SURE = 1

local function default_act(ctx, self)
	local opp, why = O.claim_or_approach(ctx, self)
	if opp and not (opp.move and A.held(self)) then
		return opp, why
	end
	return T.act(ctx, self)
end

-- The index of the best candidate: the first (the default's choice) unless another beats it on the same
-- dice — the mean of its paired differences with the first, less one standard error, above zero.
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
		"played out: %.3f (%.3f–%.3f) over %d playouts, against %.3f for the default's choice",
		e.mean,
		e.low,
		e.high,
		e.playouts,
		r.estimates[1].mean
	)
end

local function activate(ctx, self)
	local ask, why = T.activation(ctx, self)
	if not ask then
		return ask, why
	end
	local cands = { { model = self, dice = ask.dice, cast = ask.cast, group = ask.group } }
	for d = 1, 3 do
		if d ~= ask.dice then
			cands[#cands + 1] = { model = self, dice = d, cast = ask.cast, group = ask.group }
		end
	end
	local r = ctx:rollouts(cands, OPTIONS)
	local at = best(r)
	if at == 1 then
		return ask, why
	end
	return { dice = cands[at].dice, cast = ask.cast, group = ask.group }, words(r, at)
end

-- The orders worth weighing against the default's: strike each adjacent enemy (a Power Blow with two
-- actions left), shoot each enemy the rules allow, close in on each of the three nearest enemies.
local function alternatives(ctx, self, first)
	local out = { first }
	local foes = {}
	for i, e in ipairs(ctx:models({ side = "enemies", near = self })) do
		if i > 3 then
			break
		end
		foes[i] = e
	end
	local engaged = ctx:engaged(self)
	if #engaged > 0 then
		if A.may_attack(ctx, self) then
			for _, e in ipairs(engaged) do
				out[#out + 1] = { melee = e, power_blow = self.actions_left >= 2 }
			end
		end
		return out
	end
	for _, e in ipairs(foes) do
		if A.may_attack(ctx, self) and self.weapon and ctx:can_shoot(self, e) then
			out[#out + 1] = { shoot = e, aimed = self.actions_left >= 2 }
		end
		out[#out + 1] = { move = e }
	end
	return out
end

local function act(ctx, self)
	local order, why = default_act(ctx, self)
	if order == nil then
		return order, why
	end
	local orders = alternatives(ctx, self, order)
	if #orders < 2 then
		return order, why
	end
	local cands = {}
	for i, o in ipairs(orders) do
		cands[i] = { order = o }
	end
	local r = ctx:rollouts(cands, OPTIONS)
	local at = best(r)
	if at == 1 then
		return order, why
	end
	return orders[at], words(r, at)
end

return {
	deploy = VA.deploy,
	blessing = VA.blessing,
	activate = activate,
	act = act,
	council = C.council,
}
