-- Slow (SUPPLEMENT §9): only one move action per activation (a one-base-width step is not a move action).
return {
	movement = { one_move = true },
}
