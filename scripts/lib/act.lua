-- The universal priority of core §6.2, shared by the Behaviour scripts' `act`: what one action of a model
-- does about its target. Engaged: attack the target if it is adjacent, else the adjacent enemy nearest to
-- the target. Not engaged: attack the target when it is attackable, otherwise move toward it by the
-- shortest legal route (the kernel routes and moves one straight leg); a Shooter shoots its target when
-- the rules let it (range, sight, the closest-target rule), a Spell-caster that declared casts at it
-- (§3.7: an attack spell, or a Resisted one it is not yet under). One melee or ranged attack per turn
-- (core §3.2); building attacks are one per action (§6.4). An Igniter beside an unburnt building it
-- targets places fire instead of attacking, where the Escalation lets Igniters burn. A Transfixed or
-- Entangled model that must move breaks free first (§3.7).
local S = require("lib.spellcasting")

local A = {}

--- Whether a list holds a value.
local function holds(list, value)
	for _, v in ipairs(list or {}) do
		if v == value then
			return true
		end
	end
	return false
end

--- Whether the model is held where it stands (Transfixed or Entangled): it must break free to move. One
--- pass over its conditions (asked before most actions of every model).
function A.held(self)
	for _, c in ipairs(self.conditions) do
		if c == "transfixed" or c == "entangled" then
			return true
		end
	end
	return false
end

--- A move toward `where`, or breaking free first when the model is held (§3.7: "cannot move"). A Slow
--- model that has made its one move action this activation takes a one-base-width step instead (§3.3: a
--- step is not a move action).
function A.move(self, where)
	if A.held(self) then
		return { break_free = true }
	end
	if self.moved > 0 and self:has_trait("Slow") then
		return { step = where }
	end
	return { move = where }
end

--- The Behaviour a model falls back on (its roster entry's `fallback_behaviour`: Ravager and Guardian
--- hunt once nothing is left to attack or guard), as its script's module; nil when it has none.
function A.fallback(ctx, self)
	local mine = self.behaviour and ctx:behaviour(self.behaviour)
	local other = mine and mine.fallback_behaviour and ctx:behaviour(mine.fallback_behaviour)
	if other == nil or other.script == nil then
		return nil
	end
	return require((other.script:gsub("%.lua$", ""):gsub("/", ".")))
end

--- The Behaviours' `declare` (§3.7): a Spell-caster with power left declares before its Group rolls. An
--- Enemy Group rolls two dice, so three failures — out of power — cannot follow from declaring.
function A.declare(ctx, self)
	return #self.spells > 0 and not self.out_of_power
end

