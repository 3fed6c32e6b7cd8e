-- Ride Down (SUPPLEMENT §8; scripts/signatures/ride_down.lua): after moving at least Medium into contact,
-- Sir Roland gets +1 Combat on that activation's attack and a foe he beats Recoils twice (two base
-- widths). A short move into contact gives neither.
local inspect = require("lib.inspect")
local SCRIPT = "signatures/ride_down.lua"

local g = village.new_game({ seed = 1, table = "empty" })
local roland = g:place("Sir Roland", { x = 5, y = 32 })
local orc = g:place("Orc Warrior", { x = 12, y = 32 })
g:force_dice({ 4 }) -- a Hero choosing two dice rolls one
g:activate(roland, 2)
g:move(roland, orc.pos)
assert(roland.moved >= 6, roland.moved)
local from = orc.pos
-- Roland 4 + 4 + 1 = 9 against the orc's 5 + 3 = 8: a win, the die even... a Recoil needs an odd die.
g:force_dice({ 5, 5 })
local r = g:melee(roland, orc)
local mods = inspect.modifiers_from(r, SCRIPT)
assert(#mods == 1 and mods[1].value == 1 and mods[1].reason == "Ride Down", #mods)
assert(r.result == "recoil", r.result)
local pushed = math.sqrt((orc.pos.x - from.x) ^ 2 + (orc.pos.y - from.y) ^ 2)
assert(math.abs(pushed - 2 * orc.base) < 1e-6, pushed)
local changed = inspect.last_event(g, "result_changed")
assert(changed.reason == "Ride Down" and changed.source:find(SCRIPT, 1, true), changed.source)

-- A short step into contact: no bonus, an ordinary Recoil.
local g2 = village.new_game({ seed = 1, table = "empty" })
local knight = g2:place("Sir Roland", { x = 10, y = 32 })
local orc2 = g2:place("Orc Warrior", { x = 12.5, y = 32 })
g2:force_dice({ 4 })
g2:activate(knight, 2)
g2:move(knight, orc2.pos)
local from2 = orc2.pos
g2:force_dice({ 5, 4 })
r = g2:melee(knight, orc2)
assert(#inspect.modifiers_from(r, SCRIPT) == 0, "no Ride Down after a short move")
assert(r.result == "recoil", r.result)
local pushed2 = math.sqrt((orc2.pos.x - from2.x) ^ 2 + (orc2.pos.y - from2.y) ^ 2)
assert(math.abs(pushed2 - orc2.base) < 1e-6, pushed2)
