-- Raise Dead (SUPPLEMENT §8 the Lich's Alpha Rule, §9; core rules §3.7 "Spell kinds"): a Ritual and a
-- Summoning. `g:cast` spends the caster's actions on a Task of the roster's `ritual_actions`; this runs
-- when the Task completes. A `params.profile` (Skeleton Warrior) stands at `opts.at`, within
-- `params.within` (Short) of the caster, joins the caster's side and Group, and vanishes if the caster is
-- Defeated. Returns the summoned model's snapshot.
return {
	name = "Raise Dead",
	description = "Ritual (a Task): a Skeleton Warrior within Short joins the caster's Group.",
	cast = function(ctx, caster, power, target, opts)
		local p = ctx.params
		if p.count ~= 1 then
			error("Raise Dead summons params.count = " .. tostring(p.count) .. " models; opts.at places one")
		end
		if opts.at == nil then
			error("Raise Dead needs opts.at: where the " .. p.profile .. " stands")
		end
		return ctx:summon(p.profile, opts.at, p.within)
	end,
}
