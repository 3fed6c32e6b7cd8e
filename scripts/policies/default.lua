-- The default hero policy: every model of the heroes' side strikes what it is in contact with, casts
-- (scripts/lib/spellcasting.lua), shoots the most threatening enemy it may shoot, or closes in on the
-- enemy it was given (the party spreads over the threats, nearest the Town Hall first); a Leader takes
-- its friends along as a group, and a model that failed one die goes again when it has something to do.
-- See scripts/lib/tactics.lua. First, a hero drinks a Potion when hurt and claims Opportunities when
-- safe (scripts/lib/opportunity.lua). Its Council Phase is scripts/lib/council.lua.
local T = require("lib.tactics")
local A = require("lib.act")
local O = require("lib.opportunity")
local C = require("lib.council")
local VA = require("lib.village_abilities")

return {
	-- The village buildings' abilities (core §5.3, §7.3): scripts/lib/village_abilities.lua.
	deploy = VA.deploy,
	blessing = VA.blessing,
	activate = function(ctx, self)
		return T.activation(ctx, self)
	end,
	act = function(ctx, self)
		local opp, why = O.claim_or_approach(ctx, self) -- Potions, and Opportunities when safe
		-- A held model breaks free before it walks anywhere (scripts/lib/tactics.lua).
		if opp and not (opp.move and A.held(self)) then
			return opp, why
		end
		return T.act(ctx, self)
	end,
	council = C.council,
}
