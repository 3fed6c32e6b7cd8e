-- The enemy turn (core §6.2): Groups activate in Behaviour play order — Fanatic, Ravager, Hunter, Raider,
-- Mindless, Guardian — ties by Group number; each Group rolls once; two failures end the turn, except for
-- Mindless and Guardian Groups (at most one action, never a turnover).
local g = village.new_game({ seed = 3, table = "empty" })
g:place("Orc Warrior", { x = 2, y = 33 }, { behaviour = "Ravager", group = 2 })
g:place("Chaos Zealot", { x = 34, y = 33 }, { group = 3 })
g:place("Dire Wolf", { x = 34, y = 2 }, { group = 1 })
g:place("Zombie", { x = 2, y = 2 }, { group = 4 })
g:place("Bram the Smith", { x = 18, y = 13.5 })

-- Everyone rolls well: each Group, in play order, takes its actions.
g:force_dice({ 6, 6, 6, 6, 6, 6, 6, 6 })
local turns = g:enemy_turn()
local order = {}
for _, t in ipairs(turns) do
	order[#order + 1] = t.behaviour
end
assert(table.concat(order, ",") == "Fanatic,Ravager,Hunter,Mindless", table.concat(order, ","))
assert(turns[1].actions == 2 and #turns[1].done == 2, "two dice, two actions")
assert(turns[4].actions == 1, "a Mindless Group takes at most one action")
local rolled, n = 0, 0
for _, e in ipairs(g:log()) do
	if e.event == "activation" then
		n = n + 1
		if n == 4 then -- the fourth Group to roll: the Mindless one
			rolled = #e.dice
		end
	end
end
assert(rolled == 2, "it still rolls the Group's two dice (§6.2: 'on two failures ...'), rolled " .. rolled)
for _, t in ipairs(turns) do
	for _, a in ipairs(t.done) do
		assert(a.did == "moved", a.did .. (a.why or ""))
	end
end

-- A turnover from the first Group ends the enemy turn at once.
g:force_dice({ 1, 2 })
turns = g:enemy_turn()
assert(#turns == 1 and turns[1].turnover)

-- A Mindless Group never causes a turnover: on its failure it simply does nothing.
local g2 = village.new_game({ seed = 3, table = "empty" })
g2:place("Zombie", { x = 2, y = 2 }, { group = 1 })
g2:place("Skeleton Warrior", { x = 34, y = 34 }, { group = 2 })
g2:place("Bram the Smith", { x = 18, y = 13.5 }) -- a defender: with none the village is overrun
g2:force_dice({ 1, 1, 1, 6 })
turns = g2:enemy_turn()
assert(not turns[1].turnover and turns[1].actions == 0)
assert(turns[2].group == 2 and turns[2].actions == 1, "one success of two dice is its one action")
-- It failed one die without a turnover: still Active, its Group is nominated again that turn (§3.1),
-- until a roll leaves it Activated.
assert(#turns >= 3 and turns[3].group == 2, "the Skeleton's Group activates again")
for i = 3, #turns do
	assert(turns[i].group == 2, "only the Group still Active")
end
