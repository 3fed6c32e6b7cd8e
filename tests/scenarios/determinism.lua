-- A skirmish on a generated table with seeded dice: run twice with the same seed, the log must be
-- byte-identical (the test compares the printed JSON).
local g = village.new_game({ table = "generated", heroes = { "Captain Maren", "Sir Roland" } })
local heroes = g:models({ side = "heroes" })
local th = g:building("Town Hall")
local orcs = {}
for i = 1, 4 do
	orcs[i] = g:place("Orc Warrior", { x = 2 + i * 1.5, y = 1 })
end
for round = 1, 6 do
	for i, orc in ipairs(orcs) do
		if not orc.defeated then
			local act = g:activate(orc, 2)
			for _ = 1, act.successes do
				local target = heroes[(i % #heroes) + 1]
				if target.defeated then
					break
				end
				if g:distance(orc, target) <= 0.05 then
					g:melee(orc, target, { power_blow = math.random(2) == 1 })
				else
					g:move(orc, target.pos)
				end
				if orc.defeated then
					break
				end
			end
		end
	end
end
print(g:log_json())
