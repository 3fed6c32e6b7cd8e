-- Animal (SUPPLEMENT §9, from Song of Blades): it cannot use magic, items or Opportunities. The kernel
-- refuses its casting, its claims and its items on this permission.
return {
	permissions = { no_magic = true },
}
