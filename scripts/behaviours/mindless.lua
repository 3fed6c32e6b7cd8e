-- Mindless (core §6.3): target the nearest hero, Village Defender or undestroyed building, with the
-- universal tie-breakers. It never disengages voluntarily nor makes a ranged or spell attack: its
-- roster entry's limits (`voluntary_disengage`, `ranged_attacks`), which the kernel enforces.
local P = require("lib.priority")
local A = require("lib.act")

return {
	target = function(ctx, self, group)
		local candidates = P.foes(ctx, self)
		for _, b in ipairs(P.standing(ctx)) do
			candidates[#candidates + 1] = b
		end
		if #candidates == 0 then
			return nil
		end
		return P.nearest(ctx, self, candidates)
	end,
	-- One action (§6.2's universal priority; see scripts/lib/act.lua).
	act = function(ctx, self, target)
		return A.default(ctx, self, target)
	end,
}
