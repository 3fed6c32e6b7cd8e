--! mod: tests/fixtures/traits_a_mod
-- Big (SUPPLEMENT §4, §9; scripts/traits/big.lua): +1 in melee against a smaller model, attacking or
-- defending, none against a model as big; a shooter gains +1 against a Big target. The Stone Giant
-- (a Big Village Defender) comes from the fixture mod.
local SRC = "scripts/traits/big.lua"
local inspect = require("lib.inspect")

local function from_big(r)
	return inspect.modifiers_from(r, SRC)
end

-- Melee: the Ogre Brute (C4, Big, 1.5" base) against a Village Archer (C2, 1" base).
local g = village.new_game({ seed = 1, table = "empty" })
local ogre = g:place("Ogre Brute", { x = 4, y = 30 })
local archer = g:place("Village Archer", { x = 5.25, y = 30 })
assert(ogre.base == 1.5 and archer.base == 1 and ogre.engaged)

-- The Ogre attacks: 4 + 3 + 1 (Big) = 8 against 2 + 3 = 5.
g:force_dice({ 3, 3 })
local r = g:melee(ogre, archer)
assert(r.attacker_total == 8 and r.defender_total == 5, r.attacker_total .. " vs " .. r.defender_total)
local big = from_big(r)
assert(#big == 1 and big[1].value == 1 and big[1].to == "attacker", #big)
local logged = inspect.last_event(g, "combat").modifiers
assert(#logged == 1 and logged[1].source:find(SRC, 1, true), "the log names the script")

-- Defending counts too: the Archer attacks, the Ogre's total gets the +1.
g:remove(archer, "removed")
archer = g:place("Village Archer", { x = 5.25, y = 30 })
g:force_dice({ 3, 3 })
r = g:melee(archer, ogre)
assert(r.attacker_total == 5 and r.defender_total == 8, r.attacker_total .. " vs " .. r.defender_total)
big = from_big(r)
assert(#big == 1 and big[1].to == "defender")

-- Big against Big: no bonus for either side (4 + 3 against 3 + 3).
g = village.new_game({ seed = 1, table = "empty" })
ogre = g:place("Ogre Brute", { x = 4, y = 30 })
local giant = g:place("Stone Giant", { x = 5.5, y = 30 })
assert(giant.base == 1.5 and ogre.engaged)
g:force_dice({ 3, 3 })
r = g:melee(ogre, giant)
assert(r.attacker_total == 7 and r.defender_total == 6, r.attacker_total .. " vs " .. r.defender_total)
assert(#r.modifiers == 0, "no size bonus between equals")

-- Shooting: a Village Archer (C2, Short Bow, no bonus beyond Short) at a Big target about 4" away gains
-- +1: 2 + 3 + 1 = 6 against the Ogre's 4 + 3 = 7.
local function shot_at(name)
	local sg = village.new_game({ seed = 1, table = "empty" })
	local shooter = sg:place("Village Archer", { x = 4, y = 30 })
	local target = sg:place(name, { x = 9.25, y = 30 })
	local gap = sg:distance(shooter, target)
	assert(gap > 3 and gap <= 6, gap)
	return sg, shooter, target
end
local sg, shooter, target = shot_at("Ogre Brute")
sg:force_dice({ 3, 3 })
r = sg:shoot(shooter, target)
big = from_big(r)
assert(#big == 1 and big[1].value == 1 and big[1].to == "attacker" and big[1].reason == "target Big")
assert(r.attacker_total == 6 and r.defender_total == 7, r.attacker_total .. " vs " .. r.defender_total)
assert(inspect.last_event(sg, "combat").modifiers[1].source:find(SRC, 1, true))

-- The same shot at a Goblin Looter (normal base): no bonus, 2 + 3 = 5.
sg, shooter, target = shot_at("Goblin Looter")
sg:force_dice({ 3, 3 })
r = sg:shoot(shooter, target)
assert(#r.modifiers == 0)
assert(r.attacker_total == 5 and r.defender_total == 5, r.attacker_total .. " vs " .. r.defender_total)
