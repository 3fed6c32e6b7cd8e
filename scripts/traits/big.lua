-- Big (SUPPLEMENT §4 melee and ranged modifier tables, §9; core §8.1): +1 in melee against a smaller
-- model, and a shooter gains +1 against it. Its structural attacks gain +1 (§6.4). The base size is the
-- kernel's.
local function opponent(roll)
	if roll.role == "attacker" then
		return roll.target
	end
	return roll.attacker
end

return {
	description = "+1 in melee against a smaller model; shot at +1.",
	melee_modifier = function(ctx, self, roll)
		local other = opponent(roll)
		if other and other.base and self.base > other.base then
			return { value = ctx:rule("melee", "larger"), reason = "Big against a smaller model" }
		end
	end,
	ranged_modifier = function(ctx, _self, roll)
		if roll.role == "defender" then
			return { value = ctx:rule("ranged", "big_or_huge"), to = "opponent", reason = "target Big" }
		end
	end,
	structural_modifier = function(ctx, _self, _roll)
		return { value = ctx:rule("structures", "size_bonus"), reason = "Big (structural)" }
	end,
}
