-- Hero (scripts/traits/hero.lua; SUPPLEMENT §4, ruling of 2026-12-01): a Hero choosing N activation dice
-- rolls N - 1 of them and adds one automatic success that is not a die (no face, never rerolled, never a
-- failure); a turnover counts the rolled dice only, and a one-die Quality check (a Power 1 Transfix) is
-- passed without a roll. Captain Maren has it; Bram the Smith does not.
local g = village.new_game({ seed = 1, table = "empty" })
local maren = g:place("Captain Maren", { x = 4, y = 32 })
local bram = g:place("Bram the Smith", { x = 8, y = 32 })
-- Two dice: Maren rolls one (a 1) and keeps her automatic success; the 2 stays queued.
g:force_dice({ 1, 2 })
local r = g:activate(maren, 2)
assert(#r.dice == 1 and r.dice[1] == 1, "a Hero choosing two dice rolls one")
assert(r.automatic == 1 and r.successes == 1 and r.failures == 1 and not r.turnover, "one action")
r = g:activate(bram, 2) -- rolls the queued 2, then the seeded stream
assert(r.dice[1] == 2 and #r.dice == 2 and r.automatic == 0, "without the trait every die is rolled")
g:force_dice({ 2, 1 })
r = g:activate(bram, 2)
assert(r.successes == 0 and r.turnover, "without the trait: no action, turnover")
-- Three dice: two are rolled; both failing is a turnover, with the automatic success's one action.
g:force_dice({ 1, 2 })
r = g:activate(maren, 3)
assert(#r.dice == 2 and r.successes == 1 and r.failures == 2 and r.turnover)
-- One die: nothing is rolled, one action, never a turnover.
g:force_dice({ 1 })
r = g:activate(maren, 1)
assert(#r.dice == 0 and r.successes == 1 and not r.turnover, "a Hero's one die is not rolled")
r = g:activate(bram, 1)
assert(#r.dice == 1 and r.dice[1] == 1 and r.successes == 0, "the 1 was still queued")
