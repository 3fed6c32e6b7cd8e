-- Short Move (core §3.3, SUPPLEMENT §9): it moves with the Short measure, and needs two actions to cross
-- difficult terrain or an obstacle (the kernel's band rule for a Short band).
return {
	movement = { band = "short" },
}
