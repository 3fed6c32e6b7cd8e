-- Long Move (core Ch. II, SUPPLEMENT §9): it moves with the Long measure instead of Medium.
return {
	movement = { band = "long" },
}
