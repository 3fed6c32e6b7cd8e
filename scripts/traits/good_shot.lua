-- Good Shot (SUPPLEMENT §4 ranged modifiers, §9; core §3.5 Marksman example): +1 on its ranged attacks.
return {
	description = "+1 on its ranged attacks.",
	ranged_modifier = function(ctx, _self, roll)
		if roll.role == "attacker" then
			return { value = ctx:rule("ranged", "good_shot"), reason = "Good Shot" }
		end
	end,
}
