-- Hero (scripts/traits/hero.lua): one activation die is an automatic success, and a one-die Quality check
-- (a Power 1 Transfix) is passed without a roll. Captain Maren has it; Bram the Smith does not.
local g = village.new_game({ seed = 1, table = "empty" })
local maren = g:place("Captain Maren", { x = 4, y = 32 })
local bram = g:place("Bram the Smith", { x = 8, y = 32 })
g:force_dice({ 2, 1 })
local r = g:activate(maren, 2)
assert(r.successes == 1 and r.failures == 1 and not r.turnover, "the Hero keeps one action")
g:force_dice({ 2, 1 })
r = g:activate(bram, 2)
assert(r.successes == 0 and r.turnover, "without the trait: no action, turnover")
-- Three failures are still two failures for a Hero: a turnover.
g:force_dice({ 1, 2, 2 })
r = g:activate(maren, 3)
assert(r.successes == 1 and r.turnover)
