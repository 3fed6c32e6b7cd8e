-- Break Enchantment (SUPPLEMENT §9; core rules §3.7 "Spell kinds"): dispel one Enchantment from a model in
-- range. An Enchantment is a lasting effect of a spell of kind "enchantment". No supplied spell is one
-- (Transfix is Resisted, Thorn Wall a Wall, Raise Dead a Summoning) and the kernel records no Enchantment,
-- so `ctx:dispel` checks the cast, logs the attempt and returns nil: the spell is castable and does
-- nothing until a spell of kind "enchantment" exists. Returns what was dispelled, or nil.
return {
	name = "Break Enchantment",
	description = "Dispel one Enchantment in range.",
	cast = function(ctx, caster, power, target, opts)
		if target == nil then
			error("Break Enchantment needs a target model")
		end
		return ctx:dispel(target)
	end,
}
