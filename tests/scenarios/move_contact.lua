-- Core rules §3.3: movement stops on contact with an enemy; the two are then Engaged.
local g = village.new_game({ seed = 1, table = "empty" })
local orc = g:place("Orc Warrior", { x = 3, y = 3 })
local bram = g:place("Bram the Smith", { x = 7, y = 3 })

local m = g:move(orc, { x = 12, y = 3 })
assert(m.stopped_by == bram, "stopped by the hero")
assert(math.abs(m.to.x - 6) < 1e-9 and m.to.y == 3, "bases touch: centres 1 inch apart")
assert(orc.engaged and bram.engaged)
assert(math.abs(g:distance(orc, bram)) < 1e-9)

-- Without anything in the way a move goes its full Medium band (6") toward the point.
local wolf = g:place("Zombie", { x = 3, y = 30 })
m = g:move(wolf, { x = 30, y = 30 })
assert(m.stopped_by == nil)
assert(math.abs(m.to.x - 9) < 1e-9, "a Medium move is 6 inches")

-- A move into a building stops at its wall.
local th = g:building("Town Hall")
local imp = g:place("Goblin Looter", { x = th.pos.x, y = th.pos.y - th.size.h / 2 - 3 })
m = g:move(imp, th.pos)
assert(m.stopped_by == th, "stopped by the Town Hall")

-- The log says what stopped the move.
local moved
for _, e in ipairs(g:log()) do
	if e.event == "moved" and e.model == orc.id then
		moved = e
	end
end
assert(moved.stopped_by:find("contact with Bram the Smith"), moved.stopped_by)
