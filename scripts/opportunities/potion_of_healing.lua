-- Potion of Healing (SUPPLEMENT §7, roll 4; core §3.7): the hero carries a Potion; later it may spend the
-- row's `actions` (a `{ use = "Potion of Healing" }` order) to clear one condition or heal one Wound. A
-- condition goes first: it stops the hero now, a Wound only worsens its Quality.
return {
	claim = function(ctx, hero, params, opp)
		ctx:give(hero, opp.name)
	end,
	use = function(ctx, hero, params)
		if #hero.conditions > 0 and params.conditions > 0 then
			return ctx:heal(hero, hero.conditions[1])
		end
		if hero.wounds > 0 and params.wounds > 0 then
			return ctx:heal(hero, "wound")
		end
		-- Nothing to heal: asking for nothing refuses the use, so the Potion is kept.
	end,
}
