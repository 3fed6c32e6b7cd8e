-- Wildfire (SUPPLEMENT §8, the Fire Entity's Alpha Rule): when it is Defeated, every intact building
-- adjacent to it gains a fire token (one that already burns keeps its one token).
return {
	on_defeat = function(ctx, self)
		for _, b in ipairs(ctx:buildings()) do
			if not b.destroyed and ctx:distance_to(self, b) <= ctx:rule("bases", "contact_tolerance") then
				ctx:ignite(b)
			end
		end
	end,
}
