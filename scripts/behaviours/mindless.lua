-- Mindless (core §6.3): target the nearest hero, Village Defender or undestroyed building, with the
-- universal tie-breakers. It never disengages voluntarily nor makes a ranged or spell attack: its
-- roster entry's limits (`voluntary_disengage`, `ranged_attacks`), which the kernel enforces.
local P = require("lib.priority")
local A = require("lib.act")

--- Its target: the nearest of all these.
local TARGETS = {
	{
		models = "any",
		buildings = "standing",
		why = "the nearest hero, Village Defender or undestroyed building",
	},
}

return {
	-- Its target (§6.3), declared: the kernel follows the steps itself, and `target` follows them in Lua
	-- (P.declared, scripts/lib/priority.lua) when the decision is explained, saying why.
	targets = TARGETS,
	target = function(ctx, self)
		-- Not a tail call: the decision names this line, where the choice is made.
		local target, why = P.declared(ctx, self, TARGETS)
		return target, why
	end,
	-- Its `act` is the universal priority alone: the kernel decides it natively and calls `act` only
	-- where a script must choose (a declared spell, a special action; src/wave/universal.rs).
	universal = true,
	-- One action (§6.2's universal priority; see scripts/lib/act.lua).
	act = function(ctx, self, target)
		return A.default(ctx, self, target)
	end,
}
