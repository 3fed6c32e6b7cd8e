-- Javelins (core §3.5): "after moving closer to a target, one may be thrown for free". A Kobold
-- Skirmisher with one action moves closer and throws in the same activation; the throw costs nothing,
-- is logged `free_throw`, and is still its one attack of the turn. Without the move, a throw costs the
-- action; a Short Bow gets no free shot after moving.
local I = require("lib.inspect")
local g = village.new_game({ seed = 9, table = "empty" })
local maren = g:place("Captain Maren", { x = 4, y = 4 })
local kobold = g:place("Kobold Skirmisher", { x = 4, y = 11 })
assert(kobold.weapon == "Javelins")
g:begin_turn("enemies")
-- One action: the move closer (to within 2", in range), then the free throw.
local done = g:orders(kobold, 1, { { move = maren, within = 2 }, { shoot = maren } })
assert(#done == 2, "two steps from one action: " .. #done)
assert(done[1].did == "moved" and done[2].did == "shoot", done[2].did .. " " .. tostring(done[2].why))
local free = I.last_event(g, "free_throw")
assert(free and free.model == kobold.id and free.target == maren.id, "the free throw is logged")
assert(kobold.attacks == 1, "the throw is its one attack of the turn")

-- Standing still, a throw costs the action: with one action, nothing is free after it.
local g2 = village.new_game({ seed = 9, table = "empty" })
local bram = g2:place("Bram the Smith", { x = 4, y = 4 })
local still = g2:place("Kobold Skirmisher", { x = 4, y = 7 })
g2:begin_turn("enemies")
local d2 = g2:orders(still, 1, { { shoot = bram }, { shoot = bram } })
assert(#d2 == 1 and d2[1].did == "shoot", "one shot for one action")
assert(I.last_event(g2, "free_throw") == nil)

-- Moving with a Short Bow: the shot needs an action of its own.
local g3 = village.new_game({ seed = 9, table = "empty" })
local orc = g3:place("Orc Warrior", { x = 4, y = 4 })
local archer = g3:place("Village Archer", { x = 4, y = 14 })
g3:begin_turn("heroes")
local d3 = g3:orders(archer, 1, { { move = orc, within = 4 }, { shoot = orc } })
assert(#d3 == 1 and d3[1].did == "moved", "no free shot with a Short Bow")
