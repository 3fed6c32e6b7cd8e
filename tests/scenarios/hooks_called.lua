--! mod: tests/fixtures/hooks_called_mod
-- The turn engine calls `on_wave_start` for every model once both sides are deployed, and
-- `on_activation` for every model of each activation once its roll is final (the variant hook_marks
-- spends a use each time, which the log shows as `spent`).
local g = village.new_game({
	seed = 3,
	length = "intro",
	heroes = { "Captain Maren", "Bram the Smith" },
	variants = { "hook_marks" },
})
g:start_wave()
local function marks(prefix)
	local out = {}
	for _, e in ipairs(g:log()) do
		if e.event == "spent" and e.key:find(prefix, 1, true) then
			out[#out + 1] = e.key
		end
	end
	return out
end
local starts = marks("wave:wave start ")
assert(#starts == #g:models(), "on_wave_start for every model: " .. #starts .. " of " .. #g:models())
assert(#marks("wave:activation ") == 0, "nothing has activated yet")

-- The models activated so far, from the log: each activation event, with the Group or Leader's group
-- announced just before it.
local function activated()
	local n, members = 0, nil
	for _, e in ipairs(g:log()) do
		if e.event == "group_activation" then
			members = #e.members
		elseif e.event == "activation" then
			n = n + (members or 1)
			members = nil
		end
	end
	return n
end

g:hero_turn()
assert(activated() > 0, "the heroes activated")
assert(#marks("wave:activation ") == activated(), "on_activation for each model of each activation")
local heroes = activated()
g:enemy_turn()
assert(activated() > heroes, "the enemies activated")
assert(#marks("wave:activation ") == activated(), "and for every model of each Group activation")
