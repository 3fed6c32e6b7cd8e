-- Hunter (core §6.3): target the nearest hero; on a tie, the hero with most Wounds, then the universal
-- tie-breakers. Fallback: if no hero remains, the nearest Village Defender, then the Town Hall.
local P = require("lib.priority")
local A = require("lib.act")

return {
	target = function(ctx, self)
		local hero = P.nearest_of(ctx, self, { models = P.foes_query(self, "hero") }, function(tied)
			return P.smallest(tied, function(h)
				return -h.wounds
			end)
		end, "the nearest hero (on a tie, the most Wounds)")
		if hero then
			return hero
		end
		local defender = P.nearest_of(
			ctx,
			self,
			{ models = P.foes_query(self, "defender") },
			nil,
			"no hero left: the nearest Village Defender"
		)
		if defender then
			return defender
		end
		local th = P.town_hall(ctx)
		if th and not th.destroyed then
			return th, "no hero or Village Defender left: the Town Hall"
		end
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
