-- Cleric (SUPPLEMENT §9, scripts/traits/cleric.lua): Sister Ilse's wins are Lethal against Undead, and
-- only against Undead.
local g = village.new_game({ seed = 1, table = "empty" })
local ilse = g:place("Sister Ilse", { x = 3, y = 30 })
local skel = g:place("Skeleton Warrior", { x = 4, y = 30 })

-- Ilse (C2) rolls 4 → 6 against the Skeleton's (C2) 3 → 5: an even die would leave it Defenseless;
-- Cleric makes the win Lethal and the Skeleton is Defeated.
g:force_dice({ 4, 3 })
local r = g:melee(ilse, skel)
assert(r.attacker_total == 6 and r.defender_total == 5)
assert(r.result == "defeated" and skel.defeated, r.result)
local combat
for _, e in ipairs(g:log()) do
	if e.event == "combat" then
		combat = e
	end
end
assert(combat.lethal and combat.lethal:find("Cleric against Undead", 1, true), tostring(combat.lethal))
assert(combat.lethal:find("scripts/traits/cleric.lua", 1, true), combat.lethal)

-- The same win against a living Orc Warrior (C3): 5 → 7 against 2 → 5 is an odd die, a Recoil.
local orc = g:place("Orc Warrior", { x = 2, y = 30 })
g:force_dice({ 5, 2 })
r = g:melee(ilse, orc)
assert(r.attacker_total == 7 and r.defender_total == 5)
assert(r.result == "recoil" and not orc.defeated, r.result)
