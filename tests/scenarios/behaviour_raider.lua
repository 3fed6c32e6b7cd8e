-- Raider (core §6.3): the nearest intact Forge or Stable; with both Destroyed it leaves by the nearest edge.
local g = village.new_game({ seed = 1, table = "empty" })
local north = g:place("Goblin Looter", { x = 18, y = 33 })
local west = g:place("Goblin Looter", { x = 2, y = 18 })
assert(north.behaviour == "Raider")
assert(g:target(north) == g:building("Forge"))
assert(g:target(west) == g:building("Stable"))
-- The Temple and the Town Hall are no Raider's business, however near.
local east = g:place("Goblin Looter", { x = 33, y = 18 })
local t = g:target(east)
assert(t == g:building("Forge") or t == g:building("Stable"), tostring(t))
g:damage("Forge", 5)
assert(g:target(north) == g:building("Stable"), "the Forge is Destroyed")
g:damage("Stable", 4)
assert(g:target(north) == "edge" and g:target(west) == "edge")

-- "attack that building until it is Destroyed, then move by the shortest route to the nearest table edge
-- and leave it": a Raider that wrecked the Forge leaves though the Stable stands.
local g2 = village.new_game({ seed = 1, table = "empty" })
g2:damage("Forge", 4) -- one Integrity left
local forge = g2:building("Forge")
local looter = g2:place(
	"Goblin Looter",
	{ x = forge.pos.x, y = forge.pos.y + forge.size.h / 2 + 0.5 },
	{ group = 1, behaviour = "Raider" }
)
local other = g2:place("Goblin Looter", { x = 2, y = 18 }, { group = 2, behaviour = "Raider" })
assert(g2:target(looter) == forge)
g2:force_dice({ 6, 1 })
local r = g2:structural(looter, "Forge")
assert(r.destroyed and looter.wrecked == "Forge", "it wrecked the Forge")
assert(g2:target(looter) == "edge", "and now leaves")
assert(g2:target(other) == g2:building("Stable"), "a Raider that wrecked nothing still goes for the Stable")
