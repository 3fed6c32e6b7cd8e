--! mod: tests/fixtures/traits_b_mod
-- Dashing (SUPPLEMENT §9, scripts/traits/dashing.lua): +melee.dashing (1) when it attacks in the
-- activation it moved into contact; not when it did not move in, not after a new activation, not
-- when defending.
local g = village.new_game({ seed = 1, table = "empty" })
local dash = g:place("Dashing Orc", { x = 8, y = 30 })
local archer = g:place("Village Archer", { x = 3, y = 30 })

-- It moves into contact and attacks: 3 + 1 + 1 = 5 against the archer's 2 + 3 = 5, a tie (ties keep
-- both in place for the next checks).
g:move(dash, archer.pos)
assert(dash.engaged)
g:force_dice({ 1, 3 })
local r = g:melee(dash, archer)
assert(r.attacker_total == 5 and r.result == "tie", r.attacker_total)
assert(#r.modifiers == 1 and r.modifiers[1].reason == "Dashing")
assert(r.modifiers[1].source:find("scripts/traits/dashing.lua", 1, true), r.modifiers[1].source)

-- Defending, no bonus: the archer attacks it, 2 + 3 = 5 against 3 + 2 = 5.
g:force_dice({ 3, 2 })
r = g:melee(archer, dash)
assert(r.defender_total == 5 and #r.modifiers == 0 and r.result == "tie")

-- Its next activation clears the charge: no bonus.
g:force_dice({ 6, 6 })
g:activate(dash, 2)
g:force_dice({ 2, 3 })
r = g:melee(dash, archer)
assert(r.attacker_total == 5 and #r.modifiers == 0)

-- Placed in contact (no move): no bonus.
local dash2 = g:place("Dashing Orc", { x = 30, y = 30 })
local archer2 = g:place("Village Archer", { x = 31, y = 30 })
g:force_dice({ 3, 3 })
r = g:melee(dash2, archer2)
assert(r.attacker_total == 6 and #r.modifiers == 0)
