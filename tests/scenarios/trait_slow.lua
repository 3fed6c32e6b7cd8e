-- Slow (scripts/traits/slow.lua): one move action per activation; a new activation allows another.
local g = village.new_game({ seed = 1, table = "empty" })
local zombie = g:place("Zombie", { x = 2, y = 33 })
local orc = g:place("Orc Warrior", { x = 2, y = 30 })
g:move(zombie, { x = 30, y = 33 })
local ok, err = pcall(g.move, g, zombie, { x = 30, y = 33 })
assert(not ok and tostring(err):find("Slow"), tostring(err))
g:move(orc, { x = 30, y = 30 })
g:move(orc, { x = 30, y = 30 }) -- not Slow: a second move is fine
g:force_dice({ 6 })
g:activate(zombie, 1)
assert(math.abs(g:move(zombie, { x = 30, y = 33 }).travelled - 6) < 1e-9)
