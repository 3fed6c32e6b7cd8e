-- Fireball (core rules §3.7; SUPPLEMENT §9): a spell used as a ranged attack, with Combat equal to its
-- Power, following the ranged-attack rules (closest target, Cover, the target's roll only defends).
-- `ctx:spell_attack` resolves it with both models' modifier hooks and returns the CombatResult.
return {
	name = "Fireball",
	description = "A ranged attack with Combat equal to its Power.",
	cast = function(ctx, caster, power, target, opts)
		if target == nil then
			error("Fireball needs a target model")
		end
		return ctx:spell_attack(target, power)
	end,
}
