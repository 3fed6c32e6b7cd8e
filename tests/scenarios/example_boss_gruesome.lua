--! mod: tests/fixtures/example_mod
-- Core rules §3.4, "the combat die is not the total": a C5 boss rolls 2 against a C1 mob that rolls 1. The
-- boss totals 7 against 2 — more than triple — so the mob suffers a Gruesome Kill; the low die does not
-- matter. (The Orc Warlord is Big: its trait script may add +1 against the smaller mob, which only widens
-- the margin; the example's 7 is die + Combat.) The mob here is a C1 villager so the two are enemies.
local g = village.new_game({ seed = 1, table = "empty" })
local boss = g:place("Orc Warlord", { x = 4, y = 32 })
local mob = g:place("Village Lad", { x = 5.25, y = 32 })
local friend = g:place("Village Lad", { x = 8, y = 32 })
g:force_dice({ 2, 1, 6, 6, 6 })
local r = g:melee(boss, mob)
assert(r.attacker_die + boss.combat == 7 and r.defender_die + 1 == 2, "die + Combat: 7 against 2")
assert(r.result == "gruesome", r.result)
assert(mob.defeated)
-- A Gruesome Kill makes the victim's friends within Long test morale.
local tested = false
for _, e in ipairs(g:log()) do
	if e.event == "morale" and e.model == friend.id and e.trigger == "gruesome_kill" then
		tested = true
	end
end
assert(tested, "the other villager tested morale")
