-- Free Disengage (SUPPLEMENT §8, §9; core §3.3): leaves melee without suffering Free Hacks.
return {
	description = "Leaves melee without suffering Free Hacks.",
	movement = { free_disengage = true },
}
