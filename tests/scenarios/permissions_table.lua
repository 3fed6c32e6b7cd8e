--! mod: tests/fixtures/permissions_mod
-- `permissions` as a table of names: the names with a true value are granted, with the script as the
-- source; a name set to false is not. (Hero, Leader, Tough... grant theirs this way too.)
local inspect = require("lib.inspect")
local g = village.new_game({ seed = 1, table = "empty" })
local orc = g:place("Permission Orc", { x = 3, y = 3 })
local tobin = g:place("Tobin the Marksman", { x = 4, y = 3 })
g:force_dice({ 3, 3 })
local mods = inspect.modifiers_from(g:melee(orc, tobin), "asker.lua")
assert(#mods == 1, "the asker's modifier")
local reason = mods[1].reason
assert(reason:find("heal: tests/fixtures/permissions_mod/scripts/traits/half_tough.lua", 1, true), reason)
assert(reason:find("tough: none", 1, true), reason)
