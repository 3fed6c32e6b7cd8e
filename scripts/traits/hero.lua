-- Hero (core §3.1, SUPPLEMENT §4 ruling): one activation die counts as an automatic success, and a one-die
-- Quality check is passed automatically. The kernel applies the rule to models granted this permission.
return {
	permissions = { automatic_success = true },
}
