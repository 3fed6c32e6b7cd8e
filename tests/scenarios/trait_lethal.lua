--! mod: tests/fixtures/traits_b_mod
-- Lethal (SUPPLEMENT §9, scripts/traits/lethal.lua): any win of its own defeats the loser; its own loss
-- is read normally, and a Gruesome Kill still needs the triple.
local g = village.new_game({ seed = 1, table = "empty" })
local orc = g:place("Lethal Orc", { x = 3, y = 30 })
local archer = g:place("Village Archer", { x = 4, y = 30 })

local inspect = require("lib.inspect")
local function last(kind)
	return inspect.last_event(g, kind)
end

-- Its loss: the archer (C2) rolls 6 → 8 against the orc's 2 → 5 and wins by less than double; the die 6
-- is even, so the orc is Defenseless, not Defeated: Lethal is not the archer's.
g:force_dice({ 2, 6 })
local r = g:melee(orc, archer)
assert(r.winner == archer and r.result == "defenseless", r.result)
assert(last("combat").lethal == nil)

-- Its win (a fresh pair: the first orc is Defenseless now): 3 → 6 against 3 → 5 would be a Recoil (odd
-- die, less than double); Lethal defeats.
local orc2 = g:place("Lethal Orc", { x = 3, y = 33 })
local archer2 = g:place("Village Archer", { x = 4, y = 33 })
g:force_dice({ 3, 3 })
r = g:melee(orc2, archer2)
assert(r.attacker_total == 6 and r.defender_total == 5, r.attacker_total .. " vs " .. r.defender_total)
assert(r.winner == orc2 and r.result == "defeated", r.result)
assert(archer2.defeated)
local c = last("combat")
assert(
	c.lethal and c.lethal:find("Lethal", 1, true) and c.lethal:find("scripts/traits/lethal.lua", 1, true),
	c.lethal
)

-- Lethal is no Gruesome Kill: 5 → 8 against 1 → 3 is Defeated (8 < 3 × 3), and 6 → 9 against 1 → 3 is
-- the Gruesome Kill of the table.
local archer3 = g:place("Village Archer", { x = 3, y = 32 })
g:force_dice({ 5, 1 })
r = g:melee(orc2, archer3)
assert(r.attacker_total == 8 and r.defender_total == 3)
assert(r.result == "defeated", r.result)
local archer4 = g:place("Village Archer", { x = 2, y = 33 })
g:force_dice({ 6, 1 })
r = g:melee(orc2, archer4)
assert(r.attacker_total == 9 and r.defender_total == 3)
assert(r.result == "gruesome", r.result)
