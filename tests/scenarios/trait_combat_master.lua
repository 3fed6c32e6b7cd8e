--! mod: tests/fixtures/traits_b_mod
-- Combat Master (SUPPLEMENT §9, scripts/traits/combat_master.lua): it ignores the outnumbering modifier
-- (melee.outnumbered for each Engaged enemy beyond the first); other models still suffer it.
local g = village.new_game({ seed = 1, table = "empty" })

-- An Orc Warrior between two archers: 3 + 4 - 1 = 6.
local orc = g:place("Orc Warrior", { x = 3, y = 34 })
local a1 = g:place("Village Archer", { x = 4, y = 34 })
g:place("Village Archer", { x = 3, y = 33 })
g:force_dice({ 4, 4 })
local r = g:melee(orc, a1)
assert(r.attacker_total == 6 and #r.modifiers == 1 and r.modifiers[1].value == -1)

-- The Combat Master Orc in the same spot: -1 (rules) and +1 (its script): 3 + 4 = 7.
local cm = g:place("Combat Master Orc", { x = 3, y = 30 })
local b1 = g:place("Village Archer", { x = 4, y = 30 })
g:place("Village Archer", { x = 3, y = 29 })
g:force_dice({ 4, 4 })
r = g:melee(cm, b1)
assert(r.attacker_total == 7, r.attacker_total)
local rule, script
for _, m in ipairs(r.modifiers) do
	if m.source == "rules" then
		rule = m
	elseif m.source:find("scripts/traits/combat_master.lua", 1, true) then
		script = m
	end
end
assert(rule and rule.value == -1 and rule.to == "attacker")
assert(script and script.value == 1 and script.to == "attacker" and script.reason == "Combat Master")

-- It works defending too: the archer it left Defenseless attacks it, and its total is 3 + 3, with no
-- outnumbering penalty, + 2 against the Defenseless archer (melee is simultaneous, SUPPLEMENT §11) = 8.
g:force_dice({ 5, 3 })
r = g:melee(b1, cm)
assert(r.defender_total == 8, r.defender_total)

-- Against a single enemy it adds nothing.
local cm2 = g:place("Combat Master Orc", { x = 30, y = 30 })
local c1 = g:place("Village Archer", { x = 31, y = 30 })
g:force_dice({ 4, 4 })
r = g:melee(cm2, c1)
assert(#r.modifiers == 0 and r.attacker_total == 7)