--- A spell the model may cast at `target` now, as an order: it declared, and the first of its spells that
--- fits — an attack spell while it may still attack this turn, a Resisted spell at a model not yet
--- Transfixed — at the highest Power its actions and the range allow. Nil when none.
function A.spell(ctx, self, target)
	if not self.declared or target == nil or target.id == nil then
		return nil
	end
	-- The Powers its actions and the rules let it pay, the highest first.
	local order = {}
	local most = math.min(self.actions_left, ctx:rule("actions", "spell_max_power"))
	for power = most, ctx:rule("actions", "spell_min_power"), -1 do
		order[#order + 1] = power
	end
	for _, name in ipairs(self.spells) do
		local s = ctx:spell(name)
		local fits = s
			and (
				(holds(s.kinds, "attack") and A.may_attack(ctx, self))
				or (holds(s.kinds, "resisted") and not target:has("transfixed"))
			)
		local cast = fits and S.first_castable(ctx, self, name, order, target)
		if cast then
			return cast
		end
	end
	return nil
end

--- Whether a model touches a model, a building or a point (within the contact tolerance).
function A.adjacent(ctx, self, thing)
	return ctx:distance_to(self, thing) <= ctx:rule("bases", "contact_tolerance")
end

--- The adjacent enemy nearest to `target`, or nil when not Engaged. `engaged`, when the caller has it,
--- is `ctx:engaged(self)` (asked again otherwise).
function A.nearest_adjacent(ctx, self, target, engaged)
	local best, best_d
	for _, e in ipairs(engaged or ctx:engaged(self)) do
		local d = target and ctx:distance_to(e, target) or 0
		if best == nil or d < best_d then
			best, best_d = e, d
		end
	end
	return best
end

--- Whether the model may still make a melee or ranged attack this turn (core §3.2: one per turn).
function A.may_attack(ctx, self)
	return self.attacks < ctx:rule("actions", "attacks_per_turn")
end

--- A special rule's action the model may take now (an Alpha Rule: Fire Breath, Raise Dead), as an
--- order; nil when none. Its script offers the targets and says when it may be used.
function A.special(ctx, self)
	local u = ctx:usable(self)[1]
	return u and { ability = u.name, target = u.target } or nil
end

--- The default action toward `target` (a model, a building, a point or { edge = true }), and the reason
--- for it (a second value: what `:why` and the log show; it costs nothing when no one asks). A
--- Behaviour whose roster entry says `ranged_attacks = false` (Mindless, §6.3) is never offered a shot
--- or a spell attack: `ctx:can_shoot` and `ctx:can_cast` answer no for it, as the kernel would refuse
--- them.
function A.default(ctx, self, target)
	if target == nil then
		return nil, "it has no target"
	end
	-- A model's view is known by its `id` (kept in the view): the fields only a building or the edge
	-- has are not asked of it (each read of a field a view lacks goes to the kernel, every time).
	local is_model = target.id ~= nil
	if not is_model and target.edge then
		if A.held(self) then
			return { break_free = true }, "held where it stands: it breaks free before it can leave"
		end
		return { leave = true }, "it leaves by the nearest edge"
	end
	local is_building = not is_model and target.integrity ~= nil
	-- Beside the building it targets, it attacks the building (§6.3: a Ravager "if adjacent to its
	-- building, attack it; a hero is attacked only if it blocks the route or is the only adjacent
	-- target"), before any special action at the models around it.
	if is_building and A.adjacent(ctx, self, target) then
		-- An Igniter sets an unburnt building alight rather than attacking it (core §6.4): the fire
		-- costs the village a point of Integrity at the end of the wave unless a hero puts it out,
		-- and needs no roll.
		if ctx.igniters_burn and not target.fire and ctx:permission(self, "ignite") then
			return { ignite = target }, "an Igniter beside its unburnt building sets it alight (§6.4)"
		end
		return { structural = target }, "beside the building it targets: it attacks it (§6.4)"
	end
	-- A special rule's action the model may take now comes next.
	local special = A.special(ctx, self)
	if special then
		return special, "its special rule offers an action now"
	end
	if is_model and A.adjacent(ctx, self, target) then
		if A.may_attack(ctx, self) then
			return { melee = target }, "in contact with its target: it attacks (§6.2)"
		end
		return nil, "in contact with its target after its one attack this turn"
	end
	local foe = A.nearest_adjacent(ctx, self, target)
	if foe then
		-- Engaged after its one attack this turn: nothing useful is left (leaving would cost Free Hacks).
		if A.may_attack(ctx, self) then
			return { melee = foe }, "Engaged: it attacks the adjacent enemy nearest its target (§6.2)"
		end
		return nil, "Engaged after its one attack this turn: leaving would cost Free Hacks"
	end
	-- "If the target becomes attackable ... attack it" (§6.2 step 3): a Shooter's target is attackable
	-- from where the rules let it shoot, a declared Spell-caster's from where its spell reaches.
	local spell = is_model and A.spell(ctx, self, target)
	if spell then
		return spell, "it declared and its target is within reach of a spell (§3.7)"
	end
	if is_model and A.may_attack(ctx, self) and ctx:can_shoot(self, target) then
		return { shoot = target }, "its target is in range and sight: it shoots (§6.2)"
	end
	if not is_model and not is_building and A.adjacent(ctx, self, target) then
		return nil, "already at the point it was heading for"
	end
	return A.move(self, target), "not yet able to attack its target: it closes in by the shortest route"
end

return A
