-- Long Move (core Ch. II, SUPPLEMENT §9): it moves with the Long measure instead of Medium.
return {
	movement = function(ctx, self, engaged)
		return { band = "long" }
	end,
}
