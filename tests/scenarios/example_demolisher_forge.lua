-- Core rules §6.4, "a building attack": a C3 Orc Demolisher with Heavy Weapon attacks a Forge. It rolls 4,
-- for 8 after Combat and the Heavy Weapon structural bonus (it is also Big: the bonus does not stack).
-- The Forge rolls 3, for 6 after Structure. The Forge loses 1 Integrity.
local g = village.new_game({ seed = 1, table = "empty" })
local forge = g:building("Forge")
local d = g:place("Orc Demolisher", { x = forge.pos.x, y = forge.pos.y - forge.size.h / 2 - 0.75 })
g:force_dice({ 4, 3 })
local r = g:structural(d, forge)
assert(r.attacker_total == 8 and r.building_total == 6, r.attacker_total .. " vs " .. r.building_total)
assert(r.damage == 1 and forge.integrity == 4 and not forge.destroyed)
