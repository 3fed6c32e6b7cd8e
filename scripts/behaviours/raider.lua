-- Raider (core §6.3): target the nearest intact economic building (Forge or Stable); on a tie, the first
-- of them in rosters/village.toml (the Forge). Once it has Destroyed its building (`self.wrecked`, kept
-- by the kernel) it leaves by the nearest edge. Fallback: with both Destroyed, leave by the nearest edge.
local A = require("lib.act")

return {
	target = function(ctx, self)
		if self.wrecked then
			return { edge = true }
		end
		-- Buildings come in roster order, so the first of the nearest is the Forge on a tie.
		local nearest = ctx:nearest(self, { buildings = { standing = true, economic = true } })[1]
		return nearest or { edge = true }
	end,
	-- A Spell-caster declares before its Group rolls (§3.7; scripts/lib/act.lua).
	declare = A.declare,
	-- One action (§6.2's universal priority; see scripts/lib/act.lua).
	act = function(ctx, self, target)
		return A.default(ctx, self, target)
	end,
}
