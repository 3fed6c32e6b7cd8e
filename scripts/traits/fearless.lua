-- Fearless (SUPPLEMENT §4, §9; core §3.6): ignores Terror and Gruesome Kill morale checks.
return {
	description = "Ignores Terror and Gruesome Kill morale checks.",
	morale = function(_ctx, _self, trigger)
		if trigger == "terror" or trigger == "gruesome_kill" then
			return { immune = "Fearless" }
		end
	end,
}
