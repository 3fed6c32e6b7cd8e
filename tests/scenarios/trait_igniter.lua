-- Igniter (scripts/traits/igniter.lua, core §6.4): adjacent to an intact building it may place a fire
-- token. A Goblin Looter is an Igniter; Tobin the Marksman is not.
local g = village.new_game({ seed = 1, table = "empty" })
local forge = g:building("Forge")
local below = forge.pos.y - forge.size.h / 2 - 0.5
local goblin = g:place("Goblin Looter", { x = forge.pos.x - 1, y = below })
local tobin = g:place("Tobin the Marksman", { x = forge.pos.x + 1, y = below })
local ok, err = pcall(g.ignite, g, tobin, forge)
assert(not ok and tostring(err):find("only an Igniter"), tostring(err))
assert(not forge.fire)
g:ignite(goblin, forge)
assert(forge.fire)
