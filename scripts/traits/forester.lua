-- Forester (SUPPLEMENT §9; core §3.3): woods are not difficult terrain for it.
return {
	description = "Woods are not difficult terrain for it.",
	movement = { ignore_terrain = { "wood" } },
}
