-- Long Move (scripts/traits/long_move.lua): it moves with the Long measure (9") instead of Medium (6").
local g = village.new_game({ seed = 1, table = "empty" })
local wolf = g:place("Dire Wolf", { x = 2, y = 33 })
local orc = g:place("Orc Warrior", { x = 2, y = 30 })
assert(math.abs(g:move(wolf, { x = 30, y = 33 }).travelled - 9) < 1e-9)
assert(math.abs(g:move(orc, { x = 30, y = 30 }).travelled - 6) < 1e-9)
local last = g:log()[#g:log() - 1]
assert(last.event == "moved" and last.traits[1]:find("scripts/traits/long_move.lua", 1, true))
