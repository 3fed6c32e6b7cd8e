--! mod: tests/fixtures/movement_mod
-- A `movement` given as a table answers every move as a function returning it would: the Striding Orc
-- moves the Long measure (9") where an Orc Warrior moves Medium (6"), and the move's log names the
-- script; a malformed table is that script's error, naming its file, and the model stays where it was.
local g = village.new_game({ seed = 1, table = "empty" })
local strider = g:place("Striding Orc", { x = 2, y = 33 })
local orc = g:place("Orc Warrior", { x = 2, y = 30 })
assert(math.abs(g:move(strider, { x = 30, y = 33 }).travelled - 9) < 1e-9)
assert(math.abs(g:move(orc, { x = 30, y = 30 }).travelled - 6) < 1e-9)
local moved = g:log()[#g:log() - 1]
assert(moved.event == "moved" and moved.traits[1]:find("movement_mod/scripts/traits/stride.lua", 1, true))
local stumbler = g:place("Stumbling Orc", { x = 2, y = 20 })
local ok, err = pcall(function()
	return g:move(stumbler, { x = 30, y = 20 })
end)
assert(not ok, "a malformed movement table refuses the move")
assert(
	tostring(err):find(
		'movement_mod/scripts/traits/bad_stride.lua: movement returned band = "sideways"',
		1,
		true
	),
	tostring(err)
)
local pos = g:model(stumbler.id).pos
assert(pos.x == 2 and pos.y == 20, "the model did not move")
