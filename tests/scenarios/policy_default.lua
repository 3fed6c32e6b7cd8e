-- The default hero policy (scripts/policies/default.lua, scripts/lib/tactics.lua): heroes spread over the
-- enemies nearest the Town Hall, a Shooter shoots what the rules let it shoot, the last hero to activate
-- rolls three dice; ctx:can_shoot answers as a shot would.
local g = village.new_game({ seed = 5, table = "empty" })
local th = g:building("Town Hall")
local maren = g:place("Captain Maren", { x = th.pos.x - 6, y = th.pos.y + 6 })
local bram = g:place("Bram the Smith", { x = th.pos.x + 6, y = th.pos.y + 6 })
-- Two enemies, each nearer one hero: the Orc is nearer the Town Hall, and nearer Bram.
local orc = g:place(
	"Orc Warrior",
	{ x = th.pos.x + 6, y = th.pos.y + 12 },
	{ group = 1, behaviour = "Ravager" }
)
local wolf = g:place(
	"Dire Wolf",
	{ x = th.pos.x - 6, y = th.pos.y + 16 },
	{ group = 2, behaviour = "Hunter" }
)

-- One success each: one move each. Maren (a Hero) chooses two dice and rolls one (a 1: her automatic
-- success is her action); Bram, the last, chooses three: 6, 1, 1.
g:force_dice({ 1, 6, 1, 1 })
local turns = g:hero_turn()
assert(#turns == 2, "both heroes activated")
local rolled = {}
for _, e in ipairs(g:log()) do
	if e.event == "activation" then
		rolled[#rolled + 1] = #e.dice + e.automatic -- the dice chosen
	end
end
assert(
	rolled[1] == 2 and rolled[2] == 3,
	"two dice, and three for the last hero: " .. table.concat(rolled, ",")
)
local function gap(a, b)
	return g:distance(a, b)
end
-- Each hero closed in on its own enemy: Bram on the Orc, Maren on the Wolf.
assert(gap(bram, orc) < 5.5, "Bram went for the Orc, now " .. gap(bram, orc))
assert(gap(maren, wolf) < 9.5, "Maren went for the Wolf, now " .. gap(maren, wolf))

-- A Shooter with a target in range and sight shoots it instead of walking.
local g2 = village.new_game({ seed = 6, table = "empty" })
local th2 = g2:building("Town Hall")
-- South-east of the Town Hall, in the open (the empty table's Forge is due south).
local tobin = g2:place("Tobin the Marksman", { x = th2.pos.x + 6, y = th2.pos.y + 5 })
g2:place("Orc Warrior", { x = th2.pos.x + 6, y = th2.pos.y + 14 }, { group = 1, behaviour = "Hunter" })
g2:force_dice({ 6, 6, 6, 6, 6, 6, 6, 6 })
g2:hero_turn()
local shots = 0
for _, e in ipairs(g2:log()) do
	if e.event == "combat" and e.kind == "ranged" and e.attacker == tobin.id then
		shots = shots + 1
	end
end
assert(shots == 1, "Tobin shot the Orc once (one attack per turn), shots: " .. shots)
assert(tobin.pos.y == th2.pos.y + 5, "and did not move")
-- Behind the Forge it has no sight: ctx:can_shoot says no, so the policy walks instead of losing the action.
local g3 = village.new_game({ seed = 6, table = "empty" })
local th3 = g3:building("Town Hall")
local t3 = g3:place("Tobin the Marksman", { x = th3.pos.x, y = th3.pos.y + 5 })
g3:place("Orc Warrior", { x = th3.pos.x, y = th3.pos.y + 14 }, { group = 1, behaviour = "Hunter" })
g3:force_dice({ 6, 1, 1 })
g3:hero_turn()
assert(t3.pos.y ~= th3.pos.y + 5, "no shot through the Forge: Tobin moved")
for _, e in ipairs(g3:log()) do
	assert(not (e.event == "combat" and e.kind == "ranged"), "no refused shot was tried")
end

-- Two actions left in contact: the one attack of the turn is a Power Blow (two actions); with one action
-- left it is a plain attack. The turn engine charges the two actions.
local function melee_events(game, who)
	local out = {}
	for _, e in ipairs(game:log()) do
		if e.event == "combat" and e.kind == "melee" and e.attacker == who.id then
			out[#out + 1] = e
		end
	end
	return out
end
local function has_reason(e, reason)
	for _, m in ipairs(e.modifiers) do
		if m.reason == reason then
			return true
		end
	end
	return false
end
local g4 = village.new_game({ seed = 7, table = "empty" })
local m4 = g4:place("Captain Maren", { x = 22.5, y = 18 })
g4:place("Orc Warrior", { x = 23.5, y = 18 }, { group = 1, behaviour = "Hunter" })
-- Maren (the Hero trait: one of her dice is an automatic success, not rolled) chooses three as the last
-- to activate and rolls two: 6 and 1 are two successes with the automatic one; then a tie.
g4:force_dice({ 6, 1, 3, 3 })
local t4 = g4:hero_turn()
assert(#t4[1].done == 1 and t4[1].done[1].did == "melee", "one order for both actions")
local ev = melee_events(g4, m4)
assert(#ev == 1 and has_reason(ev[1], "Power Blow"), "a Power Blow")

local g5 = village.new_game({ seed = 7, table = "empty" })
local m5 = g5:place("Captain Maren", { x = 22.5, y = 18 })
g5:place("Orc Warrior", { x = 23.5, y = 18 }, { group = 1, behaviour = "Hunter" })
g5:force_dice({ 1, 1, 3, 3 }) -- one success (the Hero's automatic one): a plain attack
g5:hero_turn()
ev = melee_events(g5, m5)
assert(#ev == 1 and not has_reason(ev[1], "Power Blow"), "a plain attack")

-- A Shooter with two actions left aims its shot.
local g6 = village.new_game({ seed = 6, table = "empty" })
local tobin6 = g6:place("Tobin the Marksman", { x = 24, y = 23 })
g6:place("Orc Warrior", { x = 24, y = 32 }, { group = 1, behaviour = "Hunter" })
g6:force_dice({ 6, 6, 1, 3, 3 })
g6:hero_turn()
local aimed = false
for _, e in ipairs(g6:log()) do
	if e.event == "combat" and e.kind == "ranged" and e.attacker == tobin6.id then
		aimed = has_reason(e, "Aimed Shot")
	end
end
assert(aimed, "an Aimed Shot")
