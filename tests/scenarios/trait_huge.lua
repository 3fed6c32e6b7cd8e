--! mod: tests/fixtures/traits_a_mod
-- Huge (SUPPLEMENT §4, §9; scripts/traits/huge.lua): +1 in melee against a smaller model (a Big one
-- included), and a shooter gains +1 against a Huge target. The Stone Giant (a Big Village Defender)
-- comes from the fixture mod.
local SRC = "scripts/traits/huge.lua"
local inspect = require("lib.inspect")

local function from_huge(r)
	return inspect.modifiers_from(r, SRC)
end

-- The Young Dragon (C5, Huge, 2" base) against a Village Archer (C2, 1" base): 5 + 2 + 1 = 8 against
-- 2 + 3 = 5.
local g = village.new_game({ seed = 1, table = "empty" })
local dragon = g:place("Young Dragon", { x = 4, y = 30 })
local archer = g:place("Village Archer", { x = 5.5, y = 30 })
assert(dragon.base == 2 and dragon.engaged)
g:force_dice({ 2, 3 })
local r = g:melee(dragon, archer)
assert(r.attacker_total == 8 and r.defender_total == 5, r.attacker_total .. " vs " .. r.defender_total)
local huge = from_huge(r)
assert(#huge == 1 and huge[1].value == 1 and huge[1].to == "attacker", #huge)
assert(inspect.last_event(g, "combat").modifiers[1].source:find(SRC, 1, true), "the log names the script")

-- Against a Big model (1.5" base) the Dragon is still the larger: +1 to it, nothing for the Giant's
-- own Big trait (the Dragon is not smaller). The Giant attacks: 3 + 2 = 5 against 5 + 3 + 1 = 9.
g = village.new_game({ seed = 1, table = "empty" })
dragon = g:place("Young Dragon", { x = 4, y = 30 })
local giant = g:place("Stone Giant", { x = 5.75, y = 30 })
assert(giant.base == 1.5 and dragon.engaged)
g:force_dice({ 2, 3 })
r = g:melee(giant, dragon)
assert(r.attacker_total == 5 and r.defender_total == 9, r.attacker_total .. " vs " .. r.defender_total)
assert(#r.modifiers == 1 and #from_huge(r) == 1 and r.modifiers[1].to == "defender")

-- Shooting at the Dragon 4" away: a Village Archer gains +1 (2 + 3 + 1 = 6 against 5 + 3 = 8).
g = village.new_game({ seed = 1, table = "empty" })
archer = g:place("Village Archer", { x = 4, y = 30 })
dragon = g:place("Young Dragon", { x = 9.5, y = 30 })
assert(math.abs(g:distance(archer, dragon) - 4) < 1e-9)
g:force_dice({ 3, 3 })
r = g:shoot(archer, dragon)
huge = from_huge(r)
assert(#huge == 1 and huge[1].value == 1 and huge[1].to == "attacker" and huge[1].reason == "target Huge")
assert(r.attacker_total == 6 and r.defender_total == 8, r.attacker_total .. " vs " .. r.defender_total)
