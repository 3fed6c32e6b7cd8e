-- Hold the Line (SUPPLEMENT §8; scripts/signatures/hold_the_line.lua): once per wave, when an Enemy Group
-- activates within reach of the heroes near her, heroes and Defenders within Medium of Captain Maren get
-- +1 Combat against that Group for its activation; the bonus ends with the activation.
local inspect = require("lib.inspect")
local SCRIPT = "signatures/hold_the_line.lua"

local g = village.new_game({ seed = 3, table = "empty" })
local maren = g:place("Captain Maren", { x = 10, y = 30 })
local bram = g:place("Bram the Smith", { x = 14, y = 30 })
local far = g:place("Tobin the Marksman", { x = 30, y = 5 })
local orc = g:place("Orc Warrior", { x = 15, y = 30 }, { behaviour = "Hunter", group = 1 })
-- The enemy turn: the orc's Group activates; Maren hears it and grants the bonus.
g:force_dice({ 6, 6, 3, 3 })
local turn = g:enemy_turn()
local granted = inspect.last_event(g, "effect_granted")
assert(granted, "Hold the Line was used")
assert(granted.source:find(SCRIPT, 1, true) and granted.reason == "Hold the Line", granted.source)
local covered = {}
for _, id in ipairs(granted.models) do
	covered[id] = true
end
assert(covered[maren.id] and covered[bram.id] and not covered[far.id], "only those within Medium of her")
assert(granted.against[1] == orc.id and granted.value == 1)
-- The orc's attack on Bram during that activation carried Bram's +1.
local fought
for _, e in ipairs(g:log()) do
	if e.event == "combat" and e.kind == "melee" and e.attacker == orc.id then
		fought = e
	end
end
assert(fought, "the orc attacked")
local plus = 0
for _, m in ipairs(fought.modifiers) do
	if m.source:find(SCRIPT, 1, true) then
		assert(m.to == "defender" and m.value == 1)
		plus = plus + 1
	end
end
assert(plus == 1, "Bram's defence had Hold the Line")
-- After the activation the bonus is gone.
g:force_dice({ 3, 3 })
local r = g:melee(bram, orc)
assert(#inspect.modifiers_from(r, SCRIPT) == 0, "the bonus ended with the activation")
-- Once per wave: the next enemy activation gets nothing.
local before = #g:log()
g:force_dice({ 6, 6, 3, 3 })
g:enemy_turn()
for i = before + 1, #g:log() do
	assert(g:log()[i].event ~= "effect_granted", "used once per wave")
end
