-- Single Horde: a wave-builder variant (SUPPLEMENT §10 lets a Lua script replace the default builder).
-- Each wave is one horde: Mobs of a single profile, all following one Behaviour and coming from one
-- spawn edge, split into Groups of at most `activation.group_max_models` — at most one Group per hero
-- plus one, so the horde fits along its edge. Every choice is a D6 rolled through ctx (logged). The
-- kernel checks what this returns (profiles, Behaviour, edge, budget) and deploys it as usual.
local function roll_at_most(ctx, n, purpose)
	-- A D6 rerolled until it shows 1..n (n <= 6), like the rulebook's "reroll 5-6".
	while true do
		local face = ctx:roll(1, purpose)[1]
		if face <= n then
			return face
		end
	end
end

return {
	name = "Single Horde",
	description = "Every wave is one horde of a single Mob profile from one spawn edge.",
	build_wave = function(ctx, ask)
		local fits = {}
		for _, p in ipairs(ask.enemies) do
			if p.tier == "mob" and p.cost <= ask.budget and #fits < 6 then
				fits[#fits + 1] = p
			end
		end
		if #fits == 0 then
			return nil -- nothing affordable: let the default builder try
		end
		local p = fits[roll_at_most(ctx, #fits, "single horde profile")]
		local behaviour = p.behaviours[roll_at_most(ctx, #p.behaviours, "single horde Behaviour")]
		local edge = roll_at_most(ctx, ask.edges, "single horde spawn edge")
		local size = ctx:rule("activation", "group_max_models")
		local count = math.min(math.floor(ask.budget / p.cost), size * (ask.heroes + 1))
		local groups = {}
		while count > 0 do
			local models = {}
			for _ = 1, math.min(size, count) do
				models[#models + 1] = p.name
			end
			count = count - #models
			groups[#groups + 1] = { models = models, behaviour = behaviour, edge = edge }
		end
		return groups
	end,
}
