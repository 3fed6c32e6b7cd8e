-- Guardian (core §6.3): the nearest building, or an Opportunity if one is nearer; if its objective is
-- Destroyed, the nearest remaining building; with none left, it hunts.
local g = village.new_game({ seed = 1, table = "empty" })
local lizard = g:place("Lizard Harpooner", { x = 33, y = 18 })
assert(lizard.behaviour == "Guardian")
assert(g:target(lizard) == g:building("Temple"), 'the Temple is nearest (3.5")')
g:opportunity({ 33, 21 })
local t = g:target(lizard)
assert(type(t) == "table" and t.x == 33 and t.y == 21, 'an Opportunity 2.5" away is nearer')

local other = g:place("Lizard Harpooner", { x = 33, y = 10 })
g:damage("Temple", 5)
local t2 = g:target(other)
assert(t2 == g:building("Watchtower") or t2 == g:building("Town Hall") or type(t2) == "table", tostring(t2))

for _, b in ipairs(g:buildings()) do
	g:damage(b, 10)
end
local g2 = village.new_game({ seed = 1, table = "empty" })
for _, b in ipairs(g2:buildings()) do
	g2:damage(b, 10)
end
local lone = g2:place("Lizard Harpooner", { x = 33, y = 18 })
local maren = g2:place("Captain Maren", { x = 3, y = 3 })
assert(g2:target(lone) == maren, "nothing to guard: it hunts")
