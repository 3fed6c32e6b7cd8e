-- Herb Patch (SUPPLEMENT §7, roll 3): Herb tokens for the village, each healing a Wound in a Council
-- Phase (the Council spends them).
return {
	claim = function(ctx, hero, params)
		ctx:add_herbs(params.herbs)
	end,
}
