-- The default hero policy plays the whole of §3.1 and §3.7 through the turn engine (g:hero_turn), and
-- the Behaviours cast (g:enemy_turn). Dice are forced where an outcome depends on them.
local I = require("lib.inspect")

local events = I.events

-- §3.1 re-nomination: Maren fails one die without a turnover, stays Active, and the policy nominates
-- her again in the same turn.
do
	local g = village.new_game({ seed = 1, table = "empty" })
	local maren = g:place("Captain Maren", { x = 4, y = 4 })
	g:place("Orc Warrior", { x = 32, y = 32 }, { group = 1, behaviour = "Hunter" })
	g:force_dice({ 6, 1, 6, 6 }) -- three dice chosen, two rolled: 6, 1; then 6, 6
	local turns = g:hero_turn()
	assert(#turns == 2, "nominated twice: " .. #turns)
	local acts = events(g, "activation", function(e)
		return e.model == maren.id
	end)
	assert(#acts == 2 and acts[1].failures == 1 and not acts[1].turnover, "one failure, then again")
end

-- §3.1 group activation: the Leader takes two Active friends within Long along on one roll.
do
	local g = village.new_game({ seed = 1, table = "empty" })
	local maren = g:place("Captain Maren", { x = 4, y = 4 })
	local bram = g:place("Bram the Smith", { x = 6, y = 4 })
	local tobin = g:place("Tobin the Marksman", { x = 4, y = 6 })
	g:place("Orc Warrior", { x = 32, y = 32 }, { group = 1, behaviour = "Hunter" })
	g:force_dice({ 6, 6, 6 })
	local turns = g:hero_turn()
	assert(turns[1].model == maren and #turns[1].group == 2, "Maren leads Bram and Tobin")
	local grouped = events(g, "group_activation")
	assert(#grouped == 1 and grouped[1].leader == maren.id and #grouped[1].members == 3, "one roll for three")
	assert(#events(g, "activation") == 1, "nobody else rolled")
	assert(bram.active == false and tobin.active == false, "the whole group activated")
end

-- §3.7 breaking free: a Transfixed hero out of contact spends two actions to break free, then moves.
do
	local g = village.new_game({ seed = 1, table = "empty" })
	local bram = g:place("Bram the Smith", { x = 4, y = 4 })
	g:place("Orc Warrior", { x = 32, y = 32 }, { group = 1, behaviour = "Hunter" })
	g:add_condition(bram, "transfixed")
	g:force_dice({ 6, 6, 6 })
	local turns = g:hero_turn()
	local did = {}
	for _, a in ipairs(turns[1].done) do
		did[#did + 1] = a.did
	end
	assert(table.concat(did, ",") == "broke_free,broke_free,moved", table.concat(did, ","))
	assert(not bram:has("transfixed"), "free")
end

-- The policy casts: Sister Ilse Heals a hurt friend; Hedda raises a Thorn Wall in front of the enemy
-- nearest the Town Hall, and once it stands, throws a Fireball.
do
	local g = village.new_game({ seed = 1, table = "empty" })
	local ilse = g:place("Sister Ilse", { x = 4, y = 4 })
	local bram = g:place("Bram the Smith", { x = 6, y = 4 })
	g:place("Orc Warrior", { x = 32, y = 32 }, { group = 1, behaviour = "Hunter" })
	g:add_condition(bram, "defenseless")
	g:force_dice({ 6, 6, 6, 6, 6 })
	g:hero_turn()
	local heal = events(g, "spell", function(e)
		return e.caster == ilse.id
	end)
	assert(#heal == 1 and heal[1].spell == "Heal" and heal[1].target == bram.id, "Ilse heals Bram")
	assert(#events(g, "declared") >= 1, "declared before rolling")
end
do
	local g = village.new_game({ seed = 1, table = "empty" })
	local th = g:building("Town Hall")
	local hedda = g:place("Hedda the Hedge Witch", { x = th.pos.x + 8, y = th.pos.y + 9 })
	local orc = g:place(
		"Orc Warrior",
		{ x = th.pos.x + 10, y = th.pos.y + 13 },
		{ group = 1, behaviour = "Hunter" }
	)
	g:force_dice({ 6, 6, 6 })
	g:hero_turn()
	local wall = events(g, "spell", function(e)
		return e.spell == "Thorn Wall"
	end)
	assert(#wall == 1 and #events(g, "wall_raised") == 1, "a Thorn Wall first")
	g:begin_turn("heroes")
	g:force_dice({ 6, 6, 6, 6, 6 })
	g:hero_turn()
	local fire = events(g, "spell", function(e)
		return e.spell == "Fireball"
	end)
	assert(#fire == 1 and fire[1].target == orc.id, "then a Fireball at the Orc")
	assert(I.last_event(g, "combat").kind == "ranged", "resolved as a ranged attack")
end

-- Out of power (§3.7): a caster that declared and failed three dice casts no more this wave; a new
-- wave gives its power back.
do
	local g = village.new_game({ seed = 2, length = "intro", heroes = { "Sister Ilse", "Bram the Smith" } })
	local ilse = g:models({ side = "heroes" })[1]
	g:force_dice({ 1, 1, 1 })
	g:activate(ilse, 3, { cast = true })
	assert(ilse.out_of_power, "three failed dice: out of power")
	assert(#events(g, "out_of_power") == 1)
	g:start_wave()
	assert(not ilse.out_of_power, "power back at the next wave start")
end

-- An enemy Spell-caster casts through its Behaviour: a Goblin Shaman (Hunter) declares before its
-- Group rolls and casts at the hero it hunts.
do
	local g = village.new_game({ seed = 1, table = "empty" })
	local maren = g:place("Captain Maren", { x = 4, y = 4 })
	local shaman = g:place("Goblin Shaman", { x = 4, y = 9 }, { group = 1, behaviour = "Hunter" })
	g:force_dice({ 6, 6, 2, 2, 2, 2, 2, 2 })
	g:enemy_turn()
	assert(#events(g, "declared", function(e)
		return e.model == shaman.id
	end) == 1, "the Shaman declared")
	local cast = events(g, "spell", function(e)
		return e.caster == shaman.id
	end)
	assert(#cast == 1 and cast[1].target == maren.id, "and cast at Maren: " .. #cast)
end

-- Concentrated Shooting (§3.5): two shooters fire together at a target tougher than either.
do
	local g = village.new_game({ seed = 1, table = "empty" })
	local tobin = g:place("Tobin the Marksman", { x = 4, y = 4 })
	local archer = g:place("Village Archer", { x = 6, y = 4 })
	local ogre = g:place("Ogre Brute", { x = 5, y = 9 }, { group = 1, behaviour = "Hunter" })
	g:force_dice({ 6, 6, 6, 3, 3 })
	g:hero_turn()
	local shot = events(g, "combat", function(e)
		return e.kind == "ranged"
	end)
	assert(#shot >= 1, "a shot")
	local concentrated = false
	for _, m in ipairs(shot[1].modifiers) do
		concentrated = concentrated or m.reason:find("Concentrated Shooting (2 shooters)", 1, true) ~= nil
	end
	assert(concentrated, "Tobin and the Archer fire together at the Ogre")
	assert(tobin.attacks == 1 and archer.attacks == 1, "each has shot for the turn")
	assert(shot[1].target.model == ogre.id, "at the Ogre")
end

-- Walls end at the end of the wave (§3.7).
do
	local g = village.new_game({
		seed = 2,
		length = "intro",
		heroes = { "Hedda the Hedge Witch", "Bram the Smith" },
	})
	g:start_wave()
	local hedda = g:models({ side = "heroes" })[1]
	local p = hedda.pos
	g:cast(hedda, "Thorn Wall", 1, nil, { from = { p.x - 1.5, p.y + 1.5 }, to = { p.x + 1.5, p.y + 1.5 } })
	assert(#events(g, "wall_raised") == 1, "a Wall stands")
	for _, e in ipairs(g:models({ side = "enemies" })) do
		g:remove(e)
	end
	g:end_wave()
	local fallen = events(g, "wall_fallen")
	assert(#fallen == 1 and fallen[1].reason == "the wave ended", "the Wall falls with the wave")
end

-- No stall (SUPPLEMENT §10): the Guardian the policy would go for is hemmed in by its Group and the
-- Town Hall, so no route reaches it; the lone hero goes for a Guardian it can reach instead of walking
-- into the wall.
do
	local g = village.new_game({ seed = 1, table = "empty" })
	local th = g:building("Town Hall") -- (15, 16)–(21, 20)
	local maren = g:place("Captain Maren", { x = 18, y = 22.5 })
	local guard = { group = 1, behaviour = "Guardian" }
	local hemmed = g:place("Lizard Harpooner", { x = 21.5, y = 18 }, guard)
	local others = {
		g:place("Lizard Harpooner", { x = 22.5, y = 18 }, guard),
		g:place("Lizard Harpooner", { x = 21.5, y = 19 }, guard),
		g:place("Lizard Harpooner", { x = 21.5, y = 17 }, guard),
	}
	assert(th ~= nil)
	g:force_dice({ 6, 1, 6, 6 })
	g:hero_turn()
	-- The first enemy her moves reach (a move that ends in contact says so, `stop = "contact"`): one of
	-- the others, not the hemmed-in one. (Once she has beaten it, the hemmed-in one may be next.)
	local first
	for _, e in ipairs(events(g, "moved")) do
		if e.model == maren.id and e.stop == "contact" then
			first = first or e.with
		end
	end
	assert(first ~= nil and first ~= hemmed.id, "into contact with a Guardian she can reach first")
	local reachable = false
	for _, o in ipairs(others) do
		reachable = reachable or o.id == first
	end
	assert(reachable, "one of the reachable Guardians")
end

-- The Lich casts too: guarding, at a hero that came within its guard radius, before raising the dead;
-- as a Fanatic, at a hero Engaged with one of its side (§6.3: "attack a hero only if the hero blocks its
-- route or is Engaged").
for _, case in ipairs({ "Guardian", "Fanatic" }) do
	local g = village.new_game({ seed = 1, table = "empty" })
	local lich = g:place("Lich", { x = 32, y = 18 }, { group = 1, behaviour = case })
	local bram = g:place("Bram the Smith", { x = 32, y = 20.5 })
	if case == "Fanatic" then
		g:place("Zombie", { x = 33, y = 20.5 }, { group = 2, behaviour = "Mindless" })
	end
	g:force_dice({ 6, 6, 1, 1, 1, 6, 6, 6, 6, 6, 6 })
	g:enemy_turn()
	local cast = events(g, "spell", function(e)
		return e.caster == lich.id
	end)
	assert(#cast >= 1 and cast[1].spell == "Transfix" and cast[1].target == bram.id, case .. ": " .. #cast)
end

-- A summoner comes first among the threats: what the Lich raises vanishes when it falls (§3.7), so the
-- lone hero goes for it rather than for the Skeletons nearer the Town Hall.
do
	local g = village.new_game({ seed = 1, table = "empty" })
	local maren = g:place("Captain Maren", { x = 23, y = 18 })
	g:place("Skeleton Warrior", { x = 30, y = 18 }, { group = 1, behaviour = "Mindless" })
	g:place("Skeleton Warrior", { x = 30, y = 20 }, { group = 1, behaviour = "Mindless" })
	local lich = g:place("Lich", { x = 23, y = 31 }, { group = 2, behaviour = "Fanatic" })
	local before = g:distance(maren, lich)
	g:force_dice({ 6, 6 })
	g:hero_turn()
	assert(g:distance(maren, lich) < before - 5, "Maren went for the Lich: " .. g:distance(maren, lich))
end

-- A Ravager beside the building it targets attacks the building (§6.3), not the hero in front of it
-- with its Alpha Rule's breath.
do
	local g = village.new_game({ seed = 1, table = "empty" })
	local th = g:building("Town Hall") -- (15, 16)–(21, 20)
	local dragon = g:place("Young Dragon", { x = 22, y = 18 }, { group = 1, behaviour = "Ravager" })
	g:place("Captain Maren", { x = 24.5, y = 18 })
	assert(g:target(dragon) == th, "it targets the Town Hall")
	local a = g:act(dragon)
	assert(a.did == "structural" or a.did == "ignite", "the building first: " .. a.did)
end
