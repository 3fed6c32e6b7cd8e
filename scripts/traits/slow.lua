-- Slow (SUPPLEMENT §9): only one move action per activation (a one-base-width step is not a move action).
return {
	movement = function(ctx, self, engaged)
		return { one_move = true }
	end,
}
