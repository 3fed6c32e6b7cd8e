-- Ambush (SUPPLEMENT §7, roll 1): enemies deploy within a measure of the token, outside contact, and join
-- the wave as a new Enemy Group. Which profile, how many, their Behaviour and the measure are the row's
-- params; the kernel finds the spots and numbers the Group.
return {
	claim = function(ctx, hero, params)
		ctx:ambush(params.profile, params.count, params.behaviour, params.within)
	end,
}
