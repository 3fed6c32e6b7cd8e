-- Good Shot (SUPPLEMENT §4 ranged modifiers, §9; scripts/traits/good_shot.lua): +1 to the model's total
-- when it shoots, and only then. Tobin the Marksman is C3 with a Longbow (+1 / 0 / -2 at one / two /
-- three Long measures) and Good Shot.
local SRC = "scripts/traits/good_shot.lua"
local inspect = require("lib.inspect")

local function from_good_shot(r)
	return inspect.modifiers_from(r, SRC)
end

-- Within one Long measure (5"): 3 + 5 + 1 (Longbow) + 1 (Good Shot) = 10 against 2 + 4 = 6.
local g = village.new_game({ seed = 1, table = "empty" })
local tobin = g:place("Tobin the Marksman", { x = 4, y = 30 })
local goblin = g:place("Goblin Looter", { x = 10, y = 30 })
g:force_dice({ 5, 4 })
local r = g:shoot(tobin, goblin)
assert(r.attacker_total == 10 and r.defender_total == 6, r.attacker_total .. " vs " .. r.defender_total)
local gs = from_good_shot(r)
assert(#gs == 1 and gs[1].value == 1 and gs[1].to == "attacker" and gs[1].reason == "Good Shot")
assert(#r.modifiers == 2, "the Longbow band and Good Shot")
local logged = false
for _, m in ipairs(inspect.last_event(g, "combat").modifiers) do
	logged = logged or m.source:find(SRC, 1, true) ~= nil
end
assert(logged, "the log names the script")

-- The rulebook's Marksman example (core §3.5): a C3 Marksman with Good Shot fires at a C2 enemy in Cover
-- and rolls 5: 3 + 5 + 1 - 1 = 8; the target rolls 4 for 6. Tobin shoots from two Long measures (Longbow
-- 0) at a Goblin Looter inside a wood. 8 does not double 6, and 5 is odd: the target Recoils (the
-- SUPPLEMENT §4 ruling on the example's "Defenseless").
g = village.new_game({ seed = 1, table = "empty" })
g:add_terrain("wood", { { 15, 28 }, { 19, 28 }, { 19, 32 }, { 15, 32 } })
tobin = g:place("Tobin the Marksman", { x = 4, y = 30 })
goblin = g:place("Goblin Looter", { x = 17, y = 30 })
local gap = g:distance(tobin, goblin)
assert(gap > 9 and gap <= 18, gap)
g:force_dice({ 5, 4 })
r = g:shoot(tobin, goblin)
assert(r.attacker_total == 8 and r.defender_total == 6, r.attacker_total .. " vs " .. r.defender_total)
assert(#from_good_shot(r) == 1)
assert(r.result == "recoil", r.result)

-- Grimm the Trapper (C3, Short Bow, no Good Shot) at the same 5" as the first shot: 3 + 5 = 8.
g = village.new_game({ seed = 1, table = "empty" })
local grimm = g:place("Grimm the Trapper", { x = 4, y = 30 })
goblin = g:place("Goblin Looter", { x = 10, y = 30 })
g:force_dice({ 5, 4 })
r = g:shoot(grimm, goblin)
assert(r.attacker_total == 8 and #r.modifiers == 0, r.attacker_total)

-- In melee Tobin has no Good Shot bonus: 3 + 3 against 2 + 3.
g = village.new_game({ seed = 1, table = "empty" })
tobin = g:place("Tobin the Marksman", { x = 4, y = 30 })
goblin = g:place("Goblin Looter", { x = 5, y = 30 })
g:force_dice({ 3, 3 })
r = g:melee(tobin, goblin)
assert(r.attacker_total == 6 and r.defender_total == 5 and #r.modifiers == 0)

-- Shot at, Tobin gets nothing either: a Lizard Harpooner (C2) 5" away rolls 2 + 3 = 5 against Tobin's
-- defensive 3 + 3 = 6 (Good Shot is for its own attacks).
g = village.new_game({ seed = 1, table = "empty" })
local lizard = g:place("Lizard Harpooner", { x = 4, y = 30 })
tobin = g:place("Tobin the Marksman", { x = 10, y = 30 })
g:force_dice({ 3, 3 })
r = g:shoot(lizard, tobin)
assert(#from_good_shot(r) == 0 and r.attacker_total == 5 and r.defender_total == 6, r.defender_total)
