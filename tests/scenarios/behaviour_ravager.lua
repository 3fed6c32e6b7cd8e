-- Ravager (core §6.3): the nearest undestroyed building; on a tie, the lowest Integrity; if every building
-- is Destroyed, it hunts. (Empty table: Town Hall centred at 18,18; Forge north, Temple east, Watchtower
-- south, Stable west.)
local g = village.new_game({ seed = 1, table = "empty" })
local far = g:place("Orc Warrior", { x = 18, y = 33 }, { behaviour = "Ravager" })
assert(far.behaviour == "Ravager")
assert(g:target(far) == g:building("Forge"), "the Forge is nearest")

-- Halfway between the Town Hall (8) and the Forge (5): a tie, broken by the lowest Integrity.
local between = g:place("Orc Warrior", { x = 18, y = 22 }, { behaviour = "Ravager" })
assert(g:target(between) == g:building("Forge"))
g:damage("Town Hall", 4)
assert(g:target(between) == g:building("Town Hall"), "now the Town Hall has less Integrity")

-- Fallback: with every building Destroyed it hunts the nearest hero.
local bram = g:place("Bram the Smith", { x = 3, y = 3 })
for _, b in ipairs(g:buildings()) do
	g:damage(b, 10)
end
assert(g:target(between) == bram)
