-- Undead (SUPPLEMENT §4 ranged modifiers; core §3.6): a shooter has -2 against it, and it ignores Terror
-- and Gruesome Kill morale checks. Its defeat on two or three morale failures is the kernel's.
return {
	description = "Shot at -2; ignores Terror and Gruesome Kill morale checks.",
	ranged_modifier = function(ctx, _self, roll)
		if roll.role == "defender" then
			return { value = ctx:rule("ranged", "undead"), to = "opponent", reason = "target Undead" }
		end
	end,
	morale = function(_ctx, _self, trigger)
		if trigger == "terror" or trigger == "gruesome_kill" then
			return { immune = "Undead" }
		end
	end,
}
