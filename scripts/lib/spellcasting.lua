-- The default hero policy's spellcasting (core §3.7): when a Spell-caster declares before rolling, and
-- which spell it casts with the successes it got — healing a hurt friend (Heal), Transfixing the enemy
-- that threatens most (Transfix), a ranged attack (Fireball), or a Wall across the path of the enemy
-- nearest the Town Hall (Thorn Wall). Spells are chosen by their roster kinds, never by name; every cast
-- is checked first with `ctx:can_cast`, so a plan the rules would refuse is not tried.
local P = require("lib.priority")

local S = {}

--- Whether a list holds a value.
local function holds(list, value)
	for _, v in ipairs(list or {}) do
		if v == value then
			return true
		end
	end
	return false
end

--- The cast of `name` at `target` at the first of the Powers `order` lists that the kernel allows now
--- (`ctx:can_cast`), as an order; nil when it allows none.
function S.first_castable(ctx, self, name, order, target)
	for _, power in ipairs(order) do
		if ctx:can_cast(self, name, power, target) then
			return { cast = name, power = power, target = target }
		end
	end
	return nil
end

--- The model's spells of one kind ("attack", "resisted", "healing", "wall"), in profile order. `known`
--- caches each spell's roster entry for the call (a cast is weighed against every kind).
local function spells_of(ctx, self, kind, known)
	local out = {}
	for _, name in ipairs(self.spells) do
		local s = known and known[name]
		if s == nil then
			s = ctx:spell(name) or false
			if known then
				known[name] = s
			end
		end
		if s and holds(s.kinds, kind) then
			out[#out + 1] = name
		end
	end
	return out
end

--- The range of each Power (§3.7: Short, Medium, Long), as the rules say.
local function ranges(ctx)
	local out = {}
	for i, measure in ipairs(ctx:rule("magic", "power_ranges")) do
		out[i] = ctx:rule("measures", measure)
	end
	return out
end

--- The Powers the caster can pay for now, from `first` up or down.
local function powers(ctx, self, descending)
	local lo = ctx:rule("actions", "spell_min_power")
	local hi = math.min(self.actions_left, ctx:rule("actions", "spell_max_power"))
	local out = {}
	if descending then
		for p = hi, lo, -1 do
			out[#out + 1] = p
		end
	else
		for p = lo, hi do
			out[#out + 1] = p
		end
	end
	return out
end

--- Whether a Spell-caster declares spellcasting before rolling (§3.7): it knows a spell and has power.
--- Declaring costs nothing unless three dice all fail (out of power for the wave); what it casts, if
--- anything, is decided with the successes it gets.
function S.declares(self)
	return #self.spells > 0 and not self.out_of_power
end

--- A friend worth healing: Wounds first (they persist between waves), then a condition.
local function hurt(f)
	return f.wounds > 0 or #f.conditions > 0
end

--- Heal (a healing spell): the most hurt friend of its side (itself included) it can reach, at the lowest
--- Power that reaches — a Wound before a condition.
local function heal(ctx, self, known)
	local names = spells_of(ctx, self, "healing", known)
	if #names == 0 then
		return nil
	end
	local hurt_ones = {}
	for _, f in ipairs(ctx:models({ side = self.side })) do
		if hurt(f) then
			hurt_ones[#hurt_ones + 1] = f
		end
	end
	table.sort(hurt_ones, function(a, b)
		local wa, wb = a.wounds * 10 + #a.conditions, b.wounds * 10 + #b.conditions
		if wa ~= wb then
			return wa > wb
		end
		return a.id < b.id
	end)
	for _, f in ipairs(hurt_ones) do
		for _, power in ipairs(powers(ctx, self, false)) do
			for _, name in ipairs(names) do
				if ctx:can_cast(self, name, power, f) then
					return { cast = name, power = power, target = f, what = f.wounds > 0 and "wound" or nil }
				end
			end
		end
	end
	return nil
end

--- Transfix (a Resisted spell) is worth a caster's actions against an enemy in contact with a friend (the
--- friend then fights it at +2 and Lethally) or a Big one: those first, then the rest in threat order.
local function transfix_targets(ctx, threats)
	local first, rest = {}, {}
	for _, foe in ipairs(threats) do
		if foe.engaged or foe:has_trait("Big") or foe:has_trait("Huge") then
			first[#first + 1] = foe
		else
			rest[#rest + 1] = foe
		end
	end
	for _, foe in ipairs(rest) do
		first[#first + 1] = foe
	end
	return first
end

--- A spell cast at an enemy (an attack spell while it may still attack this turn, or a Resisted one at a
--- model not yet Transfixed), the most threatening enemy first (for a Resisted spell, those
--- `transfix_targets` puts first), at the highest Power it can pay that reaches (Power is an attack's
--- Combat, a Resisted spell's number of dice). An enemy farther than the highest Power reaches is not
--- asked about: the kernel refuses every Power there (§3.7: the range comes before sight), and the
--- distance is the one it measures (edge to edge).
local function at_enemy(ctx, self, threats, kind, known)
	local names = spells_of(ctx, self, kind, known)
	local order = powers(ctx, self, true)
	if #names == 0 or #order == 0 or #threats == 0 then
		return nil
	end
	local reach = ranges(ctx)[order[1]]
	local within = {}
	for i, d in ipairs(ctx:distances_from(self, threats)) do
		if d <= reach + 1e-9 then
			within[#within + 1] = threats[i]
		end
	end
	if kind == "resisted" then
		within = transfix_targets(ctx, within)
	end
	for _, name in ipairs(names) do
		for _, foe in ipairs(within) do
			local cast = (kind ~= "resisted" or not foe:has("transfixed"))
				and S.first_castable(ctx, self, name, order, foe)
			if cast then
				return cast
			end
		end
	end
	return nil
end

--- The Wall's ends slid along its own line until both lie on the table (an enemy near an edge still
--- gets its Wall, a little off-centre); nil when no slide does (a Wall longer than the table is wide
--- there, as in a corner).
local function on_table(ctx, from, to)
	local w, h = ctx:rule("table", "width"), ctx:rule("table", "height")
	local ux, uy = to.x - from.x, to.y - from.y
	-- The shift t moves both ends by t * (ux, uy); each coordinate of each end bounds t.
	local lo, hi = -math.huge, math.huge
	for _, c in ipairs({ { from.x, ux, w }, { to.x, ux, w }, { from.y, uy, h }, { to.y, uy, h } }) do
		local p, u, limit = c[1], c[2], c[3]
		if math.abs(u) < 1e-9 then
			if p < 0 or p > limit then
				return nil
			end
		else
			local a, b = (0 - p) / u, (limit - p) / u
			lo, hi = math.max(lo, math.min(a, b)), math.min(hi, math.max(a, b))
		end
	end
	if lo > hi then
		return nil
	end
	-- The smallest shift that puts both ends on the table (none when they already are).
	local t = math.min(math.max(0, lo), hi)
	return { x = from.x + ux * t, y = from.y + uy * t }, { x = to.x + ux * t, y = to.y + uy * t }
end

--- A Wall across the path of the enemy nearest the Town Hall, in front of it toward the Town Hall, both
--- ends within the Power's range of the caster (the lowest Power that reaches). Only for an enemy not
--- yet in contact with anything and still farther than Short from the Town Hall.
local function wall(ctx, self, threats, known)
	local names = spells_of(ctx, self, "wall", known)
	local th = P.town_hall(ctx)
	if #names == 0 or th == nil then
		return nil
	end
	local foe = threats[1]
	if foe == nil or foe.engaged or ctx:distance_to(foe, th) <= ctx:rule("measures", "short") then
		return nil
	end
	local spell = known[names[1]]
	local half = (spell.wall and spell.wall.length or 3) / 2
	local dx, dy = th.pos.x - foe.pos.x, th.pos.y - foe.pos.y
	local len = math.sqrt(dx * dx + dy * dy)
	if len < 1e-6 then
		return nil
	end
	dx, dy = dx / len, dy / len
	-- Just in front of the enemy's base, across the line to the Town Hall.
	local ahead = foe.base / 2 + 0.6
	local mx, my = foe.pos.x + dx * ahead, foe.pos.y + dy * ahead
	local from = { x = mx + dy * half, y = my - dx * half }
	local to = { x = mx - dy * half, y = my + dx * half }
	from, to = on_table(ctx, from, to)
	if from == nil then
		return nil
	end
	local function gap(p)
		local d = math.sqrt((p.x - self.pos.x) ^ 2 + (p.y - self.pos.y) ^ 2) - self.base / 2
		return math.max(d, 0)
	end
	local reach = math.max(gap(from), gap(to))
	local range = ranges(ctx)
	for _, power in ipairs(powers(ctx, self, false)) do
		if range[power] and reach <= range[power] then
			return { cast = names[1], power = power, from = from, to = to }
		end
	end
	return nil
end

--- Whether one of the caster's Walls stands (a Wall lasts until the end of the wave).
local function has_wall(ctx, self)
	for _, t in ipairs(ctx:tokens("barricade")) do
		if t.caster == self.id then
			return true
		end
	end
	return false
end

--- The spell a caster that declared casts now, as an order; nil when none helps (it then acts as any
--- model would). One spell an activation: after it, nil. Healing comes first; then, while none of its
--- Walls stands, a Wall in front of the enemy nearest the Town Hall; then an attack, then a Transfix.
function S.cast(ctx, self, threats)
	if not self.declared or self.engaged or self.casts >= ctx:rule("magic", "spells_per_activation") then
		return nil
	end
	-- Each spell's roster entry, asked for once in this call.
	local known = {}
	return heal(ctx, self, known)
		or (not has_wall(ctx, self) and wall(ctx, self, threats, known))
		or at_enemy(ctx, self, threats, "attack", known)
		or at_enemy(ctx, self, threats, "resisted", known)
end

return S
