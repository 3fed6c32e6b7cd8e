-- Guardian (core §6.3): the Group guards the building nearest to it, or an Opportunity if one is nearer;
-- if its objective is Destroyed or removed, the nearest remaining building; if none remains, it hunts.
-- (The assignment is made from where the model stands when asked; the turn engine asks at deployment.)
local P = require("lib.priority")
local A = require("lib.act")
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
	-- A Spell-caster declares before its Group rolls (§3.7; scripts/lib/act.lua).
	declare = A.declare,
	-- One action: Engaged, fight; farther than Short from its objective, go back toward it; within Short,
	-- go for a hero or Village Defender that comes within Short, but pursue no farther.
	act = function(ctx, self, target)
		if target == nil then
			return nil
		end
		local foe = A.nearest_adjacent(ctx, self, target)
		if foe then
			return A.may_attack(ctx, self) and { melee = foe } or nil
		end
		local special = A.special(ctx, self)
		if special then
			return special
		end
		if target.id then
			return A.default(ctx, self, target) -- hunting: nothing left to guard
		end
		local short = ctx:rule("measures", "short")
		if ctx:distance_to(self, target) > short then
			return A.move(self, target)
		end
		for _, m in ipairs(P.foes(ctx, self)) do
			if ctx:distance_to(self, m) <= short then
				-- A hero or Village Defender that came within Short: a declared Spell-caster casts at it
				-- from where it stands; otherwise the Guardian goes for it, but no farther.
				return A.spell(ctx, self, m) or A.move(self, m)
			end
		end
		return nil
	end,
}
