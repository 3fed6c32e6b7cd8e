-- Raider (core §6.3): target the nearest intact economic building (Forge or Stable); on a tie, the first
-- of them in rosters/village.toml (the Forge). Once it has Destroyed its building (`self.wrecked`, kept
-- by the kernel) it leaves by the nearest edge. Fallback: with both Destroyed, leave by the nearest edge.
local A = require("lib.act")
local P = require("lib.priority")

local LOOT = { buildings = { standing = true, economic = true } }

return {
	target = function(ctx, self)
		if self.wrecked then
			return { edge = true }, "it has Destroyed its building: it leaves by the nearest edge"
		end
		-- Buildings come in roster order, so the first of the nearest is the Forge on a tie.
		local tied = ctx:nearest(self, LOOT)
		local nearest = tied[1]
		if nearest == nil then
			return { edge = true }, "the Forge and the Stable are Destroyed: it leaves by the nearest edge"
		end
		if ctx.explaining then
			P.explain_nearest(ctx, self, LOOT, nearest, tied, "the nearest intact Forge or Stable")
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
