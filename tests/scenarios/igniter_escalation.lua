-- Igniters burn from Escalation II (core §5.2, SUPPLEMENT §5): each wave's deployment sets
-- `igniters_burn` from its Escalation row. In a wave at I an Igniter beside a building may not place
-- fire — the kernel refuses it and the Behaviour attacks the building instead; at II it sets it alight.
local g = village.new_game({
	seed = 3,
	table = "empty",
	length = "standard",
	heroes = { "Captain Maren", "Tobin the Marksman" },
})

-- An Orc Warrior (an Igniter) touching the north wall of the Forge.
local function beside_forge()
	local f = g:building("Forge")
	return g:place(
		"Orc Warrior",
		{ x = f.pos.x, y = f.pos.y + f.size.h / 2 + 0.5 },
		{ behaviour = "Ravager" }
	)
end

local plan = g:start_wave()
assert(plan.escalation == "I")
local orc = beside_forge()
local ok, err = pcall(function()
	g:ignite(orc, "Forge")
end)
assert(not ok and tostring(err):find("Escalation II", 1, true), tostring(err))
assert(not g:building("Forge").fire, "nothing was placed")
g:force_dice({ 6, 1 })
local a = g:act(orc)
assert(a.did == "structural" and a.building == "Forge", a.did)
g:remove(orc)

-- Wave 2 of a standard game is Escalation II.
for _, e in ipairs(g:models({ side = "enemies" })) do
	g:remove(e)
end
plan = g:start_wave()
assert(plan.escalation == "II")
orc = beside_forge()
a = g:act(orc)
assert(a.did == "ignite" and a.building == "Forge" and g:building("Forge").fire, a.did)
-- The Forge already burning, the next action attacks it.
g:force_dice({ 6, 1 })
a = g:act(orc)
assert(a.did == "structural", a.did)
