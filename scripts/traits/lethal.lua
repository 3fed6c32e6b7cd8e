-- Lethal (SUPPLEMENT §9; Song of Blades: "Kills by beating opponent in combat by 1 or more"): any win
-- of its own defeats the loser (SUPPLEMENT §4 rule 4). Gruesome Kills still need the normal multiple.
return {
	win_rules = function(ctx, self, win)
		return { lethal = "Lethal" }
	end,
}
