-- Flying (SUPPLEMENT §9; core §3.3): moves over terrain, obstacles and Barricades without losing a band,
-- and has Free Disengage against non-Flying enemies.
return {
	description = "Flies over terrain; Free Disengage against non-Flying enemies.",
	movement = function(_ctx, _self, engaged)
		local free = {}
		for _, e in ipairs(engaged) do
			if not e:has_trait("Flying") then
				table.insert(free, e.id)
			end
		end
		return { flying = true, free_disengage = free }
	end,
}
