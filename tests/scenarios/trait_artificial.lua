--! mod: tests/fixtures/traits_a_mod
-- Artificial (SUPPLEMENT §4, §9, core §3.6; scripts/traits/artificial.lua): the `morale` hook ignores
-- Terror and Gruesome Kill checks, and only those. The Clockwork Guard (a Village Defender whose only
-- trait is Artificial) comes from the fixture mod; the Fire Entity is Artificial and Fearless.
local SRC = "scripts/traits/artificial.lua"

local assert_immune = require("lib.morale_immunity")

local g = village.new_game({ seed = 1, table = "empty" })
local guard = g:place("Clockwork Guard", { x = 4, y = 33 })
local entity = g:place("Fire Entity", { x = 4, y = 30 })

-- Terror and Gruesome Kill: ignored, no dice rolled; the log names the script. (The Fire Entity's
-- traits are asked in profile order, Artificial first.)
assert_immune(g, { guard, entity }, "Artificial", SRC)

-- Other checks are taken: the Guard tests when its Leader falls (Q4+: 6, 6, 6 holds) and when its side
-- is more than half lost (1, 1, 1: it Flees).
g:force_dice({ 6, 6, 6 })
local check = g:morale(guard, "leader_defeated")
assert(check.result == "steady" and #check.dice == 3, check.result)
g:force_dice({ 1, 1, 1 })
check = g:morale(guard, "half_lost")
assert(check.failures == 3 and check.result == "fled", check.result)
assert(not guard.defeated, "fled, not defeated")
