-- Starting a wave (core §5.1–5.3): the wave builder's Groups are deployed along their spawn edges and the
-- heroes around the Town Hall; the enemy turn then plays them by their Behaviours.
local g = village.new_game({
	seed = 21,
	table = "generated",
	length = "standard",
	heroes = { "Captain Maren", "Tobin the Marksman", "Sister Ilse" },
})
local plan = g:start_wave()
assert(plan.escalation == "I" and plan.budget == 120 and plan.spent <= plan.budget)
assert(g.wave == 1)
local enemies = g:models({ side = "enemies" })
local count = 0
for _, gp in ipairs(plan.groups) do
	count = count + #gp.models
end
assert(#enemies == count, "every planned model is on the table")
for _, e in ipairs(enemies) do
	assert(e.group ~= nil and e.behaviour == plan.behaviour, "one Behaviour for the whole wave at I")
end
local th = g:building("Town Hall")
-- Stable I's Ready Mounts (step 4) may have moved one hero up to Short after deployment.
local mounted
for _, e in ipairs(g:log()) do
	if e.event == "building_ability" and e.ability == "Ready Mounts" then
		mounted = e.models[1]
	end
end
for _, h in ipairs(g:models({ side = "heroes" })) do
	-- Whole base within 6" of the Town Hall: the centre within 6" - r of its outline.
	local dx = math.max(math.abs(h.pos.x - th.pos.x) - th.size.w / 2, 0)
	local dy = math.max(math.abs(h.pos.y - th.pos.y) - th.size.h / 2, 0)
	local reach = h.id == mounted and 6 + g:rules().measures.short or 6
	assert(math.sqrt(dx * dx + dy * dy) <= reach - h.base / 2 + 1e-9, h.name .. " deployed by the Town Hall")
end
local acted = 0
for _ = 1, 3 do
	for _, t in ipairs(g:enemy_turn()) do
		acted = acted + #t.done
	end
end
assert(acted > 0, "the Groups acted")
