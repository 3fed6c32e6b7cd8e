-- Thorn Wall (SUPPLEMENT §9; core rules §3.7 "Spell kinds"): a Wall — a summoned linear obstacle of the
-- roster's `wall.length` with its own Integrity and Structure, from `opts.from` toward `opts.to`. Both ends
-- must lie within the Power's range. It stands until the wave ends or its caster is Defeated (the kernel
-- removes it with the caster). Returns the wall's token id.
return {
	name = "Thorn Wall",
	description = "A linear obstacle with Integrity 2 and Structure 2, held by its caster.",
	cast = function(ctx, caster, power, target, opts)
		if opts.from == nil or opts.to == nil then
			error("Thorn Wall needs opts.from and opts.to (where it starts and which way it runs)")
		end
		return ctx:wall(opts.from, opts.to, power)
	end,
}
