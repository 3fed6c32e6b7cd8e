-- Called Shot (SUPPLEMENT §8; scripts/signatures/called_shot.lua): Tobin shoots past a closer target
-- (logged `rule_bent`), and his first Aimed Shot of a wave costs one action instead of two (the use is
-- logged `spent`); the next Aimed Shot that wave costs two again.
local inspect = require("lib.inspect")
local SCRIPT = "signatures/called_shot.lua"

local g = village.new_game({ seed = 1, table = "empty" })
local tobin = g:place("Tobin the Marksman", { x = 5, y = 5 })
-- The closer target is worth at least half of Tobin (a lesser one he could ignore anyway, §3.5).
local near = g:place("Ogre Brute", { x = 5, y = 8 })
local far = g:place("Orc Warrior", { x = 5, y = 10 })

-- An ordinary Shooter must shoot the closest target; Tobin need not.
local archer = g:place("Village Archer", { x = 7, y = 5 })
local ok, err = pcall(g.shoot, g, archer, far)
assert(not ok and tostring(err):find("closest"), tostring(err))
g:force_dice({ 3, 3 })
g:shoot(tobin, far)
local bent = inspect.last_event(g, "rule_bent")
assert(bent and bent.model == tobin.id and bent.rule == "ignore_closest_target", "no rule_bent event")
assert(bent.source:find(SCRIPT, 1, true), bent.source)

-- Two actions: an Aimed Shot for one, then a move with the other.
g:force_dice({ 4, 4 })
g:activate(tobin, 2)
g:force_dice({ 2, 2 })
local done = g:orders(tobin, 2, { { shoot = near, aimed = true }, { move = { x = 5, y = 1 } } })
assert(#done == 2, #done)
assert(done[1].did == "shoot" and done[2].did == "moved", done[2].did)
local spent = inspect.last_event(g, "spent")
assert(spent and spent.key == "wave:Called Shot:Tobin the Marksman#1", spent and spent.key)
assert(spent.source:find(SCRIPT, 1, true), spent.source)

-- The use is gone for this wave: the next Aimed Shot, in the heroes' next turn (one attack a turn,
-- §3.2), takes both actions.
g:begin_turn("heroes")
g:force_dice({ 4, 4 })
g:activate(tobin, 2)
g:force_dice({ 2, 2 })
done = g:orders(tobin, 2, { { shoot = near, aimed = true }, { move = { x = 5, y = 1 } } })
assert(#done == 1 and done[1].did == "shoot", #done)

-- A model without the signature pays two for its Aimed Shot from the start.
local g2 = village.new_game({ seed = 1, table = "empty" })
local bow = g2:place("Village Archer", { x = 5, y = 5 })
local orc = g2:place("Orc Warrior", { x = 5, y = 9 })
g2:force_dice({ 2, 2 })
done = g2:orders(bow, 2, { { shoot = orc, aimed = true }, { move = { x = 5, y = 1 } } })
assert(#done == 1 and done[1].did == "shoot", #done)
