-- Sanctuary (SUPPLEMENT §8; scripts/signatures/sanctuary.lua): once per game, a hero within Medium of
-- Sister Ilse that would be Defeated is Defenseless instead. A Tough hero's Wound does not spend it;
-- the second Defeat in the game is not saved; a hero out of reach is not saved.
local inspect = require("lib.inspect")
local SCRIPT = "signatures/sanctuary.lua"

local g = village.new_game({ seed = 1, table = "empty" })
local ilse = g:place("Sister Ilse", { x = 10, y = 10 })
local maren = g:place("Captain Maren", { x = 13, y = 10 })
local ogre = g:place("Ogre Brute", { x = 14.25, y = 10 })

-- Three Wounds (Maren is Tough: Q3 to Q6): none would take her off the table, nothing is spent.
for _ = 1, 3 do
	g:force_dice({ 6, 1 })
	local r = g:melee(ogre, maren)
	assert(r.result == "wound", r.result)
end
assert(maren.quality == 6 and inspect.last_event(g, "spent") == nil, "Wounds do not spend Sanctuary")

-- The fourth would Defeat her (Q7): Defenseless instead, once per game.
g:force_dice({ 6, 1 })
local r = g:melee(ogre, maren)
assert(not maren.defeated and maren:has("defenseless"), "Maren is saved")
local changed = inspect.last_event(g, "result_changed")
assert(changed.model == maren.id and changed.to == "defenseless", changed.to)
assert(changed.reason == "Sanctuary" and changed.source:find(SCRIPT, 1, true), changed.source)
local spent = inspect.last_event(g, "spent")
assert(spent.key == "game:Sanctuary:Sister Ilse#1" and spent.source:find(SCRIPT, 1, true))

-- Once per game: the next blow that would remove her does.
g:force_dice({ 6, 1 })
g:melee(ogre, maren)
assert(maren.defeated, "the second Defeat is not saved")

-- Out of reach (farther than Medium): not saved.
local g2 = village.new_game({ seed = 1, table = "empty" })
g2:place("Sister Ilse", { x = 2, y = 2 })
local tobin = g2:place("Tobin the Marksman", { x = 30, y = 30 })
local ogre2 = g2:place("Ogre Brute", { x = 31.25, y = 30 })
-- 6 + 4 = 10 against 1 + 3 − 1 (Power Blow) = 3: more than triple, a Gruesome Kill.
g2:force_dice({ 6, 1 })
local r2 = g2:melee(ogre2, tobin, { power_blow = true })
assert(r2.result == "gruesome" and tobin.defeated, "a hero out of reach is not saved")
