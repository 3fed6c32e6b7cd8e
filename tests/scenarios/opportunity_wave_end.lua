-- Supply Cache (roll 2) and Lost Villagers (roll 5) resolve at wave end (SUPPLEMENT §7; core §7.1 step 4,
-- Rewards): claiming only remembers them; the End Sequence runs their scripts' `wave_end` right after the
-- Supplies for the wave number, and the log names each script as the source.
local inspect = require("lib.inspect")

local function events(g, kind)
	local found = {}
	for _, e in ipairs(g:log()) do
		if e.event == kind then
			table.insert(found, e)
		end
	end
	return found
end

local g = village.new_game({ seed = 5, table = "empty" })
local bram = g:place("Bram the Smith", { x = 10, y = 10 })
local maren = g:place("Captain Maren", { x = 30, y = 4 })
local t1 = g:opportunity({ x = 10.5, y = 10 })
local t2 = g:opportunity({ x = 30.5, y = 4 })

g:force_dice({ 2 })
local a = g:order(bram, { claim = t1 })
assert(a.opportunity == "Supply Cache")
assert(inspect.last_event(g, "claimed").timing == "wave_end")
g:force_dice({ 5 })
a = g:order(maren, { claim = t2 })
assert(a.opportunity == "Lost Villagers")
-- Nothing yet: the rewards wait for the End Sequence.
assert(g.supplies == 0 and #events(g, "supplies_gained") == 0)
assert(#events(g, "defender_joining") == 0)

-- Maren falls before the wave ends: her result is still the village's.
g:remove(maren)

local before = #g:log()
g:end_wave() -- wave 0 outside a game: Supplies for the wave number add nothing
local resolved = events(g, "reward_resolved")
assert(#resolved == 2, #resolved)
assert(resolved[1].result == "Supply Cache" and resolved[1].hero == bram.id)
assert(resolved[2].result == "Lost Villagers" and resolved[2].hero == nil, "Maren is gone")
local gained = events(g, "supplies_gained")
assert(#gained == 2)
assert(gained[1].amount == 2 and gained[1].source:find("opportunities/supply_cache.lua", 1, true))
assert(gained[2].amount == 1 and gained[2].source:find("opportunities/lost_villagers.lua", 1, true))
assert(g.supplies == 3, g.supplies)
local joining = inspect.last_event(g, "defender_joining")
assert(
	joining.profile == "Village Archer" and joining.source:find("opportunities/lost_villagers.lua", 1, true)
)
assert(#g.joining == 1 and g.joining[1] == "Village Archer", #g.joining)
assert(resolved[1].seq >= before, "resolved by the End Sequence, not on claiming")

-- Resolved once: a second End Sequence has nothing left to resolve.
g:end_wave()
assert(#events(g, "reward_resolved") == 2 and g.supplies == 3)

-- In a wave: step 4 comes after step 3, so the village has the wave number's Supplies and the cache's.
local w = village.new_game({ seed = 8, table = "empty", heroes = { "Bram the Smith", "Captain Maren" } })
w:start_wave()
assert(w.wave == 1)
local hero = w:models({ side = "heroes" })[1]
local tok = w:opportunity({ x = hero.pos.x, y = hero.pos.y - hero.base / 2 })
w:force_dice({ 2 })
w:order(hero, { claim = tok })
local supplies = w.supplies
w:end_wave()
assert(w.supplies == supplies + 1 + 2, w.supplies)
