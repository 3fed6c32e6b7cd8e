--! mod: tests/fixtures/done_for_wave_mod
-- ctx:done_for_wave: a hook the kernel calls for every script of a model (here on_opponent_activation)
-- that says it has nothing more to do this wave is not called again until the next wave begins; in any
-- other hook it is refused. The Listener trait (the mod's) rolls a die for "listener hears" at each
-- call and is done after the second of a wave.
local inspect = require("lib.inspect")

local g = village.new_game({
	seed = 21,
	table = "generated",
	length = "standard",
	heroes = { "Captain Maren", "Tobin the Marksman", "Sister Ilse" },
})

-- The wave's enemies leave the table (the wave builder may deploy Listening Orcs too): only the one
-- placed here listens.
local listener
local function clear_enemies()
	for _, e in ipairs(g:models({ side = "enemies" })) do
		if not (listener and e.id == listener.id) then
			g:remove(e)
		end
	end
end

local function heard()
	return #inspect.events(g, "roll", function(e)
		return e.purpose == "listener hears"
	end)
end

g:start_wave()
clear_enemies()
listener = g:place("Listening Orc", { x = 2, y = 2 }, { behaviour = "Guardian", group = 1 })
-- Three hero turns: at least three activations of the heroes, each heard before its roll, but the
-- Listener is done for the wave after the second.
for _ = 1, 3 do
	g:hero_turn()
end
assert(heard() == 2, "heard " .. heard() .. " times in wave 1")

-- The next wave: the same Listener hears again, twice.
assert(g:model(listener.id), "the Listener is still on the table")
clear_enemies()
g:start_wave()
clear_enemies()
for _ = 1, 3 do
	g:hero_turn()
end
assert(heard() == 4, "heard " .. heard() .. " times by the end of wave 2")

-- In melee (a hook called for one roll, not for every script of a model) it is refused, by name.
local hero = g:models({ side = "heroes" })[1]
-- Bases of the same size, centres a base apart: in contact.
local ear = g:place("Listening Orc", { x = hero.pos.x + hero.base, y = hero.pos.y })
g:force_dice({ 3, 3 })
local r = g:melee(ear, hero)
local reason = r.modifiers[1] and r.modifiers[1].reason or "no modifier"
assert(reason:find("ctx:done_for_wave works only in the hooks the kernel calls", 1, true), reason)
