-- Hex (SUPPLEMENT §8; scripts/alpha/hex.lua): once per wave, a hero within Medium of the Goblin Shaman
-- rerolls its best activation die. A hero farther away is not hexed.
local inspect = require("lib.inspect")
local SCRIPT = "alpha/hex.lua"

local g = village.new_game({ seed = 1, table = "empty" })
g:place("Goblin Shaman", { x = 5, y = 32 })
local far = g:place("Captain Maren", { x = 30, y = 32 })
g:force_dice({ 6 }) -- Maren (a Hero) choosing two dice rolls one
g:activate(far, 2)
assert(inspect.last_event(g, "rerolled") == nil, "out of reach")

local bram = g:place("Bram the Smith", { x = 9, y = 32 })
-- 6 and 4 (Q3): the 6 is rerolled to a 1.
g:force_dice({ 4, 6, 1 })
local r = g:activate(bram, 2)
local rr = inspect.last_event(g, "rerolled")
assert(rr and rr.reason == "Hex" and rr.source:find(SCRIPT, 1, true), "no Hex")
assert(#rr.dice == 1 and rr.dice[1] == 1 and rr.faces[1] == 1, "the best die (the second) was rerolled")
assert(r.successes == 1 and r.dice[2] == 1, r.successes)

-- Once per wave.
g:force_dice({ 4, 6 })
r = g:activate(bram, 2)
assert(r.successes == 2, "no second Hex this wave")
