--! mod: tests/fixtures/traits_a_mod
-- Flying (SUPPLEMENT §9, core §3.3; scripts/traits/flying.lua): the `movement` hook says the model flies
-- (terrain costs it no band and does not stop it) and has Free Disengage against non-Flying enemies.
-- The Giant Eagle (a Flying Village Defender) comes from the fixture mod. The kernel does not log which
-- script shaped a move, so this scenario shows the effect against the same move without the trait.

-- Leaving a Village Archer (not Flying): no Free Hack.
local g = village.new_game({ seed = 1, table = "empty" })
local imp = g:place("Infernal Imp", { x = 4, y = 30 })
g:place("Village Archer", { x = 5, y = 30 })
assert(imp.engaged)
local m = g:move(imp, { x = 4, y = 25 }, { distance = 3 })
assert(#m.free_hacks == 0, "no Free Hack from a non-Flying enemy")
assert(math.abs(m.travelled - 3) < 1e-9 and not imp.engaged)

-- The same for a Goblin Looter (no Flying) draws the Archer's Free Hack (1 against 6: no effect).
g = village.new_game({ seed = 1, table = "empty" })
local goblin = g:place("Goblin Looter", { x = 4, y = 30 })
local archer = g:place("Village Archer", { x = 5, y = 30 })
g:force_dice({ 1, 6 })
m = g:move(goblin, { x = 4, y = 25 }, { distance = 3 })
assert(#m.free_hacks == 1 and m.free_hacks[1] == archer)

-- Leaving a Flying enemy (the Giant Eagle) draws its Free Hack: 2 + 1 against the Imp's 1 + 6, no effect.
g = village.new_game({ seed = 1, table = "empty" })
imp = g:place("Infernal Imp", { x = 4, y = 30 })
local eagle = g:place("Giant Eagle", { x = 5, y = 30 })
g:force_dice({ 1, 6 })
m = g:move(imp, { x = 4, y = 25 }, { distance = 3 })
assert(#m.free_hacks == 1 and m.free_hacks[1] == eagle, "the Eagle flies too: it hacks")
assert(math.abs(m.travelled - 3) < 1e-9)

-- Over a wood (difficult): the Imp keeps its Medium band (6"); a Goblin Looter loses a band (3").
local function across(kind, name)
	local tg = village.new_game({ seed = 1, table = "empty" })
	tg:add_terrain(kind, { { 6, 31 }, { 8, 31 }, { 8, 35 }, { 6, 35 } })
	local model = tg:place(name, { x = 3, y = 33 })
	return tg:move(model, { x = 20, y = 33 })
end
m = across("wood", "Infernal Imp")
assert(m.band_lost == nil and math.abs(m.travelled - 6) < 1e-9, m.travelled)
m = across("wood", "Goblin Looter")
assert(m.band_lost ~= nil and math.abs(m.travelled - 3) < 1e-9, m.travelled)

-- Over rocks (impassable): the Imp flies over them; the Goblin is stopped at their edge.
m = across("rocks", "Infernal Imp")
assert(m.stopped_by == nil and math.abs(m.to.x - 9) < 1e-9, m.to.x)
m = across("rocks", "Goblin Looter")
assert(m.stopped_by == "rocks" and math.abs(m.to.x - 5.5) < 1e-9, tostring(m.stopped_by) .. " " .. m.to.x)
