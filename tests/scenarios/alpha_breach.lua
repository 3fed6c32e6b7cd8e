-- Breach (SUPPLEMENT §8; scripts/alpha/breach.lua): an Orc Demolisher's winning structural attack also
-- removes a Barricade adjacent to it; a losing one does not.
local inspect = require("lib.inspect")
local SCRIPT = "alpha/breach.lua"

local g = village.new_game({ seed = 1, table = "empty" })
local forge = g:building("Forge")
local y = forge.pos.y + forge.size.h / 2
local demo = g:place("Orc Demolisher", { x = forge.pos.x, y = y + 0.75 })
-- A Barricade touching the Demolisher's base.
local by = demo.pos.y + demo.base / 2
local bar = g:barricade({ forge.pos.x - 3, by }, { forge.pos.x, by })
-- A losing attack: the Barricade stays.
g:force_dice({ 1, 6 })
g:structural(demo, "Forge")
local found = false
for _, e in ipairs(g:log()) do
	found = found or (e.event == "barricade_damage")
end
assert(not found, "a losing attack breaches nothing")
-- A winning one: the Barricade is gone, and the log names Breach.
g:force_dice({ 6, 1 })
local r = g:structural(demo, "Forge")
assert(r.damage == 1, r.damage)
local b = inspect.last_event(g, "barricade_damage")
assert(b and b.token == bar and b.destroyed and b.source:find(SCRIPT, 1, true), "no Breach")
