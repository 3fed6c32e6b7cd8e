-- Tough (core §3.8): a normal Defeated result becomes a Wound and Quality worsens by 1; at Q7+ the model is
-- Defeated; a Gruesome Kill still defeats it. The kernel applies §3.8 to models granted this permission.
return {
	permissions = { tough = true },
}
