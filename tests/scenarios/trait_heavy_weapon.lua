--! mod: tests/fixtures/example_mod
-- Heavy Weapon (scripts/traits/heavy_weapon.lua, core §6.4): +1 on structural attacks, not stacking with
-- Big or Huge. A test profile carries Heavy Weapon alone; the Orc Demolisher has it with Big.
local g = village.new_game({ seed = 1, table = "empty" })
local forge = g:building("Forge")
local below = forge.pos.y - forge.size.h / 2
local sapper = g:place("Village Sapper", { x = forge.pos.x - 1.5, y = below - 0.5 })
local demolisher = g:place("Orc Demolisher", { x = forge.pos.x + 1.5, y = below - 0.75 })
g:force_dice({ 4, 3 })
local r = g:structural(sapper, forge)
assert(r.attacker_total == 4 + 2 + 1, r.attacker_total)
assert(#r.modifiers == 1 and r.modifiers[1].source:find("scripts/traits/heavy_weapon.lua", 1, true))
g:force_dice({ 4, 3 })
r = g:structural(demolisher, forge)
assert(r.attacker_total == 4 + 3 + 1, "Big and Heavy Weapon: +1, not +2")
assert(#r.modifiers == 1 and r.modifiers[1].source:find("scripts/traits/big.lua", 1, true))
-- Not in melee.
local orc = g:place("Orc Warrior", { x = 30, y = 32 })
local fighter = g:place("Village Sapper", { x = 31, y = 32 })
g:force_dice({ 3, 3 })
r = g:melee(fighter, orc)
assert(#r.modifiers == 0)
