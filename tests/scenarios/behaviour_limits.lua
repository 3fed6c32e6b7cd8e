--! mod: tests/fixtures/behaviour_data_mod
-- The Behaviours' limits and numbers are data (rosters/behaviours.toml), and the kernel and the scripts
-- play them: Mindless never shoots nor moves while Engaged (`ranged_attacks`, `voluntary_disengage`),
-- a Fanatic makes no morale check for Terror (`ignores_terror_and_gruesome`), a Guardian guards within
-- its `guard_radius` and a Ravager falls back on its `fallback_behaviour` (this mod makes them 6" and
-- Raider). A Slow model that has moved steps one base width with its next action (§3.3).
local g = village.new_game({ seed = 4, table = "empty" })
local bram = g:place("Bram the Smith", { x = 30, y = 30 })
local kobold = g:place("Bone Slinger", { x = 30, y = 33 }, { group = 1, behaviour = "Mindless" })
local ok, err = pcall(function()
	return g:order(kobold, { shoot = bram })
end)
assert(not ok and tostring(err):find("never does", 1, true), tostring(err))
local a = g:act(kobold)
assert(a.did ~= "shoot", "a Mindless Shooter walks instead of throwing: " .. a.did)
-- Engaged, it may not walk away.
assert(g:distance(kobold, bram) < 0.06, "in contact now")
local ok2, err2 = pcall(function()
	return g:order(kobold, { move = { x = 30, y = 35 } })
end)
assert(not ok2 and tostring(err2):find("never voluntarily disengages", 1, true), tostring(err2))

-- A Fanatic ignores Terror (this Cultist has no Fearless); the same profile as a Hunter tests.
local fanatic = g:place("Cultist", { x = 4, y = 4 }, { group = 2, behaviour = "Fanatic" })
local r = g:morale(fanatic, "terror")
assert(r.result == "immune", r.result)
local hunter = g:place("Cultist", { x = 4, y = 30 }, { group = 3, behaviour = "Hunter" })
g:force_dice({ 6, 6, 6 })
assert(g:morale(hunter, "terror").result ~= "immune")

-- Guardian: 5" from the Temple, its objective, is within this mod's 6" radius, so it holds (by the
-- rulebook's 3" it would walk back toward it).
local g2 = village.new_game({ seed = 4, table = "empty" })
local temple = g2:building("Temple") -- (25, 16)–(29, 20)
local lizard = g2:place("Lizard Harpooner", { x = 34.5, y = 18 }, { group = 1, behaviour = "Guardian" })
assert(g2:target(lizard) == temple, "it guards the Temple")
local held = g2:act(lizard)
assert(held.did == "lost" and lizard.pos.x == 34.5, 'it holds 5" out: ' .. held.did)

-- Ravager with every building Destroyed: this mod's fallback is Raider, which leaves by an edge.
local g3 = village.new_game({ seed = 4, table = "empty" })
for _, b in ipairs(g3:buildings()) do
	g3:damage(b, 10)
end
g3:place("Captain Maren", { x = 30, y = 30 })
local ravager = g3:place("Orc Warrior", { x = 4, y = 4 }, { group = 1, behaviour = "Ravager" })
assert(g3:target(ravager) == "edge", "falls back on Raider: " .. tostring(g3:target(ravager)))

-- Slow: one move action, then a step.
local g4 = village.new_game({ seed = 4, table = "empty" })
g4:place("Captain Maren", { x = 30, y = 30 })
local zombie = g4:place("Zombie", { x = 4, y = 4 }, { group = 1, behaviour = "Mindless" })
g4:begin_turn("enemies")
local first = g4:act(zombie)
local second = g4:act(zombie)
assert(first.did == "moved" and first.travelled > 1.5, "a move first: " .. first.did)
assert(second.did == "moved" and math.abs(second.travelled - 1) < 1e-9, "then a step: " .. second.travelled)
