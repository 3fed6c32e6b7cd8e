-- Heal (SUPPLEMENT §9; core rules §3.7 "Conditions"): resisted by nothing, it clears one condition or heals
-- one Wound on a living model in range. Wounds are not conditions. How many of each one casting removes
-- comes from the roster (`params.wounds_healed`, `params.conditions_cleared`); the kernel refuses Undead and
-- Artificial models and a model with nothing of that kind to heal.
-- `opts.what` names what to heal ("wound" or a condition); without it a Wound comes first, then the first
-- condition. Without a target the caster heals itself. Returns what was healed, in order.
local function choose(target)
	if target.wounds > 0 then
		return "wound"
	end
	return target.conditions[1]
end

return {
	name = "Heal",
	description = "Clear one condition or heal one Wound on a living model in range.",
	cast = function(ctx, caster, power, target, opts)
		target = target or caster
		local what = opts.what or choose(target)
		if what == nil then
			error(target.name .. " has no Wound and no condition to heal")
		end
		local times = what == "wound" and ctx.params.wounds_healed or ctx.params.conditions_cleared
		local healed = {}
		for _ = 1, times do
			healed[#healed + 1] = ctx:heal(target, what)
		end
		return healed
	end,
}
