-- Overrun (SUPPLEMENT §10, ruling of 2026-12-01): the moment no model of the heroes' side is on the table
-- while an enemy remains, the wave ends at once and the game is lost (cause "overrun"). "Immediately means
-- immediately": nothing after the event that ends it resolves — here the Ogre's second action and the
-- second Ogre's two.
local g = village.new_game({
	seed = 1,
	length = "intro",
	table = "empty",
	heroes = { "Captain Maren", "Tobin the Marksman" },
})
g:start_wave()
assert(g.round == 1 and g:ended() == nil, "a wave is being played")
for _, m in ipairs(g:models()) do
	g:remove(m)
end
-- The last model of the heroes' side is a Village Archer between two Ogres of one Group.
local archer = g:place("Village Archer", { x = 10, y = 10 })
local o1 = g:place("Ogre Brute", { x = 11.25, y = 10 }, { group = 1, behaviour = "Hunter" })
g:place("Ogre Brute", { x = 8.75, y = 10 }, { group = 1, behaviour = "Hunter" })
assert(g:ended() == nil, "an Archer still stands")
-- The Group rolls 6, 6 (two actions each); the first Ogre's melee: 6 + 4 + 1 (Big) = 11 against the
-- Archer's 1 + 2 - 1 (outnumbered) = 2, a Gruesome Kill.
g:force_dice({ 6, 6, 6, 1 })
local turns = g:enemy_turn()
assert(g:ended() == "overrun", tostring(g:ended()))
assert(#turns == 1 and #turns[1].done == 1, "one action was taken, no other was tried")
local log = g:log()
local gone
for i, e in ipairs(log) do
	if e.event == "removed" and e.model == archer.id then
		gone = i
	end
end
assert(gone, "the Archer was removed")
for i = gone + 1, #log do
	local e = log[i]
	assert(e.event == "outcome" and e.model == archer.id, "nothing resolves after the Overrun: " .. e.event)
end
local attacks = 0
for _, e in ipairs(log) do
	if e.event == "combat" and (e.attacker == o1.id or e.kind == "melee") then
		attacks = attacks + 1
	end
end
assert(attacks == 1, "one attack, then the game ended: " .. attacks)
-- A lost game plays no more: no order, no new wave.
local ok, err = pcall(g.start_wave, g)
assert(not ok and tostring(err):find("the game is over", 1, true), tostring(err))
ok, err = pcall(g.order, g, o1, { move = { x = 20, y = 20 } })
assert(not ok and tostring(err):find("the game is over", 1, true), tostring(err))
