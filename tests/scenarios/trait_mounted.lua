--! mod: tests/fixtures/traits_a_mod
-- Mounted (SUPPLEMENT §4, core §3.3; scripts/traits/mounted.lua): +1 in melee against a non-Mounted model,
-- attacking or defending; Free Disengage against non-Mounted, non-Flying enemies. The Black Knight (a
-- Mounted enemy) comes from the fixture mod.
local SRC = "scripts/traits/mounted.lua"
local inspect = require("lib.inspect")

local function from_mounted(r)
	return inspect.modifiers_from(r, SRC)
end

-- Sir Roland (C4, Mounted) attacks a Goblin Looter (C2): 4 + 3 + 1 = 8 against 2 + 3 = 5.
local g = village.new_game({ seed = 1, table = "empty" })
local roland = g:place("Sir Roland", { x = 4, y = 30 })
local goblin = g:place("Goblin Looter", { x = 5, y = 30 })
g:force_dice({ 3, 3 })
local r = g:melee(roland, goblin)
assert(r.attacker_total == 8 and r.defender_total == 5, r.attacker_total .. " vs " .. r.defender_total)
local mounted = from_mounted(r)
assert(#mounted == 1 and mounted[1].value == 1 and mounted[1].to == "attacker")
assert(inspect.last_event(g, "combat").modifiers[1].source:find(SRC, 1, true), "the log names the script")

-- Defending too: the Goblin attacks Roland, 2 + 3 = 5 against 4 + 3 + 1 = 8.
g = village.new_game({ seed = 1, table = "empty" })
roland = g:place("Sir Roland", { x = 4, y = 30 })
goblin = g:place("Goblin Looter", { x = 5, y = 30 })
g:force_dice({ 3, 3 })
r = g:melee(goblin, roland)
assert(r.attacker_total == 5 and r.defender_total == 8, r.attacker_total .. " vs " .. r.defender_total)
assert(#from_mounted(r) == 1 and from_mounted(r)[1].to == "defender")

-- Against another Mounted model there is no bonus: Roland 4 + 3 against the Black Knight's 3 + 3.
g = village.new_game({ seed = 1, table = "empty" })
roland = g:place("Sir Roland", { x = 4, y = 30 })
local knight = g:place("Black Knight", { x = 5, y = 30 })
g:force_dice({ 3, 3 })
r = g:melee(roland, knight)
assert(r.attacker_total == 7 and r.defender_total == 6, r.attacker_total .. " vs " .. r.defender_total)
assert(#r.modifiers == 0)

-- Free Disengage: leaving a Goblin Looter (not Mounted, not Flying) draws no Free Hack.
g = village.new_game({ seed = 1, table = "empty" })
roland = g:place("Sir Roland", { x = 4, y = 30 })
goblin = g:place("Goblin Looter", { x = 5, y = 30 })
assert(roland.engaged)
local m = g:move(roland, { x = 4, y = 25 }, { distance = 3 })
assert(#m.free_hacks == 0, "no Free Hack from the Goblin")
assert(math.abs(m.travelled - 3) < 1e-9 and not roland.engaged)

-- Leaving a Flying enemy (an Infernal Imp) or a Mounted one (the Black Knight) does draw a Free Hack.
-- The hacks roll 1 against Roland's 6: nothing happens, and Roland completes his move.
for _, name in ipairs({ "Infernal Imp", "Black Knight" }) do
	g = village.new_game({ seed = 1, table = "empty" })
	roland = g:place("Sir Roland", { x = 4, y = 30 })
	local foe = g:place(name, { x = 5, y = 30 })
	g:force_dice({ 1, 6 })
	m = g:move(roland, { x = 4, y = 25 }, { distance = 3 })
	assert(#m.free_hacks == 1 and m.free_hacks[1] == foe, name .. " makes a Free Hack")
	assert(math.abs(m.travelled - 3) < 1e-9)
	local hack = inspect.last_event(g, "combat")
	assert(hack.attacker == foe.id and hack.result == "none", "the Free Hack: Roland wins but cannot hurt")
	-- Defending the Imp's hack Roland still has +1 (it is not Mounted); against the Knight nothing.
	local bonus = 0
	for _, mod in ipairs(hack.modifiers) do
		if mod.source:find(SRC, 1, true) then
			bonus = bonus + mod.value
		end
	end
	assert(bonus == (name == "Infernal Imp" and 1 or 0), name .. ": " .. bonus)
end
