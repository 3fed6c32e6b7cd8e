--! mod: tests/fixtures/rule_probe_mod
-- A view lists only its fields with `pairs` (every one filled in, string keys only: the call's serial it
-- carries is under a key no script can name), `getmetatable` gives a stand-in marked `view = true`, and
-- breaking that stand-in breaks no view: the views keep reading their fields, in this call and the next.
-- The queries that hand out views answer the same from a coroutine of the script's own.
local inspect = require("lib.inspect")
local g = village.new_game({ seed = 1, table = "empty" })
-- Two tokens on the table, one an Opportunity.
g:opportunity({ 10, 30 })
g:trap({ 12, 30 })
local orc = g:place("Rule Probing Orc", { x = 3, y = 3 })
local function reason_of(hero)
	local quality, heroes = hero.quality, #g:models({ side = "heroes" })
	g:force_dice({ 3, 3 })
	local mods = inspect.modifiers_from(g:melee(orc, hero), "view_prober.lua")
	assert(#mods == 1, "one modifier from the view prober, got " .. #mods)
	return mods[1].reason, quality, heroes
end
local first, quality, heroes = reason_of(g:place("Tobin the Marksman", { x = 4, y = 3 }))
local fields = first:match("^keys (%d+),")
assert(tonumber(fields) and tonumber(fields) >= 20, "pairs lists every field: " .. first)
local queries = "; queries %d heroes, 5 standing, Town Hall Town Hall, engaged 1, same view true, "
	.. "tokens 1/2, spent false; in a coroutine true; a building's has refused true"
assert(
	first
		== "keys "
			.. fields
			.. ", not strings [], marked true, reads false "
			.. quality
			.. queries:format(heroes),
	first
)
-- The next call's views are as good (another hero, the first may have fallen).
local second, quality2, heroes2 = reason_of(g:place("Captain Maren", { x = 3, y = 4 }))
assert(
	second
		== "keys "
			.. fields
			.. ", not strings [], marked true, reads false "
			.. quality2
			.. queries:format(heroes2),
	second
)
print(first)
print(second)
