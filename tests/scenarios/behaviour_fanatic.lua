-- Fanatic (core §6.3): always the Town Hall, whoever stands nearer.
local g = village.new_game({ seed = 1, table = "empty" })
local zealot = g:place("Chaos Zealot", { x = 2, y = 33 })
assert(zealot.behaviour == "Fanatic")
g:place("Bram the Smith", { x = 3, y = 33 })
assert(g:target(zealot) == g:building("Town Hall"))
