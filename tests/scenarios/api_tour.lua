-- A tour of the public game API: every call named in the API reference, with forced dice.
local g = village.new_game({
	seed = 7,
	length = "standard",
	heroes = { "Captain Maren", "Bram the Smith" },
	table = "empty",
})
assert(#g:models({ side = "heroes" }) == 2, "the party is deployed")
local th = g:building("Town Hall")
assert(th.integrity == 8 and th.max_integrity == 8 and th.level == 1)
assert(not th.destroyed and not th.fire)
assert(th.size.w == 6 and th.size.h == 4)

local orc = g:place("Orc Warrior", { x = 3, y = 3 })
assert(orc.name == "Orc Warrior" and orc.quality == 4 and orc.combat == 3)
assert(orc.side == "enemies" and not orc.engaged and not orc.defeated)
assert(orc.pos.x == 3 and orc.pos.y == 3)
assert(#g:models({ side = "enemies" }) == 1)

g:force_dice({ 4, 3 })
local r = g:activate(orc, 2)
assert(r.successes == 1 and r.failures == 1 and not r.turnover)
assert(r.dice[1] == 4 and r.dice[2] == 3)

local log = g:log()
assert(log[#log].event == "activation")
assert(log[#log - 1].event == "roll" and log[#log - 1].purpose == "activation")
