-- Hero (core §3.1, SUPPLEMENT §4 ruling): of the activation dice chosen, one is an automatic success that is
-- not rolled (one die fewer is rolled, and only rolled dice fail or make a turnover); a one-die Quality check
-- is passed without a roll. The kernel applies the rule to models granted this permission.
return {
	permissions = { automatic_success = true },
}
