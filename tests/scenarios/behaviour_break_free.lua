-- Breaking free (§3.7, SUPPLEMENT §3): a Transfixed or Entangled model spends two actions to break free
-- (a Task). An Entangled enemy whose Behaviour wants to move breaks free first; a Trap's Entangle has no
-- ensnarer to Recoil or fall, so it lasts until broken (§3.7), and then the model walks on.
local inspect = require("lib.inspect")
local g = village.new_game({ seed = 2, table = "empty" })
local maren = g:place("Captain Maren", { x = 4, y = 4 })
g:trap({ 30, 30 }, { entangle = true })
local orc = g:place("Orc Warrior", { x = 33, y = 33 }, { group = 1, behaviour = "Hunter" })
-- It walks into the snare: the Trap wins (5 + 3 against 2 + 3) and Entangles it.
g:force_dice({ 5, 2 })
local walk = g:act(orc)
assert(walk.did == "moved" and orc:has("entangled"), "snared on the way: " .. walk.did)
local first = g:act(orc)
assert(first.did == "broke_free" and orc:has("entangled"), "one action of two: " .. first.did)
-- Nothing else ends a snare: Maren is far, nobody Recoils or falls.
local second = g:act(orc)
assert(second.did == "broke_free" and not orc:has("entangled"), "free after two")
local progress = inspect.last_event(g, "task_progress")
assert(progress.complete and progress.needed == 2, "a two-action Task")
local third = g:act(orc)
assert(third.did == "moved", "then it goes for Maren: " .. third.did)
assert(g:distance(orc, maren) < 40)

-- Transfixed: the same Task before it may move.
local g2 = village.new_game({ seed = 2, table = "empty" })
g2:place("Captain Maren", { x = 4, y = 4 })
local wolf = g2:place("Dire Wolf", { x = 30, y = 30 }, { group = 1, behaviour = "Hunter" })
g2:add_condition(wolf, "transfixed")
assert(g2:act(wolf).did == "broke_free" and wolf:has("transfixed"))
assert(g2:act(wolf).did == "broke_free" and not wolf:has("transfixed"))
assert(g2:act(wolf).did == "moved")
