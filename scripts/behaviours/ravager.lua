-- Ravager (core §6.3): target the nearest undestroyed building; on a tie, the lowest Integrity, then the
-- universal tie-breakers (§6.2). Fallback: if every building is Destroyed, its roster entry's
-- `fallback_behaviour` (Hunter) picks the target.
local P = require("lib.priority")
local A = require("lib.act")

return {
	target = function(ctx, self)
		local nearest = P.nearest_of(ctx, self, { buildings = { standing = true } }, function(tied)
			return P.smallest(tied, function(b)
				return b.integrity
			end)
		end, "the nearest undestroyed building (on a tie, the lowest Integrity)")
		if nearest == nil then
			local fallback = A.fallback(ctx, self)
			if fallback == nil then
				return nil
			end
			return fallback.target(ctx, self),
				"every building is Destroyed: it hunts as its fallback Behaviour"
		end
		return nearest
	end,
	-- A Spell-caster declares before its Group rolls (§3.7; scripts/lib/act.lua).
	declare = A.declare,
	-- Its `act` is the universal priority alone: the kernel decides it natively and calls `act` only
	-- where a script must choose (a declared spell, a special action; src/wave/universal.rs).
	universal = true,
	-- One action (§6.2's universal priority; see scripts/lib/act.lua).
	act = function(ctx, self, target)
		return A.default(ctx, self, target)
	end,
}
