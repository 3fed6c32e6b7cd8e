-- Fanatic (core §6.3): its target is always the Town Hall. (Its limits — no voluntary retreat, no morale
-- for Terror or Gruesome Kills — are rules of the turn engine and of morale.)
local P = require("lib.priority")
local A = require("lib.act")

return {
	target = function(ctx, self, group)
		local th = P.town_hall(ctx)
		if th and not th.destroyed then
			return th
		end
	end,
	-- A Spell-caster declares before its Group rolls (§3.7; scripts/lib/act.lua).
	declare = A.declare,
	-- One action (§6.2's universal priority; see scripts/lib/act.lua).
	act = function(ctx, self, target)
		return A.default(ctx, self, target)
	end,
}
