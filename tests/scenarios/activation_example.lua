-- Core rules §3.1, the activation example: a Q3+ hero (without the Hero trait) rolls two dice.
local g = village.new_game({ seed = 1, table = "empty" })
local bram = g:place("Bram the Smith", { x = 4, y = 4 })
assert(bram.quality == 3 and not bram:has_trait("Hero"))

-- 4 and 1: the 4 succeeds, the 1 fails: one action, the turn continues.
g:force_dice({ 4, 1 })
local r = g:activate(bram, 2)
assert(r.successes == 1, "one action")
assert(r.failures == 1)
assert(r.turnover == false, "the turn continues")

-- 2 and 1: no action, and the hero turn ends.
g:force_dice({ 2, 1 })
r = g:activate(bram, 2)
assert(r.successes == 0 and r.failures == 2)
assert(r.turnover == true, "two failures end the turn")

-- The Hero trait (Captain Maren) rolls one die fewer and adds an automatic success (SUPPLEMENT §4): two
-- dice are one rolled die and one action whatever it shows, never a turnover.
local maren = g:place("Captain Maren", { x = 8, y = 4 })
g:force_dice({ 1 })
r = g:activate(maren, 2)
assert(#r.dice == 1 and r.successes == 1 and r.turnover == false)
