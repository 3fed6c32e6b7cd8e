-- Healer (SUPPLEMENT §9): 1 action clears one condition from an adjacent friend; 2 actions heal one Wound
-- (the costs are rule constants, rules.toml [actions]). The kernel checks the friend and the contact.
return {
	permissions = { heal = true },
}
