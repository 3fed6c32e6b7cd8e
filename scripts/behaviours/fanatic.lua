-- Fanatic (core §6.3): its target is always the Town Hall. In melee it attacks the Town Hall when
-- adjacent, and a hero only if the hero blocks its route or is Engaged: a Spell-caster that declared
-- (§3.7) casts at a hero of the other side that is Engaged (a Transfix there leaves the hero at +2 and
-- Lethal to its friends) before walking on. (Its other limits — no voluntary retreat, no morale for
-- Terror or Gruesome Kills — are its roster entry's, played by the kernel.)
local P = require("lib.priority")
local A = require("lib.act")

--- A spell at an Engaged hero within reach, as an order; nil when none.
local function at_engaged(ctx, self)
	if not self.declared or self.engaged then
		return nil
	end
	local side = self.side == "enemies" and "heroes" or "enemies"
	for _, m in ipairs(ctx:models({ side = side, engaged = true })) do
		local spell = A.spell(ctx, self, m)
		if spell then
			return spell
		end
	end
	return nil
end

--- Its target: the Town Hall while it stands.
local TARGETS = {
	{ town_hall = true, why = "a Fanatic's target is always the Town Hall" },
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
	-- Its `act` is the universal priority for a model that has not declared (`at_engaged` needs a
	-- declared Spell-caster): the kernel decides those natively (src/wave/universal.rs).
	universal = true,
	-- One action (§6.2's universal priority; see scripts/lib/act.lua), after a spell at an Engaged hero.
	act = function(ctx, self, target)
		local spell = at_engaged(ctx, self)
		if spell then
			return spell, "a hero is Engaged within reach of its spell: it casts at it first"
		end
		return A.default(ctx, self, target)
	end,
}
