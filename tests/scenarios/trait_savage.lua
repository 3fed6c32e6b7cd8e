--! mod: tests/fixtures/traits_b_mod
-- Savage (SUPPLEMENT §9, scripts/traits/savage.lua): its melee win is a Gruesome Kill from double the
-- loser's total (combat.savage_gruesome_multiplier) instead of triple; its losses are read normally.
local g = village.new_game({ seed = 1, table = "empty" })
local rules = g:rules()
assert(rules.combat.savage_gruesome_multiplier == 2 and rules.combat.gruesome_multiplier == 3)

-- A plain Orc Warrior (C3) rolling 5 → 8 against an archer's 1 → 3 only Defeats (8 < 9).
local orc = g:place("Orc Warrior", { x = 3, y = 34 })
local a1 = g:place("Village Archer", { x = 4, y = 34 })
g:force_dice({ 5, 1 })
local r = g:melee(orc, a1)
assert(r.attacker_total == 8 and r.defender_total == 3 and r.result == "defeated", r.result)

-- The Savage Orc with the same dice: 8 >= 2 x 3, a Gruesome Kill.
local savage = g:place("Savage Orc", { x = 3, y = 30 })
local a2 = g:place("Village Archer", { x = 4, y = 30 })
g:force_dice({ 5, 1 })
r = g:melee(savage, a2)
assert(r.attacker_total == 8 and r.defender_total == 3, r.attacker_total .. " vs " .. r.defender_total)
assert(r.table_result == "gruesome" and r.result == "gruesome", r.result)
assert(a2.defeated)
local outcome
for _, e in ipairs(g:log()) do
	if e.event == "outcome" and e.model == a2.id then
		outcome = e
	end
end
assert(outcome and outcome.result == "gruesome", "no Gruesome Kill outcome logged")

-- Double is not enough for the Savage Orc's opponent: an archer's 6 → 8 against the orc's 1 → 4 Defeats.
local a3 = g:place("Village Archer", { x = 4, y = 30 })
g:force_dice({ 1, 6 })
r = g:melee(savage, a3)
assert(r.winner == a3 and r.attacker_total == 4 and r.defender_total == 8)
assert(r.result == "defeated", r.result)
