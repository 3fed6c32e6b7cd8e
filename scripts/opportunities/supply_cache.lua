-- Supply Cache (SUPPLEMENT §7, roll 2): Supplies for the village at the end of the wave (§7.1 step 4).
return {
	wave_end = function(ctx, hero, params)
		ctx:add_supplies(params.supplies)
	end,
}
