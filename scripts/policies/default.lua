-- The default hero policy: every model of the heroes' side strikes what it is in contact with, shoots
-- the most threatening enemy it may shoot, or closes in on the enemy it was given (the party spreads over
-- the threats, nearest the Town Hall first). See scripts/lib/tactics.lua.
local T = require("lib.tactics")
local VA = require("lib.village_abilities")

return {
	-- The village buildings' abilities (core §5.3, §7.3): scripts/lib/village_abilities.lua.
	deploy = VA.deploy,
	blessing = VA.blessing,
	activate = function(ctx, self)
		return T.dice(ctx, self)
	end,
	act = function(ctx, self)
		return T.act(ctx, self)
	end,
}
