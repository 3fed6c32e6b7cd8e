-- Hunter (core §6.3): target the nearest hero; on a tie, the hero with most Wounds, then the universal
-- tie-breakers. Fallback: if no hero remains, the nearest Village Defender, then the Town Hall.
local P = require("lib.priority")
local A = require("lib.act")

--- Its target: the first step that finds one.
local TARGETS = {
	{ models = "hero", prefer = "most_wounds", why = "the nearest hero (on a tie, the most Wounds)" },
	{ models = "defender", why = "no hero left: the nearest Village Defender" },
	{ town_hall = true, why = "no hero or Village Defender left: the Town Hall" },
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
	-- A Spell-caster declares before its Group rolls (§3.7; scripts/lib/act.lua).
	declare = A.declare,
	-- Its `act` is the universal priority alone: the kernel decides it natively and calls `act` only
	-- where a script must choose (a declared spell, a special action; src/wave/universal.rs).
	universal = true,
	-- One action (§6.2's universal priority; see scripts/lib/act.lua).
	act = function(ctx, self, target)
		return A.default(ctx, self, target)
	end,
}
