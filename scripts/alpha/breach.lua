-- Breach (SUPPLEMENT §8, the Orc Demolisher's Alpha Rule): a winning structural attack also destroys up
-- to `barricades` Barricades adjacent to the Demolisher (the kernel's `on_structural` hook).
return {
	on_structural = function(ctx, self, attack)
		if not attack.won then
			return
		end
		local left = ctx.params.barricades
		for _, b in ipairs(ctx:tokens("barricade")) do
			if left > 0 and ctx:distance_to(self, b) <= ctx:rule("bases", "contact_tolerance") then
				ctx:remove_barricade(b)
				left = left - 1
			end
		end
	end,
}
