-- Shared by the Big and Huge trait scripts (SUPPLEMENT §4 melee and ranged modifier tables, §9; core §6.4):
-- +1 in melee against a smaller model, a shooter gains +1 against it, and +1 on structural attacks. The
-- base sizes are the rosters'. `label` names the trait in the log.
local function opponent(roll)
	if roll.role == "attacker" then
		return roll.target
	end
	return roll.attacker
end

return function(label)
	return {
		description = "+1 in melee against a smaller model; shot at +1.",
		melee_modifier = function(ctx, self, roll)
			local other = opponent(roll)
			if other and other.base and self.base > other.base then
				return { value = ctx:rule("melee", "larger"), reason = label .. " against a smaller model" }
			end
		end,
		ranged_modifier = function(ctx, _self, roll)
			if roll.role == "defender" then
				return {
					value = ctx:rule("ranged", "big_or_huge"),
					to = "opponent",
					reason = "target " .. label,
				}
			end
		end,
		structural_modifier = function(ctx, _self, _roll)
			return { value = ctx:rule("structures", "size_bonus"), reason = label .. " (structural)" }
		end,
	}
end
