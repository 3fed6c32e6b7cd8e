-- Raise Dead (SUPPLEMENT §8; scripts/alpha/raise_dead.lua): a two-action Ritual of the Lich: a Skeleton
-- Warrior rises within Short and joins its side and Group; it vanishes when the Lich is Defeated. Not
-- while Engaged. Its Behaviour works the Ritual when it can.
local inspect = require("lib.inspect")
local SCRIPT = "alpha/raise_dead.lua"

local g = village.new_game({ seed = 1, table = "empty" })
local lich = g:place("Lich", { x = 6, y = 32 }, { group = 3 })
local a = g:order(lich, { ability = "Raise Dead" })
assert(a.did == "ability" and a.done == 1 and a.needed == 2 and not a.complete)
a = g:order(lich, { ability = "Raise Dead" })
assert(a.complete, "the Ritual is complete")
local s = inspect.last_event(g, "summoned")
assert(s and s.caster == lich.id and s.spell:find(SCRIPT, 1, true), "the log names Raise Dead")
local skel = g:model(s.model)
assert(skel.name == "Skeleton Warrior" and skel.side == "enemies" and skel.group == 3)
assert(g:distance(lich, skel) <= g:rules().measures.short + 1e-6, g:distance(lich, skel))

-- Not while Engaged.
local maren = g:place("Captain Maren", { x = lich.pos.x, y = lich.pos.y - lich.base / 2 - 0.5 })
local ok, err = pcall(g.order, g, lich, { ability = "Raise Dead" })
assert(not ok and tostring(err):find("Engaged"), tostring(err))

-- The Lich Defeated: its Skeleton vanishes.
g:force_dice({ 6, 1 })
g:add_condition(lich, "defenseless")
g:melee(maren, lich)
assert(lich.defeated and g:model(skel.id) == nil, "the Summoning ends with its caster")

-- Its Behaviour works the Ritual when it is free to.
local g2 = village.new_game({ seed = 2, table = "empty" })
local l2 = g2:place("Lich", { x = 6, y = 32 }, { behaviour = "Guardian", group = 1 })
local act = g2:act(l2)
assert(act.did == "ability" and act.name == "Raise Dead", act.did)

-- A Group grown past five by its Summonings stays one Group, but no more than five models activate
-- together on one roll (§3.1; "Enemy Groups always activate this way", §6.2): six are refused, five
-- roll (the enemy turn activates such a Group five at a time).
local g3 = village.new_game({ seed = 3, table = "empty" })
local horde = {}
for i = 1, 6 do
	horde[i] = g3:place("Skeleton Warrior", { x = 2 + 2 * i, y = 33 }, { group = 1 })
end
local ok, err = pcall(g3.activate_group, g3, nil, horde, 2)
assert(not ok and tostring(err):find("1 to 5 models", 1, true), tostring(err))
g3:force_dice({ 5, 5 })
assert(g3:activate_group(nil, { horde[1], horde[2], horde[3], horde[4], horde[5] }, 2).successes == 2)
