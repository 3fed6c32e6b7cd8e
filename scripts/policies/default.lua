-- The default hero policy: every model of the heroes' side strikes what it is in contact with, shoots
-- the most threatening enemy it may shoot, or closes in on the enemy it was given (the party spreads over
-- the threats, nearest the Town Hall first). See scripts/lib/tactics.lua. Its Council Phase is
-- scripts/lib/council.lua.
local T = require("lib.tactics")
local C = require("lib.council")

return {
	activate = function(ctx, self)
		return T.dice(ctx, self)
	end,
	act = function(ctx, self)
		return T.act(ctx, self)
	end,
	council = C.council,
}
