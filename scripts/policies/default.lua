-- The default hero policy: every model of the heroes' side strikes what it is in contact with, shoots
-- the most threatening enemy it may shoot, or closes in on the enemy it was given (the party spreads over
-- the threats, nearest the Town Hall first). See scripts/lib/tactics.lua. First, a hero drinks a Potion
-- when hurt and claims Opportunities when safe (scripts/lib/opportunity.lua). Its Council Phase is
-- scripts/lib/council.lua.
local T = require("lib.tactics")
local O = require("lib.opportunity")
local C = require("lib.council")
local VA = require("lib.village_abilities")

return {
	-- The village buildings' abilities (core §5.3, §7.3): scripts/lib/village_abilities.lua.
	deploy = VA.deploy,
	blessing = VA.blessing,
	activate = function(ctx, self)
		return T.dice(ctx, self)
	end,
	act = function(ctx, self)
		local opp = O.claim_or_approach(ctx, self) -- Potions, and Opportunities when safe
		if opp then
			return opp
		end
		return T.act(ctx, self)
	end,
	council = C.council,
}
