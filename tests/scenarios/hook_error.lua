--! mod: tests/fixtures/broken_hook_mod
-- A script error inside a hook is reported with file:line and the action is lost: no die is rolled, the
-- log is unchanged, and the game goes on.
local g = village.new_game({ seed = 1, table = "empty" })
local grumpy = g:place("Grumpy Orc", { x = 3, y = 3 })
local tobin = g:place("Tobin the Marksman", { x = 4, y = 3 })
g:force_dice({ 6, 1 })
local before = #g:log()
local ok, err = pcall(g.melee, g, grumpy, tobin)
assert(not ok, "the hook's error is raised")
err = tostring(err)
assert(err:find("scripts/traits/grumpy.lua:5:", 1, true), err)
assert(#g:log() == before, "nothing was logged")
assert(tobin.pos.x == 4 and not tobin:has("defenseless"), "nothing was applied")
-- The forced dice were not consumed: the next roll still uses them.
local r = g:activate(tobin, 2)
assert(r.dice[1] == 6 and r.dice[2] == 1)
