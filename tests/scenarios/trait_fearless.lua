--! mod: tests/fixtures/traits_a_mod
-- Fearless (SUPPLEMENT §4, §9, core §3.6; scripts/traits/fearless.lua): the `morale` hook ignores Terror
-- and Gruesome Kill checks, and only those. The Zealous Militia (a Fearless Village Defender, so it can
-- face a Leader check) comes from the fixture mod.
local SRC = "scripts/traits/fearless.lua"

local assert_immune = require("lib.morale_immunity")

local g = village.new_game({ seed = 1, table = "empty" })
local zealot = g:place("Chaos Zealot", { x = 4, y = 30 })
local militia = g:place("Zealous Militia", { x = 10, y = 27 }) -- 9" or more from every edge

-- Terror and Gruesome Kill: ignored, no dice rolled; the log names the script.
assert_immune(g, { zealot, militia }, "Fearless", SRC)

-- Other checks are taken: the Militia tests when its Leader falls (Q4+: 6, 6, 6 holds) and when its
-- side is more than half lost (1, 6, 6: one failure, it falls back a band toward the nearest edge).
g:force_dice({ 6, 6, 6 })
local check = g:morale(militia, "leader_defeated")
assert(check.result == "steady" and #check.dice == 3, check.result)
g:force_dice({ 1, 6, 6 })
check = g:morale(militia, "half_lost")
assert(check.failures == 1 and check.result == "fell_back" and check.moved > 0, check.result)

-- A Goblin Looter (no Fearless) takes the Terror check (6, 6, 6: it holds).
local goblin = g:place("Goblin Looter", { x = 30, y = 33 })
g:force_dice({ 6, 6, 6 })
check = g:morale(goblin, "terror")
assert(check.result == "steady" and #check.dice == 3)
