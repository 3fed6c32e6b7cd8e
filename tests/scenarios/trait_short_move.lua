--! mod: tests/fixtures/example_mod
-- Short Move (scripts/traits/short_move.lua): it moves with the Short measure (3"), and crossing difficult
-- ground costs it two actions instead of a band.
local g = village.new_game({ seed = 1, table = "empty" })
local elder = g:place("Village Elder", { x = 2, y = 33 })
local m = g:move(elder, { x = 30, y = 33 })
assert(math.abs(m.travelled - 3) < 1e-9 and m.actions == 1)
g:add_terrain("field", { { 6, 31 }, { 8, 31 }, { 8, 35 }, { 6, 35 } })
m = g:move(elder, { x = 30, y = 33 })
assert(math.abs(m.travelled - 3) < 1e-9 and m.actions == 2, "two actions through the field")
