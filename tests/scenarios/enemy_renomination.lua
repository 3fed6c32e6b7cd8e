-- §3.1 in the enemy turn (§6.2 turns follow §3.1): an Enemy Group that failed exactly one die without a
-- turnover is still Active and activates again later in the turn; with the variant
-- enemy_groups_activate_once (rules.activation.enemy_groups_renominate = false) it does not.
local function activations(variants)
	local g = village.new_game({ seed = 1, table = "empty", variants = variants })
	g:place("Captain Maren", { x = 4, y = 4 })
	local orc = g:place("Orc Warrior", { x = 32, y = 32 }, { group = 1, behaviour = "Hunter" })
	g:force_dice({ 6, 1, 6, 6 }) -- one failure, then two successes
	g:enemy_turn()
	local n = 0
	for _, e in ipairs(g:log()) do
		if e.event == "activation" and e.model == orc.id then
			n = n + 1
		end
	end
	return n
end
assert(activations({}) == 2, "again after one failed die: " .. activations({}))
local once = activations({ "enemy_groups_activate_once" })
assert(once == 1, "once with the variant: " .. once)
