-- Hurl (SUPPLEMENT §8; scripts/alpha/hurl.lua): a model the Ogre Brute beats Recoils a full Medium
-- instead of one base width; an ordinary orc's Recoil is one base width.
local inspect = require("lib.inspect")
local SCRIPT = "alpha/hurl.lua"

local g = village.new_game({ seed = 1, table = "empty" })
local ogre = g:place("Ogre Brute", { x = 4, y = 32 })
local maren = g:place("Captain Maren", { x = 5.25, y = 32 })
local from = maren.pos
-- 5 + 4 = 9 against 3 + 4 = 7: a win, an odd die: Recoil.
g:force_dice({ 5, 3 })
local r = g:melee(ogre, maren)
assert(r.result == "recoil", r.result)
local moved = maren.pos.x - from.x
assert(math.abs(moved - g:rules().measures.medium) < 1e-6, moved)
local changed = inspect.last_event(g, "result_changed")
assert(changed.reason == "Hurl" and changed.source:find(SCRIPT, 1, true), changed.source)

local g2 = village.new_game({ seed = 1, table = "empty" })
local orc = g2:place("Orc Warrior", { x = 4, y = 32 })
local bram = g2:place("Tobin the Marksman", { x = 5, y = 32 })
local from2 = bram.pos
g2:force_dice({ 5, 2 })
r = g2:melee(orc, bram)
assert(r.result == "recoil" and math.abs(bram.pos.x - from2.x - bram.base) < 1e-6, bram.pos.x - from2.x)
