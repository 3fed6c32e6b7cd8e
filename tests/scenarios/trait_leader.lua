-- Leader (scripts/traits/leader.lua, core §3.1): it may activate a group of friends within Long on one
-- roll at the worst Quality. Captain Maren leads; Bram the Smith cannot.
local g = village.new_game({ seed = 1, table = "empty" })
local maren = g:place("Captain Maren", { x = 4, y = 32 })
local archer = g:place("Village Archer", { x = 8, y = 32 })
local bram = g:place("Bram the Smith", { x = 4, y = 28 })
g:force_dice({ 3, 4 })
local r = g:activate_group(maren, { archer, bram }, 2)
assert(r.successes == 1 and r.failures == 1, "the archer's Q4 is the group's: the 3 fails")
local ok, err = pcall(g.activate_group, g, bram, { archer }, 2)
assert(not ok and tostring(err):find("not a Leader"), tostring(err))
