--! mod: tests/fixtures/query_errors_mod
-- The queries refuse a malformed question with an error that names the option and what was wrong,
-- located at the script's line, whichever way the kernel reads the options table; the game goes on.
local inspect = require("lib.inspect")
local g = village.new_game({ seed = 1, table = "empty" })
local orc = g:place("Querying Orc", { x = 3, y = 3 })
local tobin = g:place("Tobin the Marksman", { x = 4, y = 3 })
-- For the building filters: the Forge damaged, the Temple burning and damaged, the Stable burning.
g:damage("Forge", 1)
g:damage("Temple", 1)
for _, name in ipairs({ "Temple", "Stable" }) do
	local b = g:building(name)
	g:ignite(g:place("Goblin Looter", { x = b.pos.x, y = b.pos.y - b.size.h / 2 - 0.5 }), name)
end
g:force_dice({ 3, 3 })
local result = g:melee(orc, tobin)
local mods = inspect.modifiers_from(result, "querier.lua")
local answers = inspect.answers(result, "querier.lua")
local at = "tests/fixtures/query_errors_mod/scripts/traits/querier.lua:"
local function says(name, text)
	local a = answers[name] or "(no answer)"
	assert(a:find(text, 1, true), name .. ": " .. a)
	assert(a:find(at, 1, true), name .. " is located at the script's line: " .. a)
end
says("side_name", 'side must be "heroes" or "enemies", got "orcs"')
says("side_type", 'side must be "heroes" or "enemies", got "3"')
says("kind_name", 'kind = "dragon" (expected "hero", "enemy", "defender")')
says("near_number", "near: expected a model, a building, a token or a point, got a integer")
says("near_nan", "near = (NaN, 1) is not a point on the table: x and y must be finite numbers")
says("except_bool", "expected a model snapshot or id, got boolean")
says("unknown", "unknown option `colour`")
says("distances_nan", "distances_from = (1, NaN) is not a point on the table")
assert(answers.near_point == "listed 1", answers.near_point)
-- The building filters keep what they name, in roster order, and combine.
local listed = inspect.checks(answers)
listed("burning", "[Temple,Stable]")
listed("undamaged", "[Town Hall,Watchtower]")
listed("damaged", "[Forge,Temple]")
listed("damaged_burning", "[Temple]")
assert(#mods == 13, "an answer to each question, got " .. #mods)
for _, m in ipairs(mods) do
	print(m.reason)
end
