-- Shooter (core §3.5, SUPPLEMENT §8): it may make ranged attacks with the weapon on its profile (range,
-- bands and exhaustion are the weapon's, in rosters/weapons.toml).
return {
	permissions = { shoot = true },
}
