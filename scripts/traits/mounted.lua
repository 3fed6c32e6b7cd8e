-- Mounted (SUPPLEMENT §4 melee modifiers; core §3.3): +1 in melee against a non-Mounted model, and Free
-- Disengage against non-Mounted, non-Flying enemies.
local function opponent(roll)
	if roll.role == "attacker" then
		return roll.target
	end
	return roll.attacker
end

return {
	description = "+1 in melee against non-Mounted models; Free Disengage against non-Mounted, non-Flying enemies.",
	melee_modifier = function(ctx, _self, roll)
		local other = opponent(roll)
		if other and not other:has_trait("Mounted") then
			return { value = ctx:rule("melee", "mounted"), reason = "Mounted against a non-Mounted model" }
		end
	end,
	movement = function(_ctx, _self, engaged)
		local free = {}
		for _, e in ipairs(engaged) do
			if not e:has_trait("Mounted") and not e:has_trait("Flying") then
				table.insert(free, e.id)
			end
		end
		if #free > 0 then
			return { free_disengage = free }
		end
	end,
}
