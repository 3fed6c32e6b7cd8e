--! mod: tests/fixtures/rule_probe_mod
-- A view lists only its fields with `pairs` (every one filled in, string keys only: the call's serial it
-- carries is under a key no script can name), `getmetatable` gives a stand-in marked `view = true`, and
-- breaking that stand-in breaks no view: the views keep reading their fields, in this call and the next.
local inspect = require("lib.inspect")
local g = village.new_game({ seed = 1, table = "empty" })
local orc = g:place("Rule Probing Orc", { x = 3, y = 3 })
local function reason_of(hero)
	local quality = hero.quality
	g:force_dice({ 3, 3 })
	local mods = inspect.modifiers_from(g:melee(orc, hero), "view_prober.lua")
	assert(#mods == 1, "one modifier from the view prober, got " .. #mods)
	return mods[1].reason, quality
end
local first, quality = reason_of(g:place("Tobin the Marksman", { x = 4, y = 3 }))
local fields = first:match("^keys (%d+),")
assert(tonumber(fields) and tonumber(fields) >= 20, "pairs lists every field: " .. first)
assert(first == "keys " .. fields .. ", not strings [], marked true, reads false " .. quality, first)
-- The next call's views are as good (another hero, the first may have fallen).
local second, quality2 = reason_of(g:place("Captain Maren", { x = 3, y = 4 }))
assert(second == "keys " .. fields .. ", not strings [], marked true, reads false " .. quality2, second)
print(first)
print(second)
