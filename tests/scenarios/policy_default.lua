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

-- One success each: one move each.
g:force_dice({ 6, 1, 6, 1, 1 })
local turns = g:hero_turn()
assert(#turns == 2, "both heroes activated")
assert(#g:log() > 0)
local rolled = {}
for _, e in ipairs(g:log()) do
	if e.event == "activation" then
		rolled[#rolled + 1] = #e.dice
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
local raider = g2:place(
	"Orc Warrior",
	{ x = th2.pos.x + 6, y = th2.pos.y + 14 },
	{ group = 1, behaviour = "Hunter" }
)
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
assert(raider.id ~= nil)
