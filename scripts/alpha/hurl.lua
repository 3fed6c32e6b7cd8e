-- Hurl (SUPPLEMENT §8, the Ogre Brute's Alpha Rule): a model it beats Recoils a full `recoil` (Medium)
-- instead of one base width.
return {
	on_result = function(ctx, self, win)
		if win.role == "winner" and win.result == "recoil" then
			return { recoil = ctx.params.recoil, reason = "Hurl" }
		end
	end,
}
