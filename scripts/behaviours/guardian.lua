-- Guardian (core §6.3): the Group guards the building nearest to it, or an Opportunity if one is nearer;
-- if its objective is Destroyed or removed, the nearest remaining building; if none remains, it hunts.
-- (The assignment is made from where the model stands when asked; the turn engine asks at deployment.)
local P = require("lib.priority")
local hunter = require("behaviours.hunter")

return {
	target = function(ctx, self, group)
		local standing = P.standing(ctx)
		local opportunities = ctx:tokens("opportunity")
		if #standing == 0 and #opportunities == 0 then
			return hunter.target(ctx, self, group)
		end
		local candidates = {}
		for _, b in ipairs(standing) do
			candidates[#candidates + 1] = b
		end
		for _, o in ipairs(opportunities) do
			candidates[#candidates + 1] = { x = o.x, y = o.y }
		end
		return P.nearest(ctx, self, candidates)
	end,
}
