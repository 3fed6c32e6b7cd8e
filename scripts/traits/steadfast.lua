-- Steadfast (SUPPLEMENT §9; Song of Blades: "+1 to Morale rolls"): +1 to each morale die, whatever
-- the trigger. The bonus is the rule constant morale.steadfast_bonus.
return {
	morale = function(ctx, self, trigger)
		return { modifier = ctx:rule("morale", "steadfast_bonus"), reason = "Steadfast" }
	end,
}
