-- Guardian (core §6.3): the objective is assigned once — the nearest building, or an Opportunity if one
-- is nearer — and kept (an Opportunity placed later, or a nearer building walked past, changes nothing);
-- if the objective is Destroyed or removed, the nearest remaining building; with none left, it hunts.
local g = village.new_game({ seed = 1, table = "empty" })
local lizard = g:place("Lizard Harpooner", { x = 33, y = 18 })
assert(lizard.behaviour == "Guardian")
assert(g:target(lizard) == g:building("Temple"), 'the Temple is nearest (3.5")')
-- Kept: an Opportunity now nearer does not take its place.
local token = g:opportunity({ 33, 21 })
assert(g:target(lizard) == g:building("Temple"), "the objective is kept")
-- A Guardian assigned now (after the token was placed) takes the nearer Opportunity.
local other = g:place("Lizard Harpooner", { x = 33, y = 23 })
local t = g:target(other)
assert(type(t) == "table" and t.x == 33 and t.y == 21, 'an Opportunity 1.5" away is nearer')
-- Its objective stays the token even once it stands nearer a building.
g:move(other, { x = 30, y = 26 })
local t2 = g:target(other)
assert(type(t2) == "table" and t2.x == 33 and t2.y == 21, "still the token")

-- Destroyed: the nearest remaining building, never the Opportunity (3" away) in its place.
g:damage("Temple", 5)
local t3 = g:target(lizard)
assert(t3 ~= g:building("Temple") and not t3.destroyed and t3.integrity, tostring(t3))
-- Removed: a hero claims the token, and the other Guardian is given the nearest remaining building.
local maren = g:place("Captain Maren", { x = 33.5, y = 21 })
g:order(maren, { claim = token })
local t4 = g:target(other)
assert(t4.integrity and not t4.destroyed, "a building after the token is gone: " .. tostring(t4))
local objectives = 0
for _, e in ipairs(g:log()) do
	if e.event == "objective" then
		objectives = objectives + 1
	end
end
assert(objectives == 4, "four assignments logged: " .. objectives)

-- Nothing left to guard: it hunts.
local g2 = village.new_game({ seed = 1, table = "empty" })
for _, b in ipairs(g2:buildings()) do
	g2:damage(b, 10)
end
local lone = g2:place("Lizard Harpooner", { x = 33, y = 18 })
local maren2 = g2:place("Captain Maren", { x = 3, y = 3 })
assert(g2:target(lone) == maren2, "nothing to guard: it hunts")

-- In a wave, every Guardian Group is assigned at deployment, before the heroes' first turn.
local g3 = village.new_game({
	seed = 9,
	length = "standard",
	heroes = { "Captain Maren", "Tobin the Marksman", "Sister Ilse", "Bram the Smith" },
})
g3:start_wave()
local assigned, guardians = {}, 0
for _, e in ipairs(g3:log()) do
	assert(e.event ~= "activation", "assigned before anything activates")
	if e.event == "objective" then
		for _, id in ipairs(e.models) do
			assigned[id] = true
		end
	end
end
for _, m in ipairs(g3:models({ side = "enemies" })) do
	if m.behaviour == "Guardian" then
		guardians = guardians + 1
		assert(assigned[m.id], m.name .. " has an objective at deployment")
	end
end
assert(guardians > 0, "wave 1 of seed 9 has Guardians")
