-- The default hero policy: every hero and Village Defender rolls two dice and goes for the enemy that is
-- closest to the Town Hall (the one threatening it most), fighting whatever is in contact first.
-- (First version: it intercepts and fights; shooting, spells, Opportunities and the Council come next.)
local P = require("lib.priority")
local A = require("lib.act")

local function town_hall(ctx)
	for _, b in ipairs(ctx:buildings()) do
		if b.town_hall then
			return b
		end
	end
end

return {
	activate = function(ctx, self)
		return 2
	end,
	act = function(ctx, self)
		local foe = A.nearest_adjacent(ctx, self, town_hall(ctx))
		if foe then
			return { melee = foe }
		end
		local foes = P.foes(ctx, self)
		if #foes == 0 then
			return nil
		end
		local th = town_hall(ctx)
		local threat = th and P.smallest(foes, function(f)
			return ctx:distance_to(f, th)
		end)[1] or foes[1]
		return { move = threat }
	end,
}
