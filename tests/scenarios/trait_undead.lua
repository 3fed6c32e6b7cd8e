--! mod: tests/fixtures/traits_a_mod
-- Undead (SUPPLEMENT §4 ranged modifiers, core §3.6; scripts/traits/undead.lua): a shooter has -2 against
-- it, and it ignores Terror and Gruesome Kill morale checks (not the others). Its defeat on two morale
-- failures is the kernel's. The Bone Sentry (an Undead Village Defender, so it can face a Leader check)
-- comes from the fixture mod.
local SRC = "scripts/traits/undead.lua"
local inspect = require("lib.inspect")
local assert_immune = require("lib.morale_immunity")

local function from_undead(r)
	return inspect.modifiers_from(r, SRC)
end

-- Grimm the Trapper (C3, Short Bow, 5" away: no bow bonus) shoots a Skeleton Warrior (C2):
-- 3 + 5 - 2 = 6 against 2 + 3 = 5.
local function shot_at(name)
	local g = village.new_game({ seed = 1, table = "empty" })
	local grimm = g:place("Grimm the Trapper", { x = 4, y = 30 })
	local target = g:place(name, { x = 10, y = 30 })
	g:force_dice({ 5, 3 })
	return g, g:shoot(grimm, target)
end
local g, r = shot_at("Skeleton Warrior")
assert(r.attacker_total == 6 and r.defender_total == 5, r.attacker_total .. " vs " .. r.defender_total)
local u = from_undead(r)
assert(#u == 1 and u[1].value == -2 and u[1].to == "attacker" and u[1].reason == "target Undead")
assert(#r.modifiers == 1 and inspect.last_event(g, "combat").modifiers[1].source:find(SRC, 1, true))

-- The same shot at a Goblin Looter: 3 + 5 = 8.
g, r = shot_at("Goblin Looter")
assert(r.attacker_total == 8 and #r.modifiers == 0, r.attacker_total)

-- In melee there is no penalty: a Village Archer attacks the Skeleton, 2 + 3 against 2 + 3.
g = village.new_game({ seed = 1, table = "empty" })
local archer = g:place("Village Archer", { x = 4, y = 30 })
local skeleton = g:place("Skeleton Warrior", { x = 5, y = 30 })
g:force_dice({ 3, 3 })
r = g:melee(archer, skeleton)
assert(r.attacker_total == 5 and r.defender_total == 5 and #r.modifiers == 0)

-- Morale: Terror and Gruesome Kill checks are ignored, no dice rolled; the log names the script.
assert_immune(g, { skeleton }, "Undead", SRC)

-- A Goblin Looter facing Terror rolls its three dice (6, 6, 6: it holds).
local goblin = g:place("Goblin Looter", { x = 4, y = 33 })
g:force_dice({ 6, 6, 6 })
local check = g:morale(goblin, "terror")
assert(check.result == "steady" and #check.dice == 3)

-- An Undead on the heroes' side still tests when its Leader falls: Q5+, dice 1, 2, 6 are two failures,
-- and two failures defeat an Undead (kernel, core §3.6).
local sentry = g:place("Bone Sentry", { x = 30, y = 33 })
g:force_dice({ 1, 2, 6 })
check = g:morale(sentry, "leader_defeated")
assert(#check.dice == 3 and check.failures == 2 and check.result == "defeated", check.result)
assert(sentry.defeated)
