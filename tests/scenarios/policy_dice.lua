--! mod: tests/fixtures/poor_quality_mod
-- The default policy's dice for the last model of the side to activate: the number worth the most
-- actions, counting §3.1's fresh roll after exactly one failed die (E(n) = successes / (1 − P(exactly
-- one failure))). Three at Quality 4+ (2.4 actions against 2 with two dice); at 6+ single dice, rolled
-- again after each failure, give one action a turn against 0.54 with three.
-- The dice the first of `profiles` chose in a hero turn (each placed on an empty table, in order).
local function dice_chosen(...)
	local g = village.new_game({ seed = 1, table = "empty" })
	local first
	for i, profile in ipairs({ ... }) do
		local m = g:place(profile, { x = 4 + 16 * (i - 1), y = 4 })
		first = first or m
	end
	g:place("Orc Warrior", { x = 32, y = 32 }, { group = 1, behaviour = "Hunter" })
	g:force_dice({ 6, 6, 6, 6, 6, 6 })
	g:hero_turn()
	for _, e in ipairs(g:log()) do
		if e.event == "activation" and e.model == first.id then
			return #e.dice + e.automatic
		end
	end
end
assert(dice_chosen("Bram the Smith") == 3, "Quality 4+: three")
assert(dice_chosen("Raw Recruit") == 1, "Quality 6+: one")
-- With a friend still to activate: two dice (Quality 4+), since three would risk the friend's turn more;
-- but one at 6+, where two would mostly fail twice and end the turn, and a single die never does.
assert(dice_chosen("Bram the Smith", "Raw Recruit") == 2, "Quality 4+ with a friend waiting: two")
assert(dice_chosen("Raw Recruit", "Bram the Smith") == 1, "Quality 6+ with a friend waiting: one")
