--! mod: tests/fixtures/traits_b_mod
-- Stealth (SUPPLEMENT §9, scripts/traits/stealth.lua): a model touching Cover terrain (wood, wall,
-- hedge) cannot be shot; in the open it can, and a Stealthy model that cannot be shot does not force
-- the closest-target rule.
local g = village.new_game({ seed = 1, table = "empty" })
local archer = g:place("Village Archer", { x = 2, y = 30 })
local sneak = g:place("Stealthy Orc", { x = 5, y = 30 })
-- A hedge touching the orc's base on its far side (the shot does not cross it).
g:add_terrain("hedge", { { 5.5, 28 }, { 5.5, 32 } })

local ok, err = pcall(g.shoot, g, archer, sneak)
assert(not ok, "the Stealthy Orc was shot")
err = tostring(err)
assert(err:find("cannot be shot", 1, true) and err:find("scripts/traits/stealth.lua", 1, true), err)

-- A plain Orc Warrior farther off in the open may be shot although the Stealthy Orc is closer.
local orc = g:place("Orc Warrior", { x = 2, y = 34 })
g:force_dice({ 4, 2 })
local r = g:shoot(archer, orc)
assert(r.kind == "ranged" and r.attacker_die == 4)

-- Away from the hedge, the Stealthy Orc can be shot.
local sneak2 = g:place("Stealthy Orc", { x = 30, y = 30 })
local archer2 = g:place("Village Archer", { x = 27, y = 30 })
g:force_dice({ 4, 2 })
r = g:shoot(archer2, sneak2)
assert(r.kind == "ranged" and r.winner == archer2, tostring(r.result))

-- A plain Orc Warrior behind a hedge it touches is only in Cover.
local orc2 = g:place("Orc Warrior", { x = 30, y = 34 })
g:add_terrain("hedge", { { 29.5, 33 }, { 29.5, 35 } })
local archer3 = g:place("Village Archer", { x = 27, y = 34 })
g:force_dice({ 4, 2 })
r = g:shoot(archer3, orc2)
local cover = false
for _, m in ipairs(r.modifiers) do
	cover = cover or (m.reason == "target in Cover" and m.value == -1)
end
assert(cover, "the Orc Warrior is in Cover, not out of reach")
