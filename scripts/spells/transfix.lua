-- Transfix (core rules §3.7; SUPPLEMENT §9): a Resisted spell. The target rolls one Quality die per point
-- of Power; any failure Transfixes it, held by the caster: it cannot move, is attacked at +2 and Lethally,
-- spends two actions to break free, and breaks free at once if its caster is Defeated.
-- The kernel has already checked the cast (known spell, power left, not Engaged, range by Power, sight);
-- `ctx:transfix` rolls the Quality dice and applies the condition. Returns true when it took hold.
return {
	name = "Transfix",
	description = "1-3 actions: the target resists with one Quality die per Power or is Transfixed.",
	cast = function(ctx, caster, power, target, opts)
		if target == nil then
			error("Transfix needs a target model")
		end
		return ctx:transfix(target, power)
	end,
}
