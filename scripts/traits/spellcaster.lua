-- Spellcaster (core §3.7): it may cast the spells named on its profile (Power 1–3, declared before rolling).
return {
	permissions = { cast = true },
}
