-- Savage (SUPPLEMENT §9; Song of Blades: "Causes Gruesome Kill on 2x Combat roll (Melee only)"): in
-- melee its win is a Gruesome Kill from combat.savage_gruesome_multiplier times the loser's total
-- instead of combat.gruesome_multiplier. Ranged wins are read normally.
-- Not modelled: Song of Blades narrows the morale checks of a Savage Gruesome Kill to Medium; the
-- kernel always uses morale.gruesome_range.
return {
	win_rules = function(ctx, self, win)
		if win.kind == "melee" then
			return { gruesome_multiplier = ctx:rule("combat", "savage_gruesome_multiplier") }
		end
	end,
}
