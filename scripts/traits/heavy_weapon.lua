-- Heavy Weapon (core §6.4, SUPPLEMENT §9): +1 Combat on structural attacks. The bonus does not stack with
-- Big or Huge, whose scripts give the same +1, so it adds nothing to a Big or Huge model.
return {
	structural_modifier = function(ctx, self, roll)
		if self:has_trait("Big") or self:has_trait("Huge") then
			return nil
		end
		return { value = ctx:rule("structures", "size_bonus"), reason = "Heavy Weapon (structural)" }
	end,
}
