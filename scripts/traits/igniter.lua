-- Igniter (core §5.2, §6.4): adjacent to an intact building it may spend an action placing a fire token
-- instead of attacking. (From Escalation II: the wave engine decides when Igniters may use it.)
return {
	permissions = { ignite = true },
}
