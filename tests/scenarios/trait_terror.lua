-- Terror (core §3.6, SUPPLEMENT §9, scripts/traits/terror.lua): a model the Ogre Brute charges tests
-- morale after the move; a charge by a model without Terror makes none, and Undead ignore the check.
local g = village.new_game({ seed = 1, table = "empty" })
local archer = g:place("Village Archer", { x = 3, y = 30 })
local ogre = g:place("Ogre Brute", { x = 9, y = 30 })

local function morale_events()
	local out = {}
	for _, e in ipairs(g:log()) do
		if e.event == "morale" then
			out[#out + 1] = e
		end
	end
	return out
end

-- The ogre moves into contact; the archer (Q4+) rolls 4, 5, 6 and holds.
g:force_dice({ 4, 5, 6 })
local mv = g:move(ogre, archer.pos)
assert(mv.stopped_by == archer, "the ogre stopped on contact")
assert(ogre.engaged)
local m = morale_events()
assert(#m == 1 and m[1].model == archer.id and m[1].trigger == "terror" and m[1].result == "steady", #m)

-- Moving again while already in contact is no charge: no new check.
g:move(ogre, { x = ogre.pos.x, y = ogre.pos.y + 0.5 }, { distance = 0.5 })
assert(#morale_events() == 1)

-- An Orc Warrior (no Terror) charging another archer makes no check.
local archer2 = g:place("Village Archer", { x = 3, y = 34 })
local orc = g:place("Orc Warrior", { x = 8, y = 34 })
g:move(orc, archer2.pos)
assert(orc.engaged and #morale_events() == 1)

-- A charged archer failing all three dice (1, 2, 3 against 4+) must flee while Engaged: the ogre's
-- Lethal Free Hack (core §3.6) defeats it.
local archer3 = g:place("Village Archer", { x = 30, y = 30 })
local ogre2 = g:place("Ogre Brute", { x = 30, y = 24 })
local before = #g:log()
g:force_dice({ 1, 2, 3 })
g:move(ogre2, archer3.pos)
local rolled, hacked = false, false
for i, e in ipairs(g:log()) do
	if i > before and e.event == "roll" and e.purpose == "morale" and e.model == archer3.id then
		rolled = e.dice[1] == 1 and e.dice[2] == 2 and e.dice[3] == 3
	elseif i > before and e.event == "combat" and e.attacker == ogre2.id then
		hacked = e.lethal ~= nil
	end
end
assert(rolled and hacked, "the archer tested morale and took a Lethal Free Hack")
assert(archer3.defeated)
