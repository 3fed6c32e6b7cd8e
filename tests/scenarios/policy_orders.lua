-- Orders the turn engine executes for the hero policy beyond melee, shoot and move:
-- `{ heal = friend }` (a Healer; a Wound is a Task of two actions, SUPPLEMENT §9) and
-- `{ move = foe, within = n }` (close in, stopping n inches short along the route).
local g = village.new_game({ seed = 1, table = "empty" })
local ilse = g:place("Sister Ilse", { x = 4, y = 33 })
local tobin = g:place("Tobin the Marksman", { x = 5, y = 33 })
local orc = g:place("Orc Warrior", { x = 6, y = 33 })
g:force_dice({ 6, 1 })
g:melee(orc, tobin)
assert(tobin.wounds == 1 and tobin.quality == 4, "the Orc wounded Tobin")
g:remove(orc)

-- Healing a Wound takes two actions: the first is work on the Task, the second completes it.
local first = g:order(ilse, { heal = tobin })
assert(first.did == "healed" and first.complete == false and first.target == tobin.id)
assert(tobin.wounds == 1, "not yet")
local second = g:order(ilse, { heal = tobin })
assert(second.complete == true and tobin.wounds == 0 and tobin.quality == 3, "healed")
-- Nothing left to heal, a non-Healer, a friend out of contact: refused with the reason, nothing changed.
local ok, err = pcall(g.order, g, ilse, { heal = tobin })
assert(not ok and tostring(err):find("no Wound or condition"), tostring(err))
g:add_condition(tobin, "defenseless")
ok, err = pcall(g.order, g, tobin, { heal = ilse, what = "wound" })
assert(not ok, "Tobin is no Healer")
-- A condition is one action.
local c = g:order(ilse, { heal = tobin, what = "defenseless" })
assert(c.complete and not tobin:has("defenseless"))
ok, err = pcall(g.order, g, ilse, { heal = tobin, what = "sleepy" })
assert(not ok and tostring(err):find("sleepy"), tostring(err))

-- Closing in: a move toward a model that stops 3" short along the route, never into contact.
local g2 = village.new_game({ seed = 1, table = "empty" })
local archer = g2:place("Tobin the Marksman", { x = 3, y = 33 })
local wolf = g2:place("Dire Wolf", { x = 10, y = 33 }, { group = 1, behaviour = "Hunter" })
local m = g2:order(archer, { move = wolf, within = 3 })
assert(m.did == "moved", m.did)
local gap = g2:distance(archer, wolf)
assert(math.abs(gap - 3) < 1e-6, 'stopped 3" short: ' .. gap)
local again = g2:order(archer, { move = wolf, within = 3 })
assert(again.did == "lost", "already there")
ok, err = pcall(g2.order, g2, archer, { move = wolf, within = -1 })
assert(not ok and tostring(err):find("within"), tostring(err))
