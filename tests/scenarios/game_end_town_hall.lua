-- A Destroyed Town Hall ends the game at that event (core §6.4; SUPPLEMENT §10 "immediately means
-- immediately"): the winning structural attack's own scripts (the Orc Demolisher's Breach) do not act, the
-- attacker's second action is not taken and the next Demolisher of its Group does not activate.
local g = village.new_game({
	seed = 1,
	length = "intro",
	table = "empty",
	heroes = { "Captain Maren", "Tobin the Marksman" },
})
g:start_wave()
for _, m in ipairs(g:models()) do
	g:remove(m)
end
g:place("Tobin the Marksman", { x = 33, y = 33 }) -- far away: the village is not overrun
local th = g:building("Town Hall")
g:damage(th, th.integrity - 1)
assert(th.integrity == 1)
local x = th.pos.x - th.size.w / 2 - 0.75 -- a Big base (1.5") touching the west wall
local d1 = g:place("Orc Demolisher", { x = x, y = th.pos.y - 1 }, { group = 1, behaviour = "Ravager" })
g:place("Orc Demolisher", { x = x, y = th.pos.y + 1 }, { group = 1, behaviour = "Ravager" })
-- A Barricade touching the first Demolisher: Breach would remove it on a winning attack.
local bx = d1.pos.x - d1.base / 2
g:barricade({ bx, th.pos.y - 3 }, { bx, th.pos.y - 6 })
-- The Group rolls 6, 6; the first structural attack: 6 + 3 + 1 (Heavy Weapon) against 1 + 3.
g:force_dice({ 6, 6, 6, 1 })
local turns = g:enemy_turn()
assert(#turns == 1 and #turns[1].done == 1, "one action was taken, no other was tried")
assert(th.destroyed and g:ended() == "town_hall_destroyed", tostring(g:ended()))
local log = g:log()
local last = log[#log]
assert(
	last.event == "damage" and last.building == "Town Hall" and last.destroyed,
	"the destroying damage is the last event: " .. last.event
)
for _, e in ipairs(log) do
	assert(e.event ~= "barricade_damage", "Breach did not act after the Town Hall fell")
end
