-- Core rules §3.4, "the attacker loses": the same C4 hero attacks an orc warrior. The hero rolls 1
-- (total 5); the orc has C3 and rolls 5 (total 8). The orc wins, so the hero suffers the result even though
-- the hero attacked: the orc's combat die is 5, odd, so the hero Recoils one base width away.
local g = village.new_game({ seed = 1, table = "empty" })
local hero = g:place("Captain Maren", { x = 4, y = 32 })
local orc = g:place("Orc Warrior", { x = 5, y = 32 })
g:force_dice({ 1, 5 })
local r = g:melee(hero, orc)
assert(r.attacker_total == 5 and r.defender_total == 8, r.attacker_total .. " vs " .. r.defender_total)
assert(r.winner == orc and r.loser == hero)
assert(r.result == "recoil", r.result)
assert(math.abs(hero.pos.x - 3) < 1e-9 and hero.pos.y == 32, "one base width directly away from the orc")
assert(not hero.engaged, "a model that recoils out of melee is no longer Engaged")
