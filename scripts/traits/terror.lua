-- Terror (core §3.6, SUPPLEMENT §9): a model it charges (its move ends in contact) tests morale. The
-- kernel applies the check after the move; Fearless, Artificial and Undead models ignore it through
-- their own morale hooks.
return {
	on_charge = function(ctx, self, charged)
		for _, m in ipairs(charged) do
			ctx:morale(m, "terror")
		end
	end,
}
