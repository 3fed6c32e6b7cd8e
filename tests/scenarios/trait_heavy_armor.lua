-- Heavy Armor (SUPPLEMENT §4 and §9, scripts/traits/heavy_armor.lua): Bram the Smith, beaten, neither
-- Recoils nor becomes Defenseless; a Lethal (Defenseless) loss still takes him (a Wound: he is Tough).
local g = village.new_game({ seed = 1, table = "empty" })
local bram = g:place("Bram the Smith", { x = 3, y = 30 })
local orc = g:place("Orc Warrior", { x = 4, y = 30 })
local home = bram.pos

local function changes()
	local out = {}
	for _, e in ipairs(g:log()) do
		if e.event == "result_changed" then
			out[#out + 1] = e
		end
	end
	return out
end

-- The orc (C3) rolls 5 → 8 against Bram's (C4) 1 → 5: an odd die, a Recoil, replaced by no effect.
g:force_dice({ 5, 1 })
local r = g:melee(orc, bram)
assert(r.winner == orc and r.table_result == "recoil" and r.result == "none", r.result)
assert(bram.pos.x == home.x and bram.pos.y == home.y, "Bram did not move")
local c = changes()
assert(#c == 1 and c[1].from == "recoil" and c[1].to == "none" and c[1].reason == "Heavy Armor")
assert(c[1].source:find("scripts/traits/heavy_armor.lua", 1, true), c[1].source)

-- An even die: 6 → 9 against 2 → 6 would leave him Defenseless; it does not.
g:force_dice({ 6, 2 })
r = g:melee(orc, bram)
assert(r.table_result == "defenseless" and r.result == "none", r.result)
assert(not bram:has("defenseless"))
assert(#changes() == 2)

-- Rule 4 still applies: Bram made Defenseless (by a scenario) loses Lethally: 3 + 3 + 2 = 8 against
-- 3 + 4 = 7 is a Defeated result, which Tough turns into a Wound; Heavy Armor leaves it alone.
g:add_condition(bram, "defenseless")
g:force_dice({ 3, 3 })
r = g:melee(orc, bram)
assert(r.attacker_total == 8 and r.defender_total == 7, r.attacker_total .. " vs " .. r.defender_total)
assert(r.table_result == "defeated" and r.result == "wound", r.result)
assert(bram.wounds == 1)
assert(#changes() == 2, "no Heavy Armor change on a Defeated result")

-- The orc has no Heavy Armor: Bram's win with an odd die makes it Recoil as usual.
local bram2 = g:place("Bram the Smith", { x = 3, y = 34 })
local orc2 = g:place("Orc Warrior", { x = 4, y = 34 })
g:force_dice({ 5, 4 })
r = g:melee(bram2, orc2)
assert(r.winner == bram2 and r.result == "recoil", r.result)
assert(orc2.pos.x > 4.9, "the orc recoiled")
