-- The default hero policy's choices for the village buildings' abilities (core §5.3, §7.3): the
-- policy's `deploy(ctx, step)` (Stable II Warhorse at step 1, Stable I Ready Mounts at step 4) and
-- `blessing(ctx, group)` (Temple II). The kernel checks every choice and refuses a bad one; these only
-- decide. Rule numbers come from ctx:rule; the margins below are this policy's own caution.
local T = require("lib.tactics")
local M = {}

-- How far short of an enemy's base a Ready Mounts move stops, so it never ends in contact.
local CONTACT_MARGIN = 0.5

local function contains(list, x)
	for _, v in ipairs(list or {}) do
		if v == x then
			return true
		end
	end
	return false
end

local function heroes(ctx)
	local out = {}
	for _, m in ipairs(ctx:models({ side = "heroes" })) do
		if m.kind == "hero" then
			out[#out + 1] = m
		end
	end
	return out
end

-- A hero that fights in melee: no ranged weapon and no spells.
local function melee_hero(m)
	return m.weapon == nil and #m.spells == 0
end

-- Distance from a point to spawn edge `e` (1 north, 2 east, 3 south, 4 west).
local function edge_distance(ctx, p, e)
	local w, h = ctx:rule("table", "width"), ctx:rule("table", "height")
	if e == 1 then
		return h - p.y
	elseif e == 2 then
		return w - p.x
	elseif e == 3 then
		return p.y
	end
	return p.x
end

-- How far a hero is from the threats it knows of: the nearest enemy on the table, else the nearest
-- revealed spawn edge (Watchtower III), else nothing (nil).
local function threat_distance(ctx, hero, edges)
	local best
	for _, e in ipairs(ctx:models({ side = "enemies" })) do
		local d = ctx:distance(hero, e)
		if best == nil or d < best then
			best = d
		end
	end
	if best == nil then
		for _, e in ipairs(edges or {}) do
			local d = edge_distance(ctx, hero.pos, e)
			if best == nil or d < best then
				best = d
			end
		end
	end
	return best
end

-- Stable II: a melee hero without Long Move already, the one farthest from the threats (ties and no
-- known threat: the first in id order).
function M.warhorse(ctx, step)
	local pick, far
	for _, h in ipairs(heroes(ctx)) do
		if melee_hero(h) and not h:has_trait("Long Move") then
			local d = threat_distance(ctx, h, step.edges) or 0
			if pick == nil or d > far then
				pick, far = h, d
			end
		end
	end
	return pick
end

-- The enemy nearest to the Town Hall: the threat the village must meet first (the policy's own order).
local function nearest_threat(ctx)
	return T.threats(ctx)[1]
end

-- Whether a base of diameter `base` centred at `p` keeps clear of every enemy by the margin.
local function clear_of_enemies(ctx, p, base)
	for _, e in ipairs(ctx:models({ side = "enemies" })) do
		local dx, dy = p.x - e.pos.x, p.y - e.pos.y
		if math.sqrt(dx * dx + dy * dy) - (base + e.base) / 2 < CONTACT_MARGIN then
			return false
		end
	end
	return true
end

-- Stable I: the hero nearest the threat nearest the Town Hall moves toward it, up to Short, stopping
-- short of contact with any enemy.
function M.ready_mounts(ctx)
	local threat = nearest_threat(ctx)
	if threat == nil then
		return nil
	end
	local short = ctx:rule("measures", "short")
	local pick, gap
	for _, h in ipairs(heroes(ctx)) do
		if not h.engaged then
			local d = ctx:distance(h, threat)
			if pick == nil or d < gap then
				pick, gap = h, d
			end
		end
	end
	if pick == nil then
		return nil
	end
	local step = math.min(short, gap - CONTACT_MARGIN)
	if step <= 0 then
		return nil
	end
	local dx, dy = threat.pos.x - pick.pos.x, threat.pos.y - pick.pos.y
	local len = math.sqrt(dx * dx + dy * dy)
	if len <= 0 then
		return nil
	end
	local to = { x = pick.pos.x + dx / len * step, y = pick.pos.y + dy / len * step }
	if not clear_of_enemies(ctx, to, pick.base) then
		return nil
	end
	return { hero = pick, to = to }
end

-- The policy's `deploy(ctx, step)`: answer what this step asks.
function M.deploy(ctx, step)
	local out = {}
	if contains(step.asks, "warhorse") then
		out.warhorse = M.warhorse(ctx, step)
	end
	if contains(step.asks, "ready_mounts") then
		out.ready_mounts = M.ready_mounts(ctx)
	end
	return out
end

-- The buildings a Behaviour aims at (core §6.3), nearest first from `m`: Fanatics the Town Hall,
-- Raiders the intact economic buildings, Ravagers and Mindless any standing building; Hunters and
-- Guardians aim at models and hit only a building they already stand against.
local function aimed_buildings(ctx, m)
	local out = {}
	for _, b in ipairs(ctx:buildings()) do
		if not b.destroyed then
			local wanted = (m.behaviour == "Fanatic" and b.town_hall)
				or (m.behaviour == "Raider" and b.economic)
				or m.behaviour == "Ravager"
				or m.behaviour == "Mindless"
			if wanted then
				out[#out + 1] = b
			end
		end
	end
	table.sort(out, function(a, b)
		local da, db = ctx:distance_to(m, a), ctx:distance_to(m, b)
		if da ~= db then
			return da < db
		end
		return a.name < b.name
	end)
	return out
end

-- Temple II: the building the activating Group is most likely to hit this activation — one a member
-- stands against (the most members, then the lowest Integrity), else the building its Behaviour aims at
-- if a member can reach it with one move. Otherwise keep the Blessing for a Group that threatens.
function M.blessing(ctx, group)
	local tol = ctx:rule("bases", "contact_tolerance")
	local reach = ctx:rule("measures", "medium")
	local score, best = {}, nil
	for _, m in ipairs(group) do
		for _, b in ipairs(ctx:buildings()) do
			if not b.destroyed and ctx:distance_to(m, b) <= tol then
				score[b.name] = (score[b.name] or 0) + 1
				local s = score[b.name]
				if
					best == nil
					or s > score[best.name]
					or (s == score[best.name] and b.integrity < best.integrity)
				then
					best = b
				end
			end
		end
	end
	if best then
		return best
	end
	local pick, near
	for _, m in ipairs(group) do
		local b = aimed_buildings(ctx, m)[1]
		if b then
			local d = ctx:distance_to(m, b)
			if d <= reach and (pick == nil or d < near) then
				pick, near = b, d
			end
		end
	end
	return pick
end

return M
