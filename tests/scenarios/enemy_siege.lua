-- Enemy turns alone against an undefended village: the Behaviour scripts drive the orcs to the buildings
-- and batter them; with nobody to stop them the Town Hall falls. (Heroes play no turn here: the hero side
-- arrives with the turn engine.)
local g = village.new_game({ seed = 11, table = "generated" })
local th = g:building("Town Hall")
g:place("Orc Warrior", { x = 2, y = 2 }, { behaviour = "Ravager", group = 1 })
g:place("Orc Warrior", { x = 3.2, y = 2 }, { behaviour = "Ravager", group = 1 })
g:place("Chaos Zealot", { x = 34, y = 34 }, { group = 2 })
g:place("Chaos Zealot", { x = 32.8, y = 34 }, { group = 2 })
local rounds = 0
while not th.destroyed and rounds < 200 do
	rounds = rounds + 1
	g:enemy_turn()
end
assert(th.destroyed, "the Town Hall fell")
local attacks = 0
for _, e in ipairs(g:log()) do
	if e.event == "combat" and e.kind == "structural" then
		attacks = attacks + 1
	end
end
assert(attacks >= 4, "at least the 8 Integrity of the Town Hall came down by structural attacks")
print(string.format("Town Hall destroyed after %d enemy turns and %d structural attacks", rounds, attacks))
