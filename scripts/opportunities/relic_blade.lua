-- Relic Blade (SUPPLEMENT §7, roll 6): the hero gains a bonus to Combat in melee for the rest of the game,
-- once per hero (`per_hero`: a second Relic Blade for the same hero does nothing; the limited use
-- "game:Relic Blade:<hero>" records the first). The blade is an item on the hero carrying this script, so
-- `melee_modifier` below acts for the hero as a trait's would, and the log names this script as the
-- modifier's source.
return {
	claim = function(ctx, hero, params, opp)
		local key = "game:" .. opp.name .. ":" .. hero.name
		if params.per_hero > 0 then
			if ctx:spent(key) then
				return -- this hero already has its Relic Blade
			end
			ctx:spend(key)
		end
		ctx:give(hero, opp.name)
	end,
	melee_modifier = function(ctx, self, roll)
		return { value = ctx.params.modifier, reason = "Relic Blade" }
	end,
}
