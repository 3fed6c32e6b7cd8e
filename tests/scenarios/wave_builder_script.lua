--! mod: tests/fixtures/bad_builder_mod
-- A Lua wave builder replaces the default one (SUPPLEMENT §10): the example variant
-- scripts/variants/single_horde.lua builds one horde from one edge, its dice are in the log, and the
-- kernel deploys its Groups as usual. A builder that breaks the rules is refused with its file named.
local g = village.new_game({
	seed = 4,
	table = "generated",
	length = "standard",
	heroes = { "Captain Maren", "Tobin the Marksman", "Bram the Smith" },
	variants = { "single_horde" },
})
local plan = g:start_wave()
assert(#plan.groups >= 1)
local profile, edge = plan.groups[1].models[1], plan.groups[1].edge
local n = 0
for _, gp in ipairs(plan.groups) do
	assert(gp.edge == edge and gp.behaviour == plan.groups[1].behaviour, "one horde, one edge, one Behaviour")
	assert(#gp.models <= 5)
	for _, m in ipairs(gp.models) do
		assert(m == profile, "one profile")
	end
	n = n + #gp.models
end
assert(plan.spent <= plan.budget)
assert(#g:models({ side = "enemies" }) == n, "every Group deployed")
local built, rolled
for _, e in ipairs(g:log()) do
	if e.event == "wave_built" then
		built = e
	elseif e.event == "roll" and e.purpose == "single horde profile" then
		rolled = true
	end
end
assert(built.builder:find("variants/single_horde.lua", 1, true), built.builder)
assert(rolled, "the builder's dice are logged")

-- Bad builders: the error names the script and the rule; the game is unchanged.
local function fails(variant, needle)
	local bad = village.new_game({
		seed = 4,
		table = "generated",
		heroes = { "Captain Maren", "Tobin the Marksman" },
		variants = { variant },
	})
	local ok, err = pcall(function()
		bad:start_wave()
	end)
	err = tostring(err)
	assert(not ok, variant .. " should fail")
	assert(err:find("variants/" .. variant .. ".lua", 1, true), err)
	assert(err:find(needle, 1, true), err)
	assert(bad.wave == 0 and #bad:models({ side = "enemies" }) == 0, "nothing deployed")
end
fails("bad_builder", "does not list the Fanatic Behaviour")
fails("over_budget", "Wave Points")
fails("bad_shape", "edge")
-- Two builders at once is an error too.
local both = village.new_game({ seed = 4, variants = { "single_horde", "bad_builder" } })
local ok, err = pcall(function()
	both:start_wave()
end)
assert(not ok and tostring(err):find("enable only one", 1, true), tostring(err))
