--! mod: tests/fixtures/policy_probe_mod
-- What the hero policy's `deploy(ctx, step)` and `blessing(ctx, group)` receive, and how the kernel
-- treats bad answers (core §5.3, §7.3): each is refused with a reason in the log and the wave goes on.
-- The probe policy (tests/fixtures/policy_probe_mod) answers what this scenario puts in PROBE_DEPLOY and
-- PROBE_BLESSING; every building starts at Level III.
local I = require("lib.inspect")

local function events_of(g, kind, from)
	local out = {}
	for i, e in ipairs(g:log()) do
		if i > (from or 0) and e.event == kind then
			out[#out + 1] = e
		end
	end
	return out
end

local function new()
	return village.new_game({
		seed = 9,
		table = "generated",
		length = "standard",
		heroes = { "Captain Maren", "Tobin the Marksman" },
	})
end

-- 1. The steps asked: step 1 for the Warhorse (edges already known with Watchtower III), step 4 for
--    Ready Mounts; and a Village Defender is no Warhorse, a move beyond Short is refused (contact: tests/village_abilities.rs).
local g = new()
PROBE_STEPS = {}
PROBE_DEPLOY = function(ctx, step)
	if step.step == "abilities" then
		for _, m in ipairs(ctx:models({ side = "heroes" })) do
			if m.kind == "defender" then
				return { warhorse = m }
			end
		end
	end
	local maren
	for _, m in ipairs(ctx:models({ side = "heroes" })) do
		if m.name == "Captain Maren" then
			maren = m
		end
	end
	return { ready_mounts = { hero = maren, to = { x = maren.pos.x + 5, y = maren.pos.y } } }
end
g:start_wave()
assert(#PROBE_STEPS == 2, "asked twice, got " .. #PROBE_STEPS)
local s1, s4 = PROBE_STEPS[1], PROBE_STEPS[2]
assert(s1.step == "abilities" and s1.asks[1] == "warhorse" and #s1.asks == 1)
assert(s1.edges and #s1.edges >= 1, "Watchtower III revealed the edges before step 1")
assert(s4.step == "ready_mounts" and s4.asks[1] == "ready_mounts")
local refused = events_of(g, "refused")
assert(#refused == 2, "two refusals, got " .. #refused)
assert(refused[1].choice:find("warhorse") and refused[1].reason:find("is not a hero"), refused[1].reason)
assert(refused[1].source:find("policies/default.lua", 1, true), refused[1].source)
assert(refused[2].choice:find("ready_mounts") and refused[2].reason:find("up to 3"), refused[2].reason)
assert(#events_of(g, "building_ability") >= 2, "the Militias still came")
for _, e in ipairs(events_of(g, "building_ability")) do
	assert(e.ability ~= "Warhorse" and e.ability ~= "Ready Mounts", "no refused ability was used")
end
assert(g.round == 1, "the wave goes on")

-- 2. An answer for another step is refused; an unknown key is an error naming the policy file.
g = new()
PROBE_DEPLOY = function(ctx, step)
	if step.step == "ready_mounts" then
		return { warhorse = ctx:models({ side = "heroes" })[1] }
	end
end
g:start_wave()
r = events_of(g, "refused")
assert(#r == 1 and r[1].reason:find("step 1"), r[1] and r[1].reason)
g = new()
PROBE_DEPLOY = function()
	return { warhorses = 1 }
end
local ok, err = pcall(function()
	g:start_wave()
end)
assert(not ok and tostring(err):find("policies/default.lua", 1, true), tostring(err))
assert(g.wave == 0 and #g:models({ side = "enemies" }) == 0, "a failed start leaves the game as it was")

-- 3. Blessing: asked before a Group's activation while unspent; the named building is protected from
--    that activation's damage only, and the Blessing is spent for the wave.
g = new()
PROBE_DEPLOY = nil
PROBE_GROUPS = {}
PROBE_BLESSING = "Town Hall"
g:start_wave()
local before = #g:log()
g:force_dice({ 6, 6, 6, 6, 6, 6 })
g:enemy_turn()
assert(#PROBE_GROUPS == 1, "asked once: the Blessing is spent after it is given")
assert(PROBE_GROUPS[1][1].side == "enemies", "the policy sees the Group's models")
local blessings = events_of(g, "building_ability", before)
assert(#blessings >= 1 and blessings[1].ability == "Blessing", "the Blessing is logged")
assert(blessings[1].building == "Temple" and blessings[1].detail:find("Town Hall"), blessings[1].detail)
g:enemy_turn()
assert(#PROBE_GROUPS == 1, "once per wave")
-- A destroyed building cannot be Blessed: refused, and the Blessing stays unspent.
g = new()
PROBE_BLESSING = "Forge"
g:damage("Forge", 99)
PROBE_GROUPS = {}
g:start_wave()
g:force_dice({ 6, 6 })
g:enemy_turn()
local rb = events_of(g, "refused")
assert(#rb >= 1 and rb[1].reason:find("Destroyed"), rb[1] and rb[1].reason)
assert(I.last_event(g, "refused").choice == "blessing = Forge")
