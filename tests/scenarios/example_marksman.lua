-- Core rules §3.5, the shooting example (as settled by SUPPLEMENT §4): a C3 Marksman with Good Shot fires at
-- a C2 enemy in Cover. He rolls 5: 3 + 5 + 1 − 1 = 8. The target rolls 4 for 6. The shooter wins; his die
-- 5 is odd, so the target Recoils (the rulebook's "Defenseless because the die was even" is the misprint
-- SUPPLEMENT settles). The target stands at two Long measures, where the Longbow adds nothing.
local g = village.new_game({ seed = 1, table = "empty" })
g:add_terrain("wood", { { 16, 32 }, { 18, 32 }, { 18, 34 }, { 16, 34 } })
local tobin = g:place("Tobin the Marksman", { x = 5, y = 33 })
local target = g:place("Goblin Looter", { x = 17, y = 33 })
g:force_dice({ 5, 4 })
local r = g:shoot(tobin, target)
assert(r.attacker_total == 8 and r.defender_total == 6, r.attacker_total .. " vs " .. r.defender_total)
local seen = {}
for _, m in ipairs(r.modifiers) do
	seen[m.reason] = m
end
assert(seen["target in Cover"] and seen["target in Cover"].value == -1)
local good_shot
for _, m in ipairs(r.modifiers) do
	if m.source:find("scripts/traits/good_shot.lua", 1, true) then
		good_shot = m
	end
end
assert(good_shot and good_shot.value == 1, "Good Shot's +1 comes from its trait script")
assert(r.winner == tobin and r.result == "recoil", r.result)
assert(math.abs(target.pos.x - 18) < 1e-9, "one base width directly away from the shooter")
