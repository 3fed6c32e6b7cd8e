-- Ride Down (SUPPLEMENT §8, Sir Roland): after moving at least `min_move` (Medium) into contact in an
-- activation, he gets +`modifier` Combat on that activation's attack, and a foe he beats Recoils
-- `recoils` times (that many base widths). The kernel counts `self.moved` and `self.charged` in his
-- current activation and clears them when it ends, so the bonus never reaches an attack outside his own
-- activation; a Free Hack is not that activation's attack either (SUPPLEMENT §11).
local function rode_down(ctx, self)
	return self.charged and self.moved >= ctx:rule("measures", ctx.params.min_move)
end

return {
	melee_modifier = function(ctx, self, roll)
		if roll.role == "attacker" and not roll.free_hack and rode_down(ctx, self) then
			return { value = ctx.params.modifier, reason = "Ride Down" }
		end
	end,
	on_result = function(ctx, self, win)
		if win.role == "winner" and win.attacker_won and win.result == "recoil" and rode_down(ctx, self) then
			return { recoil = ctx.params.recoils * win.opponent.base, reason = "Ride Down" }
		end
	end,
}
