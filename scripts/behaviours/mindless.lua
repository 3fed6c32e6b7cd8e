-- Mindless (core §6.3): target the nearest hero, Village Defender or undestroyed building, with the
-- universal tie-breakers. (It never disengages voluntarily or shoots: the turn engine's limits.)
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
		return A.default(ctx, self, target, { melee_only = true })
	end,
}
