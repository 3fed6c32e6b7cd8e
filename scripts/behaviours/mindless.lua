-- Mindless (core §6.3): target the nearest hero, Village Defender or undestroyed building, with the
-- universal tie-breakers. It never disengages voluntarily nor makes a ranged or spell attack: its
-- roster entry's limits (`voluntary_disengage`, `ranged_attacks`), which the kernel enforces.
local P = require("lib.priority")
local A = require("lib.act")

return {
	target = function(ctx, self)
		return P.nearest_of(
			ctx,
			self,
			{ models = P.foes_query(self), buildings = { standing = true } },
			nil,
			"the nearest hero, Village Defender or undestroyed building"
		)
	end,
	-- Its `act` is the universal priority alone: the kernel decides it natively and calls `act` only
	-- where a script must choose (a declared spell, a special action; src/wave/universal.rs).
	universal = true,
	-- One action (§6.2's universal priority; see scripts/lib/act.lua).
	act = function(ctx, self, target)
		return A.default(ctx, self, target)
	end,
}
