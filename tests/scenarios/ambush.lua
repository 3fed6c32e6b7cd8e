-- The Ambush bonus (core §3.4): "an attacker that began the turn fully hidden from its target — behind
-- blocking terrain or otherwise out of its line of sight — has the Ambush bonus on its attack". The turn
-- engine notes, as each side's turn begins, which enemies cannot see each of its models; a melee order
-- against one of them gets +1 (rules.melee.ambush) with no option passed.
local I = require("lib.inspect")
local g = village.new_game({ seed = 3, table = "empty" })
g:add_terrain("rocks", { { 4.5, 4.5 }, { 5.5, 4.5 }, { 5.5, 5.5 }, { 4.5, 5.5 } })
local maren = g:place("Captain Maren", { x = 3.5, y = 5 })
local orc = g:place("Orc Warrior", { x = 6.5, y = 5 })
-- In the open, for comparison: Bram sees this orc coming.
local bram = g:place("Bram the Smith", { x = 30, y = 30 })
local seen = g:place("Orc Warrior", { x = 30, y = 33 })

-- The Ambush modifier of the last combat logged, if any.
local function ambush_of()
	for _, m in ipairs(I.last_event(g, "combat").modifiers) do
		if m.reason == "Ambush" then
			return m
		end
	end
end

g:begin_turn("enemies")
-- The orc walks around the rocks into contact and strikes: it began the turn hidden. One move action is
-- one straight leg (SUPPLEMENT §11): the first ends past the rocks' corner, the second in contact.
local moved = g:order(orc, { move = maren })
assert(moved.did == "moved" and g:distance(orc, maren) > 0.06, "one leg, to the corner")
moved = g:order(orc, { move = maren })
assert(moved.did == "moved" and g:distance(orc, maren) < 0.06, "in contact: " .. g:distance(orc, maren))
g:force_dice({ 3, 3 }) -- 3 + 3 + 1 (Ambush) against Maren's 3 + 4: a tie, both stand
assert(g:order(orc, { melee = maren }).result == "tie")
local m = ambush_of()
assert(m and m.value == g:rules().melee.ambush and m.to == "attacker", "Ambush +1 on the hidden orc")
-- The orc Bram could see has no such bonus.
g:order(seen, { move = bram })
assert(g:order(seen, { melee = bram }).did == "melee")
assert(ambush_of() == nil, "no Ambush from in plain sight")

-- Next turn the orc stands in contact, in Maren's sight: no Ambush.
g:begin_turn("heroes")
g:begin_turn("enemies")
g:order(orc, { melee = maren })
assert(ambush_of() == nil, "no Ambush once it began the turn in sight")
