-- Core rules §3.4, "the attacker wins": a C4 hero makes a Power Blow against a C3 raider. The hero rolls
-- 4 (total 8); the raider rolls 3, reduced to C2 (total 5). The hero wins but does not double 5, so the
-- raider becomes Defenseless because the hero's combat die, the 4, is even.
local function blow(variants)
	local g = village.new_game({ seed = 1, table = "empty", variants = variants })
	local hero = g:place("Captain Maren", { x = 4, y = 4 })
	local raider = g:place("Orc Warrior", { x = 5, y = 4 })
	g:force_dice({ 4, 3 })
	local r = g:melee(hero, raider, { power_blow = true })
	assert(r.attacker_total == 8 and r.defender_total == 5, r.attacker_total .. " vs " .. r.defender_total)
	assert(r.winner == hero and r.loser == raider)
	return r, raider
end

-- Default ruling (SUPPLEMENT §4): Power Blow is not Lethal.
local r, raider = blow({})
assert(r.result == "defenseless", r.result)
assert(raider:has("defenseless") and not raider.defeated)

-- With the variant the literal reading applies: the raider is Defeated.
r, raider = blow({ "power_blow_lethal" })
assert(r.result == "defeated", r.result)
assert(raider.defeated)
