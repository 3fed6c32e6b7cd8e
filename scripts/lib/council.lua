-- The default hero policy's Council Phase (core §7.2–7.3): `council(ctx, info)` returns the orders the
-- kernel tries in turn. Every rule number comes from `info` (costs, distances, ability params); the
-- distances and offsets below are this policy's own choices of where to stand things.
--
-- In order of importance:
--   1. bring back a Defeated hero (Temple III Resurrection), heal the most wounded hero (Temple I) and
--      spend Herb tokens on the rest;
--   2. keep the Town Hall at its starting Integrity: the free Engineering Corps repair first, then the
--      Forge's Repairs;
--   3. upgrade buildings in a fixed order (Forge first for cheaper repairs, then the Town Hall, Temple,
--      Watchtower), buying whatever is affordable;
--   4. repair the other buildings, Forge first;
--   5. Barricades by the Town Hall on the side(s) the last wave came from (the free Engineering Corps one
--      when it was not spent on a repair, reinforced by Forge III), every free Trap a hero granted this
--      Council (Grimm's Snare Master, `info.grants`) on those approaches, and when the next upgrade is
--      out of reach anyway, one paid Barricade and one Trap there.
local P = require("lib.priority")
local C = {}

-- The order upgrades are bought in: { building, the Level it goes to }.
C.UPGRADES = {
	{ "Forge", 2 },
	{ "Town Hall", 2 },
	{ "Temple", 2 },
	{ "Watchtower", 2 },
	{ "Temple", 3 },
	{ "Town Hall", 3 },
	{ "Forge", 3 },
	{ "Stable", 2 },
	{ "Watchtower", 3 },
	{ "Stable", 3 },
}

-- Unit vectors pointing at each table edge: 1 north, 2 east, 3 south, 4 west.
local TOWARD = { { 0, 1 }, { 1, 0 }, { 0, -1 }, { -1, 0 } }

local function by_name(list)
	local t = {}
	for _, x in ipairs(list) do
		t[x.name] = x
	end
	return t
end

-- The Council abilities in force whose limited use is not spent, by name.
local function ready(info)
	local t = {}
	for _, a in ipairs(info.abilities) do
		if not a.used then
			t[a.name] = a
		end
	end
	return t
end

local town_hall = P.town_hall

-- Supplies that Repairs need to bring a building to its starting Integrity, and what each Supply restores.
local function repair_cost(b, abilities)
	local missing = b.max_integrity - b.integrity
	if missing <= 0 or b.destroyed or not abilities["Repairs"] then
		return 0
	end
	local per = abilities["Repairs"].params.integrity or 1
	if abilities["Master Craftsmen"] then
		per = abilities["Master Craftsmen"].params.integrity_per_supply or per
	end
	return math.ceil(missing / per)
end

-- Is a token of `kind` already within `r` of point (x, y)?
local function token_near(ctx, kind, x, y, r)
	for _, t in ipairs(ctx:tokens(kind)) do
		if (t.x - x) ^ 2 + (t.y - y) ^ 2 < r * r then
			return true
		end
	end
	return false
end

-- Spots facing edge `e` of building `b`, `out` inches from its wall, at `offsets` along the wall:
-- each { x, y, along_x, along_y } (the point and the wall's direction).
local function facing(b, e, out, offsets)
	local d = TOWARD[e]
	local half = (d[1] ~= 0) and b.size.w / 2 or b.size.h / 2
	local cx, cy = b.pos.x + d[1] * (half + out), b.pos.y + d[2] * (half + out)
	local ax, ay = -d[2], d[1]
	local spots = {}
	for _, o in ipairs(offsets) do
		spots[#spots + 1] = { cx + ax * o, cy + ay * o, ax, ay }
	end
	return spots
end

-- The sides to defend: the edges the last wave came from, else all four.
local function sides(info)
	if #info.edges > 0 then
		return info.edges
	end
	return { 1, 2, 3, 4 }
end

-- Up to `n` Barricade orders by the Town Hall on the threatened sides, skipping spots already barred.
local function barricades(ctx, info, th, n)
	local orders = {}
	local half = info.barricade_length / 2
	local out = info.barricade_within / 2
	local gap = info.barricade_length + 0.5
	for _, e in ipairs(sides(info)) do
		for _, s in ipairs(facing(th, e, out, { 0, -gap, gap })) do
			if #orders >= n then
				return orders
			end
			local x, y, ax, ay = s[1], s[2], s[3], s[4]
			if not token_near(ctx, "barricade", x, y, half) then
				orders[#orders + 1] = {
					barricade = { x = x - ax * half, y = y - ay * half },
					toward = { x = x + ax * half, y = y + ay * half },
				}
			end
		end
	end
	return orders
end

-- Is point (x, y) on a building (where no Trap can go)?
local function on_building(ctx, x, y)
	for _, b in ipairs(ctx:buildings()) do
		if math.abs(x - b.pos.x) <= b.size.w / 2 and math.abs(y - b.pos.y) <= b.size.h / 2 then
			return true
		end
	end
	return false
end

-- Up to `n` Trap orders on the approaches to the Town Hall, skipping spots already trapped and spots
-- on another building.
local function traps(ctx, info, th, n)
	local orders = {}
	for _, e in ipairs(sides(info)) do
		for _, s in ipairs(facing(th, e, info.trap_within - 1, { 0, -3, 3 })) do
			if #orders >= n then
				return orders
			end
			if not token_near(ctx, "trap", s[1], s[2], 2) and not on_building(ctx, s[1], s[2]) then
				orders[#orders + 1] = { trap = { x = s[1], y = s[2] } }
			end
		end
	end
	return orders
end

-- Free Traps the models granted this Council and not placed yet (Grimm's Snare Master).
local function free_traps(info)
	local n = 0
	for _, g in ipairs(info.grants or {}) do
		if g.order == "trap" then
			n = n + g.uses - g.used
		end
	end
	return n
end

function C.council(ctx, info)
	local orders = {}
	-- Why each purchase, said with ctx:why when the decision is explained (the REPL, a written log).
	local explaining = ctx.explaining
	local function add(o, why)
		orders[#orders + 1] = o
		if explaining and why then
			ctx:why(why)
		end
	end
	local supplies = info.supplies
	local abilities = ready(info)
	local buildings = by_name(info.buildings)
	local th = town_hall(ctx)

	-- 1. Heroes.
	if abilities["Resurrection"] and #info.defeated > 0 then
		add({ resurrect = info.defeated[1] }, "Resurrection: a hero of the party is Defeated")
	end
	local wounded = {}
	for _, m in ipairs(ctx:models({ side = "heroes" })) do
		if m.kind == "hero" and m.wounds > 0 then
			wounded[#wounded + 1] = m
		end
	end
	table.sort(wounded, function(a, b)
		if a.wounds ~= b.wounds then
			return a.wounds > b.wounds
		end
		return a.id < b.id
	end)
	local herbs = info.herbs
	for i, m in ipairs(wounded) do
		local wounds = m.wounds
		if i == 1 and abilities["Healing"] then
			add({ heal = m.name }, "Healing for the hero with the most Wounds")
			wounds = wounds - (abilities["Healing"].params.wounds or 1)
		end
		while wounds > 0 and herbs > 0 do
			add({ herb = m.name }, "a Herb for a wounded hero")
			herbs = herbs - 1
			wounds = wounds - 1
		end
	end

	-- 2. The Town Hall first.
	local free_used = false
	local thb = th and buildings[th.name]
	if thb and not thb.destroyed and thb.integrity < thb.max_integrity and abilities["Engineering Corps"] then
		add({ repair = thb.name, free = true }, "the Town Hall first: the Engineering Corps repairs it free")
		free_used = true
		thb = {
			integrity = thb.integrity + (abilities["Engineering Corps"].params.repair or 1),
			max_integrity = thb.max_integrity,
			name = thb.name,
		}
	end
	if thb then
		local need = math.min(repair_cost(thb, abilities), supplies)
		if need > 0 then
			add({ repair = thb.name, supplies = need }, "the Town Hall first: its loss ends the game")
			supplies = supplies - need
		end
	end

	-- 3. Upgrades, in order, while affordable.
	local next_cost
	local level = {}
	for name, b in pairs(buildings) do
		level[name] = b.level
	end
	for _, u in ipairs(C.UPGRADES) do
		local name, to = u[1], u[2]
		local b = buildings[name]
		if b and not b.destroyed and level[name] == to - 1 then
			-- The roster cost of the next Level (only the next Level's cost is in `info`).
			local cost = (level[name] == b.level) and b.upgrade_cost or nil
			if cost and cost <= supplies then
				add({ upgrade = name, level = to }, "upgrades in a fixed order while affordable")
				supplies = supplies - cost
				level[name] = to
			elseif cost and not next_cost then
				next_cost = cost
			end
		end
	end

	-- 4. The other buildings, the Forge first.
	local others = {}
	for _, b in ipairs(info.buildings) do
		if not (th and b.name == th.name) then
			others[#others + 1] = b
		end
	end
	table.sort(others, function(a, b)
		return (a.name == "Forge" and 0 or 1) < (b.name == "Forge" and 0 or 1)
	end)
	for _, b in ipairs(others) do
		local need = math.min(repair_cost(b, abilities), supplies)
		if need > 0 then
			add({ repair = b.name, supplies = need }, "the other buildings, the Forge first")
			supplies = supplies - need
		end
	end

	-- 5. Defences.
	if not th then
		return orders
	end
	local bars = barricades(ctx, info, th, 2)
	local reinforce = abilities["Reinforced Defenses"] and true or nil
	local function barricade(free)
		local o = table.remove(bars, 1)
		if o then
			o.free = free
			o.reinforce = reinforce
			reinforce = nil
			add(o, "a Barricade toward the last wave's edges")
		end
		return o
	end
	if abilities["Engineering Corps"] and not free_used then
		barricade(true)
	end
	local free = free_traps(info)
	local trap_spots = traps(ctx, info, th, free + 1)
	for i = 1, math.min(free, #trap_spots) do
		trap_spots[i].free = true
		add(trap_spots[i], "a free Trap (granted this Council) toward the last wave's edges")
	end
	local saving = next_cost and supplies + info.wave + 1 >= next_cost
	if not saving then
		if supplies >= info.barricade_cost and barricade(nil) then
			supplies = supplies - info.barricade_cost
		end
		local bought = trap_spots[free + 1]
		if bought and supplies >= info.trap_cost then
			add(bought, "a Trap toward the last wave's edges")
			supplies = supplies - info.trap_cost
		end
	end
	return orders
end

return C
