-- Poison (SUPPLEMENT §9; Song of Blades: "Roll D6 for each successful hit: on a 5 or 6, opponent's
-- Quality increases by 1"): when its owner wins a roll (melee or ranged) and the result does not kill,
-- roll a D6; on params.min_roll or more the loser's Quality worsens by params.quality_loss. Undead and
-- Artificial models are immune.
-- Not modelled: "once per turn". The engine has no turn clock yet (the round never advances and there
-- is no side-to-move), and a script must not keep per-game state, so every qualifying hit rolls.
local kills = { defeated = true, gruesome = true, wound = true }

return {
	on_result = function(ctx, self, win)
		local victim = win.opponent
		if win.role ~= "winner" or not victim or kills[win.result] then
			return nil
		end
		if victim:has_trait("Undead") or victim:has_trait("Artificial") then
			return nil
		end
		if ctx:roll(1, "poison")[1] >= ctx.params.min_roll then
			ctx:worsen_quality(victim, ctx.params.quality_loss, "Poison")
		end
	end,
}
