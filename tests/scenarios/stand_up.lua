-- SUPPLEMENT §3: "A Defenseless model that is Engaged may still fight; one that is not Engaged spends its
-- first action standing up." The turn engine does it before asking the Behaviour or the policy.
local g = village.new_game({ seed = 2, table = "empty" })
local orc = g:place("Orc Warrior", { x = 30, y = 30 }, { group = 1, behaviour = "Hunter" })
g:place("Bram the Smith", { x = 22.5, y = 18 })
g:add_condition(orc, "defenseless")
local a = g:act(orc)
assert(a.did == "stood_up", a.did)
assert(not orc:has("defenseless"), "it stood up")
local b = g:act(orc)
assert(b.did == "moved", "then it acts as its Behaviour says: " .. b.did)

-- Engaged, it fights on Defenseless.
local g2 = village.new_game({ seed = 2, table = "empty" })
local o2 = g2:place("Orc Warrior", { x = 23.5, y = 18 }, { group = 1, behaviour = "Hunter" })
g2:place("Bram the Smith", { x = 22.5, y = 18 })
g2:add_condition(o2, "defenseless")
g2:force_dice({ 3, 3 })
local c = g2:act(o2)
assert(c.did == "melee", c.did)

-- A hero too: its first action of the turn stands it up, the policy orders the second.
local g3 = village.new_game({ seed = 2, table = "empty" })
local maren = g3:place("Captain Maren", { x = 22.5, y = 18 })
g3:place("Orc Warrior", { x = 30, y = 30 }, { group = 1, behaviour = "Hunter" })
g3:add_condition(maren, "defenseless")
g3:force_dice({ 6, 6, 6 })
local turns = g3:hero_turn()
assert(turns[1].actions >= 2)
assert(not maren:has("defenseless"), "Maren stood up")
local moved = false
for _, e in ipairs(g3:log()) do
	if e.event == "moved" and e.model == maren.id then
		moved = true
	end
end
assert(moved, "and then moved toward the Orc")
