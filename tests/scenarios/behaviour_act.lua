-- One enemy action at a time (core §6.2's universal priority), as the Behaviour scripts order it and the
-- kernel executes it: move by the shortest legal route toward the target, attack it when attackable,
-- fight when Engaged, leave by an edge when there is nothing left to raid.
local g = village.new_game({ seed = 1, table = "empty" })

-- A Ravager north of the Forge walks straight down to it (6" a move). The Orc Warrior is an Igniter
-- (core §5.2) and this game is in no wave, so Igniters may burn: it sets the Forge alight first, then,
-- the Forge burning, attacks it.
local orc = g:place("Orc Warrior", { x = 18, y = 34 }, { behaviour = "Ravager" })
local a = g:act(orc)
assert(a.did == "moved" and math.abs(a.travelled - 6) < 1e-9, a.did)
a = g:act(orc)
assert(a.did == "moved" and math.abs(orc.pos.y - 27.5) < 1e-9, "it stops touching the Forge: " .. orc.pos.y)
a = g:act(orc)
assert(a.did == "ignite" and a.building == "Forge" and g:building("Forge").fire, a.did)
g:force_dice({ 6, 1 })
a = g:act(orc)
assert(a.did == "structural" and a.building == "Forge" and a.damage == 1)
assert(g:building("Forge").integrity == 4)

-- A Hunter goes for the nearest hero around the Town Hall, not through it.
local hunter = g:place("Orc Warrior", { x = 18, y = 22 }, { behaviour = "Hunter" })
local bram = g:place("Bram the Smith", { x = 18, y = 14 })
a = g:act(hunter)
assert(a.did == "moved")
local th = g:building("Town Hall")
assert(
	math.abs(hunter.pos.x - th.pos.x) >= th.size.w / 2 or hunter.pos.y >= th.pos.y + th.size.h / 2,
	"it walks around the Town Hall"
)
for _ = 1, 3 do
	if not hunter.engaged then
		g:act(hunter)
	end
end
assert(hunter.engaged and g:distance(hunter, bram) < 0.05, "it reached Bram")
g:force_dice({ 3, 3 })
a = g:act(hunter)
assert(a.did == "melee")

-- A Raider with no economic building left leaves by the nearest edge.
g:damage("Forge", 10)
g:damage("Stable", 10)
local raider = g:place("Goblin Looter", { x = 2, y = 30 })
a = g:act(raider)
assert(a.did == "left" and raider.defeated == false, a.did)
