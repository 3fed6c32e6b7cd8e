-- Cleric (SUPPLEMENT §9; Song of Blades: "All attacks are Lethal vs Undead"): a win of its own against
-- an Undead model defeats it on any margin (SUPPLEMENT §4 rule 4), melee or ranged. A higher multiplier
-- result (Gruesome Kill) still stands.
return {
	win_rules = function(ctx, self, win)
		if win.opponent and win.opponent:has_trait("Undead") then
			return { lethal = "Cleric against Undead" }
		end
	end,
}
