-- Entangle (SUPPLEMENT §9, core §3.7; Song of Blades: "Works the same as Transfix, but not a spell"):
-- a melee win of its own that does not kill Entangles the loser instead of the normal result. The
-- kernel records the winner as the ensnarer (the Entangle ends if it Recoils or is Defeated).
-- "May" is a choice: params.instead_of (rosters/traits.toml) lists the results it replaces.
return {
	on_result = function(ctx, self, win)
		if win.role ~= "winner" or win.kind ~= "melee" then
			return nil
		end
		for _, result in ipairs(ctx.params.instead_of) do
			if win.result == result then
				return { result = "entangled", reason = "Entangle" }
			end
		end
	end,
}
