--! mod: tests/fixtures/rule_probe_mod
-- `ctx:nearest` keeps the candidates nearest a model as the Behaviours kept them from every
-- candidate's view (`P.smallest_of` over `ctx:distances_from`: in candidate order, within 0.000001" of
-- the best so far is a tie, more than that nearer replaces): the probe checks each answer against that
-- choice made in Lua. Here four heroes are within 0.000001" of each other (in id order), a fifth
-- 0.0000015" further is left out; a Village Defender stands in contact, so a query of every model of
-- the heroes' side keeps it alone; buildings and models mix in one query.
local inspect = require("lib.inspect")
local g = village.new_game({ seed = 1, table = "empty" })
local orc = g:place("Rule Probing Orc", { x = 8, y = 30 })
local archer = g:place("Village Archer", { x = 9, y = 30 })
g:place("Captain Maren", { x = 8, y = 35 })
g:place("Tobin the Marksman", { x = 13, y = 30 })
g:place("Wren the Scout", { x = 8, y = 25.0000004 })
g:place("Sister Ilse", { x = 3.0000007, y = 30 })
g:place("Bram the Smith", { x = 11.0000009, y = 34.0000012 })
g:force_dice({ 3, 3 })
local answers = inspect.answers(g:melee(orc, archer), "measure_prober.lua")
local is, refused = inspect.checks(answers, "rule_probe_mod/scripts/traits/measure_prober.lua:")
is("nearest_heroes", "string Captain Maren,Tobin the Marksman,Wren the Scout,Sister Ilse")
is("nearest_mixed", "string Village Archer")
is("nearest_buildings", "string Forge")
is("nearest_nothing", "string ")
is("nearest_none_match", "string ")
refused("nearest_bad_key", "unknown option `model` (expected one of: models, buildings)")
refused("nearest_bad_query", 'side must be "heroes" or "enemies", got "nobody"')
for name, a in pairs(answers) do
	if name:find("nearest", 1, true) then
		print(name .. ": " .. a)
	end
end
