-- Whole waves with the default policy (core §6.1, §7.1): with an Opportunity token out by a table edge at
-- the start of each wave (End Sequence step 5 places them in a full game), heroes of the default party
-- walk out and claim some over a few seeds, and what they claim is reported with the wave.
local EDGES = { { x = 18, y = 1.5 }, { x = 34.5, y = 18 }, { x = 18, y = 34.5 }, { x = 1.5, y = 18 } }

local claims, seeds_with_claims = 0, 0
for seed = 1, 4 do
	local g = village.new_game({
		seed = seed,
		table = "generated",
		length = "standard",
		heroes = { "Captain Maren", "Tobin the Marksman", "Sister Ilse", "Bram the Smith" },
	})
	local mine = 0
	for wave = 1, 2 do
		g:opportunity(EDGES[(seed + wave) % #EDGES + 1])
		local s = g:play_wave()
		for _, c in ipairs(s.claimed or {}) do
			print(("seed %d wave %d: %s claimed %s"):format(seed, wave, c[1], c[2]))
			mine = mine + 1
		end
		if s.outcome ~= "win" then
			break
		end
	end
	claims = claims + mine
	if mine > 0 then
		seeds_with_claims = seeds_with_claims + 1
	end
end
print(("%d claims, %d of 4 seeds"):format(claims, seeds_with_claims))
assert(seeds_with_claims >= 2, "heroes claim Opportunities in whole waves")
