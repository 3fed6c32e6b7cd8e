--! mod: tests/fixtures/power_blow_policy_mod
-- Action costs in the turn engine (SUPPLEMENT §3): a Power Blow takes two actions; with one action left
-- it is lost with the reason, and nothing is rolled for it.
local g = village.new_game({ seed = 3, table = "empty" })
g:place("Bram the Smith", { x = 22.5, y = 18 })
g:place("Orc Warrior", { x = 23.5, y = 18 }, { group = 1, behaviour = "Hunter" })
-- One success and one failure: Bram stays Active (§3.1), and the fixture's policy does not nominate him again.
g:force_dice({ 6, 1 })
local t = g:hero_turn()
assert(#t == 1, "the policy declines to nominate Bram again")
assert(#t[1].done == 1 and t[1].done[1].did == "lost", t[1].done[1].did)
assert(t[1].done[1].why:find("needs 2 actions"), t[1].done[1].why)
for _, e in ipairs(g:log()) do
	assert(e.event ~= "combat", "no attack was rolled")
end
-- Two successes: one Power Blow spends both.
g:force_dice({ 6, 6, 3, 3 })
t = g:hero_turn()
assert(#t[1].done == 1 and t[1].done[1].did == "melee", "one order, two actions")
