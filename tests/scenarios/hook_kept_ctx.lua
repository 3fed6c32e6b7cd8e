--! mod: tests/fixtures/kept_ctx_mod
-- A hook's ctx lives only for its call: a script that keeps it and tries it later gets a Lua error it
-- can catch, and the game goes on.
local inspect = require("lib.inspect")
local g = village.new_game({ seed = 1, table = "empty" })
local orc = g:place("Hoarding Orc", { x = 3, y = 3 })
local tobin = g:place("Tobin the Marksman", { x = 4, y = 3 })
local maren = g:place("Captain Maren", { x = 2, y = 3 })
local function reason_of(r)
	local mods = inspect.modifiers_from(r, "hoarder.lua")
	assert(#mods == 1, "one modifier from the trait, got " .. #mods)
	return mods[1].reason
end
g:force_dice({ 3, 3 })
assert(reason_of(g:melee(orc, tobin)) == "first call")
g:force_dice({ 3, 3 })
local reason = reason_of(g:melee(orc, maren))
assert(reason:find("old ctx refused", 1, true), reason)
print(reason)
