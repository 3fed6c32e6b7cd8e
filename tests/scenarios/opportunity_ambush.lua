-- Ambush (SUPPLEMENT §7, roll 1; scripts/opportunities/ambush.lua): two Goblin Looters with Behaviour
-- Hunter deploy wholly within Short of the token, outside contact, as a new numbered Enemy Group.
local inspect = require("lib.inspect")
local SCRIPT = "opportunities/ambush.lua"

local g = village.new_game({ seed = 3, table = "empty" })
local bram = g:place("Bram the Smith", { x = 10, y = 10 })
local orc = g:place("Orc Warrior", { x = 30, y = 4 }, { group = 4, behaviour = "Hunter" })
local at = { x = 10.5, y = 10 }
local tok = g:opportunity(at)

g:force_dice({ 1 })
local a = g:order(bram, { claim = tok })
assert(a.did == "claimed" and a.roll == 1 and a.opportunity == "Ambush")
local e = inspect.last_event(g, "ambush")
assert(e and e.source:find(SCRIPT, 1, true), e and e.source)
assert(e.token == tok and e.wanted == 2 and #e.models == 2, #e.models)
assert(e.number == 5, "a new Group after every Group on the table: " .. e.number)
local short = g:rules().measures.short
for _, id in ipairs(e.models) do
	local m = g:model(id)
	assert(m.name == "Goblin Looter" and m.behaviour == "Hunter" and m.group == 5)
	assert(m.side == "enemies")
	-- Wholly within Short of the token: centre distance plus radius.
	local d = math.sqrt((m.pos.x - at.x) ^ 2 + (m.pos.y - at.y) ^ 2)
	assert(d + m.base / 2 <= short + 1e-9, d)
	-- Outside contact with Bram (and every other model).
	assert(g:distance(m, bram) > g:rules().bases.contact_tolerance, g:distance(m, bram))
	assert(not m.engaged)
end
assert(orc.group == 4)
-- They join the wave: the next enemy turn activates them as their own Group (Hunters go for Bram).
local looters = 0
for _, m in ipairs(g:models({ side = "enemies" })) do
	if m.group == 5 then
		looters = looters + 1
	end
end
assert(looters == 2)
local target = g:target(g:model(e.models[1]))
assert(target and target.id == bram.id, "a Hunter aims at the nearest hero")
