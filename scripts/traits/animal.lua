-- Animal (SUPPLEMENT §9, from Song of Blades): it cannot use magic, items or Opportunities. The kernel
-- refuses its casting; claiming Opportunities arrives with the wave engine.
return {
	permissions = function(ctx, self)
		return { no_magic = true }
	end,
}
