-- Guardian (core §6.3): on deployment the Group is assigned the building nearest to it, or an
-- Opportunity if one is nearer (`objective`, which the kernel asks at deployment and keeps for the
-- Group); if its objective is Destroyed or removed, the kernel asks again and it takes the nearest
-- remaining building; if none remains, its roster entry's `fallback_behaviour` (Hunter) picks the target.
-- It moves until within its `guard_radius` (3") of its objective, then fights the heroes and Village
-- Defenders that come within that distance, and pursues no farther.
local P = require("lib.priority")
local A = require("lib.act")

return {
	-- `ask.group`: the Group's models; `ask.lost`: the objective it had (nil at deployment).
	objective = function(ctx, self, ask)
		local candidates = P.standing(ctx)
		if ask.lost == nil then
			for _, o in ipairs(ctx:tokens("opportunity")) do
				candidates[#candidates + 1] = o
			end
		end
		if #candidates == 0 then
			return nil
		end
		-- Nearest to the Group: to whichever of its models is closest.
		local tied = P.smallest(candidates, function(c)
			local best = math.huge
			for _, m in ipairs(ask.group) do
				best = math.min(best, ctx:distance_to(m, c))
			end
			return best
		end)
		local chosen = P.break_tie(ctx, tied)
		if chosen and ctx.explaining then
			local reason = ask.lost and "its objective fell: the nearest building left to its Group"
				or "the building or Opportunity nearest its Group"
			ctx:why(reason, candidates)
		end
		return chosen
	end,
	target = function(ctx, self)
		local o = ctx:objective(self)
		if o == nil then
			local fallback = A.fallback(ctx, self)
			return fallback and fallback.target(ctx, self)
		end
		-- An Opportunity is guarded where it lies.
		return o.kind and { x = o.x, y = o.y } or o, "its Group's objective"
	end,
	-- A Spell-caster declares before its Group rolls (§3.7; scripts/lib/act.lua).
	declare = A.declare,
	-- One action: Engaged, fight; farther than its guard radius from its objective, go back toward it;
	-- within it, go for a hero or Village Defender that comes within it, but pursue no farther.
	act = function(ctx, self, target)
		if target == nil then
			return nil
		end
		local foe = A.nearest_adjacent(ctx, self, target)
		if foe then
			if A.may_attack(ctx, self) then
				return { melee = foe }, "Engaged: it fights"
			end
			return nil, "Engaged after its one attack this turn"
		end
		if target.id then
			return A.default(ctx, self, target) -- hunting: nothing left to guard
		end
		-- A Behaviour entry without a guard radius guards within Short, as §6.3 reads.
		local radius = ctx:behaviour(self.behaviour).guard_radius or ctx:rule("measures", "short")
		local near = ctx:distance_to(self, target) <= radius
		local intruder
		if near then
			local foes = P.foes(ctx, self)
			for i, d in ipairs(ctx:distances_from(self, foes)) do
				if d <= radius then
					intruder = foes[i]
					break
				end
			end
		end
		-- A hero or Village Defender that came within its radius: a declared Spell-caster casts at it
		-- from where it stands, before any special action of its own.
		local spell = intruder and A.spell(ctx, self, intruder)
		if spell then
			return spell, "a hero or Village Defender came within its guard radius: it casts at it"
		end
		local special = A.special(ctx, self)
		if special then
			return special, "its special rule offers an action now"
		end
		if not near then
			return A.move(self, target), "farther than its guard radius from its objective: it goes back"
		end
		if intruder then
			-- It goes for the intruder, but no farther.
			return A.move(self, intruder), "a hero or Village Defender came within its guard radius"
		end
		return nil, "guarding: no hero or Village Defender within its guard radius"
	end,
}
