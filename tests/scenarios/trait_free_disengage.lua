--! mod: tests/fixtures/traits_a_mod
-- Free Disengage (SUPPLEMENT §9, core §3.3; scripts/traits/free_disengage.lua): the `movement` hook lets
-- the model leave every enemy it is Engaged with without a Free Hack. No built-in profile has the trait;
-- the Elusive Goblin (a Goblin Looter with Free Disengage) comes from the fixture mod. The kernel does
-- not log which script shaped a move, so this scenario compares the same move without the trait.

-- The Elusive Goblin leaves two Village Archers at once: no Free Hack, the full move.
local g = village.new_game({ seed = 1, table = "empty" })
local elusive = g:place("Elusive Goblin", { x = 4, y = 30 })
g:place("Village Archer", { x = 5, y = 30 })
g:place("Village Archer", { x = 3, y = 30 })
assert(elusive.engaged)
local before = #g:log()
local m = g:move(elusive, { x = 4, y = 25 }, { distance = 3 })
assert(#m.free_hacks == 0, "no Free Hack")
assert(math.abs(m.travelled - 3) < 1e-9 and not elusive.engaged)
for i, e in ipairs(g:log()) do
	assert(i <= before or e.event ~= "combat", "no roll was made")
end

-- A Goblin Looter (same profile, no trait) takes a Free Hack from each (1 against 6: no effect).
g = village.new_game({ seed = 1, table = "empty" })
local goblin = g:place("Goblin Looter", { x = 4, y = 30 })
local a1 = g:place("Village Archer", { x = 5, y = 30 })
local a2 = g:place("Village Archer", { x = 3, y = 30 })
g:force_dice({ 1, 6, 1, 6 })
m = g:move(goblin, { x = 4, y = 25 }, { distance = 3 })
assert(#m.free_hacks == 2, #m.free_hacks)
assert((m.free_hacks[1] == a1 or m.free_hacks[1] == a2) and (m.free_hacks[2] == a1 or m.free_hacks[2] == a2))
assert(math.abs(m.travelled - 3) < 1e-9)
