-- Warcry (SUPPLEMENT §8; scripts/alpha/warcry.lua): once per wave the Orc Warlord's Group rerolls its
-- activation dice when the roll would end the enemy turn; the reroll is logged with the script.
local inspect = require("lib.inspect")
local SCRIPT = "alpha/warcry.lua"

local g = village.new_game({ seed = 1, table = "empty" })
local boss = g:place("Orc Warlord", { x = 5, y = 32 }, { group = 1 })
local orc = g:place("Orc Warrior", { x = 7, y = 32 }, { group = 1 })
-- Two failures (Q3: 1 and 2), rerolled to 5 and 6: two actions.
g:force_dice({ 1, 2, 5, 6 })
local r = g:activate_group(nil, { boss, orc }, 2)
assert(r.successes == 2 and not r.turnover, r.successes)
local rr = inspect.last_event(g, "rerolled")
assert(rr and rr.reason == "Warcry" and rr.source:find(SCRIPT, 1, true), "no Warcry")
assert(#rr.dice == 2 and rr.faces[1] == 5 and rr.faces[2] == 6)
local spent = inspect.last_event(g, "spent")
assert(spent.source:find(SCRIPT, 1, true))

-- Once per wave: the next bad roll stands.
g:force_dice({ 1, 2 })
r = g:activate_group(nil, { boss, orc }, 2)
assert(r.turnover and r.successes == 0, "no second Warcry this wave")

-- A good roll is never rerolled.
local g2 = village.new_game({ seed = 1, table = "empty" })
local boss2 = g2:place("Orc Warlord", { x = 5, y = 32 })
g2:force_dice({ 4, 5 })
g2:activate(boss2, 2)
assert(inspect.last_event(g2, "rerolled") == nil, "a good roll stands")
