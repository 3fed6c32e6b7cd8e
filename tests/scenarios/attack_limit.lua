-- One melee or ranged attack per turn (core §3.2), counted by the turn engine: a model with several
-- actions in contact attacks once; building attacks are one per action (§6.4) and not limited.
-- The empty table's Town Hall is at (18, 18), 6" x 4"; its east side is open ground up to the Temple.
local HUNTER = { group = 1, behaviour = "Hunter" }

local g = village.new_game({ seed = 9, table = "empty" })
local bram = g:place("Bram the Smith", { x = 22.5, y = 18 })
local orc = g:place("Orc Warrior", { x = 23.5, y = 18 }, HUNTER)
assert(g:distance(bram, orc) < 0.01, "in contact")

-- The Orc's Group rolls two successes: one melee (a tie, 2 + 3 against 1 + 4: both stay), then nothing
-- useful (it stays Engaged).
g:force_dice({ 6, 6, 2, 1 })
local turns = g:enemy_turn()
assert(turns[1].actions == 2, "two actions")
local did = {}
for _, a in ipairs(turns[1].done) do
	did[#did + 1] = a.did
end
assert(did[1] == "melee" and did[2] == "lost", table.concat(did, ","))

-- g:act runs one action through the turn engine, which counts the attack.
local g2 = village.new_game({ seed = 9, table = "empty" })
g2:place("Bram the Smith", { x = 22.5, y = 18 })
local o2 = g2:place("Orc Warrior", { x = 23.5, y = 18 }, HUNTER)
g2:force_dice({ 2, 1 })
local first = g2:act(o2)
assert(first.did == "melee", first.did)
assert(o2.attacks == 1, "the attack was counted")
-- Acting again in the same activation, its Behaviour knows the attack is spent: the action is lost.
local again = g2:act(o2)
assert(again.did == "lost", again.did)
-- Nominated again in the same turn (§3.1), it still has its attack spent: one attack per turn.
g2:force_dice({ 6, 6 })
g2:activate(o2, 2)
assert(o2.attacks == 1, "the same turn, the same attack")
-- The side's next turn starts the count afresh: the Group's activation attacks again.
g2:force_dice({ 6, 6, 2, 1 })
local next_turn = g2:enemy_turn()
assert(next_turn[1].done[1].did == "melee", next_turn[1].done[1].did)
assert(o2.attacks == 1, "a new turn, a new attack")

-- Demolishing is not limited: an enemy beside a building attacks it with every action.
local g3 = village.new_game({ seed = 9, table = "empty" })
local d = g3:place("Orc Demolisher", { x = 21.75, y = 18 }, { group = 1, behaviour = "Ravager" })
g3:ignite(d, "Town Hall") -- already burning: no fire to place, only attacks
g3:force_dice({ 6, 6, 1, 1, 1, 1 })
local t3 = g3:enemy_turn()
assert(#t3[1].done == 2, "two actions")
assert(t3[1].done[1].did == "structural" and t3[1].done[2].did == "structural", t3[1].done[1].did)
assert(d.attacks == 0, "building attacks are not melee or ranged attacks")
