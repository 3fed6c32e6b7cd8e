--! mod: tests/fixtures/village_level3_mod
-- The village buildings' wave-start abilities with every building at Level III (core §5.3, §7.3), as the
-- default hero policy (scripts/lib/village_abilities.lua) plays them: Watchtower III reveals the spawn
-- edges before anyone deploys and lets the heroes deploy by any building, the Militias bring two Village
-- Archers by the Town Hall and two Village Riders by the Stable, the Warhorse gives a melee hero Long Move
-- for the wave, and Ready Mounts moves one hero up to Short without contact.
local g = village.new_game({
	seed = 5,
	table = "generated",
	length = "standard",
	heroes = { "Captain Maren", "Tobin the Marksman", "Bram the Smith" },
})
local short = g:rules().measures.short
local log_start = #g:log()
local plan = g:start_wave()

-- Events of this wave start, in order.
local events = {}
for i, e in ipairs(g:log()) do
	if i > log_start then
		events[#events + 1] = e
	end
end
local function index_of(pred)
	for i, e in ipairs(events) do
		if pred(e) then
			return i, e
		end
	end
end
local function ability(name)
	local found = {}
	for _, e in ipairs(events) do
		if e.event == "building_ability" and e.ability == name then
			found[#found + 1] = e
		end
	end
	return found
end

-- Watchtower III: the edges are revealed, by the Watchtower, before the first hero is deployed.
local reveal, rev = index_of(function(e)
	return e.event == "edges_revealed"
end)
assert(rev and rev.by == "Watchtower III Advanced Deployment", "edges revealed by the Watchtower")
assert(#rev.edges == #plan.groups)
local first_deployed = index_of(function(e)
	return e.event == "deployed"
end)
assert(reveal < first_deployed, "revealed before hero deployment")

-- Whole base within 6" of a building's outline.
local function within(m, b, d)
	local dx = math.max(math.abs(m.pos.x - b.pos.x) - b.size.w / 2, 0)
	local dy = math.max(math.abs(m.pos.y - b.pos.y) - b.size.h / 2, 0)
	return math.sqrt(dx * dx + dy * dy) <= d - m.base / 2 + 1e-6
end

-- The Militias: two Village Archers by the Town Hall, two Village Riders by the Stable.
local archers, riders = {}, {}
for _, m in ipairs(g:models({ side = "heroes" })) do
	if m.name == "Village Archer" then
		archers[#archers + 1] = m
	elseif m.name == "Village Rider" then
		riders[#riders + 1] = m
	end
end
assert(#archers == 2 and #riders == 2, "two of each: " .. #archers .. " archers, " .. #riders .. " riders")
for _, a in ipairs(archers) do
	assert(within(a, g:building("Town Hall"), 6), "an archer by the Town Hall")
end
for _, r in ipairs(riders) do
	assert(within(r, g:building("Stable"), 6), "a rider by the Stable")
end
assert(#ability("Village Militia") == 1 and #ability("Rider Militia") == 1)

-- Every model of the heroes' side stands within 6" of some standing building (Watchtower III).
for _, m in ipairs(g:models({ side = "heroes" })) do
	local ok = false
	for _, b in ipairs(g:buildings()) do
		ok = ok or within(m, b, 6)
	end
	assert(ok, m.name .. " deployed by a building")
end

-- The Warhorse: a melee hero (Maren or Bram, not the archer Tobin) has Long Move for this wave.
local wh = ability("Warhorse")
assert(#wh == 1, "the Warhorse was chosen")
local horse = g:model(wh[1].models[1])
assert(horse.name == "Captain Maren" or horse.name == "Bram the Smith", horse.name)
assert(horse:has_trait("Long Move"), "the Warhorse hero has Long Move")

-- Ready Mounts: one hero moved up to Short, not into contact, after the enemies deployed.
local rm_at, rm = index_of(function(e)
	return e.event == "building_ability" and e.ability == "Ready Mounts"
end)
local last_group = index_of(function(e)
	return e.event == "group_deployed" and e.number == #plan.groups
end)
assert(rm and rm_at > last_group, "Ready Mounts after both sides deployed")
local moved = index_of(function(e)
	return e.event == "moved" and e.model == rm.models[1]
end)
local mv = events[moved]
local dx, dy = mv.to.x - mv.from.x, mv.to.y - mv.from.y
assert(math.sqrt(dx * dx + dy * dy) <= short + 1e-6, "up to Short")
assert(not g:model(rm.models[1]).engaged, "not in contact with an enemy")

-- The granted Long Move acts through the trait's script, and the move names what granted it.
local I = require("lib.inspect")
g:move(horse, { x = horse.pos.x, y = horse.pos.y + 0.5 })
local moved_ev = I.last_event(g, "moved")
local named = false
for _, t in ipairs(moved_ev.traits or {}) do
	named = named or (t:find("long_move.lua", 1, true) and t:find("Stable II Warhorse", 1, true)) ~= nil
end
assert(named, "the move's traits name the Warhorse")

-- Next wave: both Archers and both Riders are still in play, so no replacements; the Warhorse is chosen
-- anew (the old grant ended with the wave).
g:start_wave()
local last = {}
for _, e in ipairs(g:log()) do
	if e.event == "building_ability" then
		last[e.ability] = e
	end
end
assert(last["Village Militia"].detail:find("no replacements"), last["Village Militia"].detail)
local count = 0
for _, m in ipairs(g:models({ side = "heroes" })) do
	if m.name == "Village Archer" then
		count = count + 1
	end
end
assert(count == 2, "still two archers")
