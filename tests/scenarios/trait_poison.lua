--! mod: tests/fixtures/traits_b_mod
-- Poison (SUPPLEMENT §9, scripts/traits/poison.lua): a win that does not kill rolls a D6; on
-- params.min_roll (5) or more the loser's Quality worsens by params.quality_loss (1). Undead and
-- Artificial models are immune. ("Once per turn" is not modelled: the engine has no turn clock yet.)
local g = village.new_game({ seed = 1, table = "empty" })
local orc = g:place("Poison Orc", { x = 3, y = 30 })
local a1 = g:place("Village Archer", { x = 4, y = 30 })
assert(a1.quality == 4)

local function events(kind)
	local out = {}
	for _, e in ipairs(g:log()) do
		if e.event == kind then
			out[#out + 1] = e
		end
	end
	return out
end
local function poison_rolls()
	local n = 0
	for _, e in ipairs(events("roll")) do
		if e.purpose == "poison" then
			n = n + 1
		end
	end
	return n
end

-- 4 → 7 against 3 → 5: Defenseless; the poison die shows 5: Quality 4+ becomes 5+.
g:force_dice({ 4, 3, 5 })
local r = g:melee(orc, a1)
assert(r.result == "defenseless", r.result)
assert(poison_rolls() == 1)
assert(a1.quality == 5, a1.quality)
local q = events("quality_worsened")
assert(#q == 1 and q[1].model == a1.id and q[1].amount == 1 and q[1].quality == 5 and q[1].reason == "Poison")
assert(q[1].source:find("scripts/traits/poison.lua", 1, true), q[1].source)

-- A poison die of 4 does nothing.
local a2 = g:place("Village Archer", { x = 3, y = 31 })
g:force_dice({ 4, 3, 4 })
r = g:melee(orc, a2)
assert(poison_rolls() == 2 and a2.quality == 4 and #events("quality_worsened") == 1)

-- Losing rolls no poison: the Defenseless archer's 6 → 8 against the orc's 1 + 3 - 1 (outnumbered)
-- + 2 (target Defenseless) = 5 wins.
g:force_dice({ 1, 6 })
r = g:melee(orc, a2)
assert(r.winner == a2 and r.attacker_total == 5 and r.defender_total == 8, r.attacker_total)
assert(poison_rolls() == 2)

-- A kill rolls no poison: 6 + 3 - 1 + 2 = 10 against the Defenseless archer's 1 + 2, and +2 because
-- the orc it fights is Defenseless too (it lost to a2 above; melee is simultaneous, SUPPLEMENT §11):
-- 5, so the archer is Defeated.
g:force_dice({ 6, 1 })
r = g:melee(orc, a1)
assert(r.result == "defeated" and r.defender_total == 5, r.result)
assert(poison_rolls() == 2, "no poison roll on a kill")

-- Undead and Artificial losers are immune: the Poison Militia (C3) beats a Skeleton Warrior and a
-- Fire Entity without rolling.
local militia = g:place("Poison Militia", { x = 30, y = 30 })
local skel = g:place("Skeleton Warrior", { x = 31, y = 30 })
g:force_dice({ 4, 3 })
r = g:melee(militia, skel)
assert(r.winner == militia and r.result == "defenseless" and skel.quality == 5, r.result)
local militia2 = g:place("Poison Militia", { x = 30, y = 34 })
local fire = g:place("Fire Entity", { x = 31, y = 34 })
g:force_dice({ 4, 1 })
r = g:melee(militia2, fire)
assert(r.winner == militia2 and r.result == "defenseless" and fire.quality == 4, r.result)
assert(poison_rolls() == 2 and #events("quality_worsened") == 1)
