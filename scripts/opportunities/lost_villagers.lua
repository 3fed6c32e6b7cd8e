-- Lost Villagers (SUPPLEMENT §7, roll 5): at the end of the wave (§7.1 step 4) Supplies for the village,
-- and Village Defenders who join at the next wave start.
return {
	wave_end = function(ctx, hero, params)
		ctx:add_supplies(params.supplies)
		for _ = 1, params.count do
			ctx:join(params.profile)
		end
	end,
}
