-- Wildfire (SUPPLEMENT §8; scripts/alpha/wildfire.lua): when the Fire Entity is Defeated, every intact
-- building adjacent to it gains a fire token; a building farther off does not.
local inspect = require("lib.inspect")
local SCRIPT = "alpha/wildfire.lua"

local g = village.new_game({ seed = 1, table = "empty" })
local forge = g:building("Forge")
local fire = g:place("Fire Entity", { x = forge.pos.x, y = forge.pos.y + forge.size.h / 2 + 0.5 })
local maren = g:place("Captain Maren", { x = fire.pos.x, y = fire.pos.y + 1 })
-- 6 + 4 against 1 + 3: more than double, Defeated (the Entity is Artificial, not Tough).
g:force_dice({ 6, 1 })
local r = g:melee(maren, fire)
assert(r.result == "defeated" or r.result == "gruesome", r.result)
assert(g:building("Forge").fire, "the Forge burns")
local e = inspect.last_event(g, "fire")
assert(e.building == "Forge" and e.lit and e.source:find(SCRIPT, 1, true), "no Wildfire")
for _, b in ipairs(g:buildings()) do
	if b.name ~= "Forge" then
		assert(not b.fire, b.name .. " is not adjacent")
	end
end
