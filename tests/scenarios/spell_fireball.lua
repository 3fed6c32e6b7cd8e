-- Fireball (SUPPLEMENT §9) through g:cast and scripts/spells/fireball.lua: a ranged attack whose Combat is
-- the Power; the target's roll only defends.
local g = village.new_game({ seed = 1, table = "empty" })
local hedda = g:place("Hedda the Hedge Witch", { x = 5, y = 30 })
local orc = g:place("Orc Warrior", { x = 10, y = 30 })

-- Power 2, dice 6 (Hedda) and 2 (orc): 6 + 2 = 8 against 2 + 3 = 5, less than double: the even die leaves
-- the orc Defenseless.
g:force_dice({ 6, 2 })
local r = g:cast(hedda, "Fireball", 2, orc)
local c = r.result
assert(c.kind == "ranged", c.kind)
assert(c.attacker_total == 8 and c.defender_total == 5, c.attacker_total .. " vs " .. c.defender_total)
assert(c.winner == hedda and c.loser == orc)
assert(c.result == "defenseless", c.result)
assert(orc:has("defenseless"))

-- Power 3 (Long reaches 9"): Combat 3. Dice 4 and 4: 7 against 7, a tie; then the orc's better roll does
-- not hurt the caster.
g:force_dice({ 4, 4 })
c = g:cast(hedda, "Fireball", 3, orc).result
assert(c.attacker_total == 4 + 3 + 2, "Combat 3, +2 against a Defenseless target: " .. c.attacker_total)
local orc2 = g:place("Orc Warrior", { x = 5, y = 24 })
g:force_dice({ 1, 6 })
c = g:cast(hedda, "Fireball", 3, orc2).result
assert(c.attacker_total == 4 and c.defender_total == 9 and c.result == "none", c.result)
assert(hedda.defeated == false and hedda.pos.x == 5)

-- The combat event follows the spell event that names the script.
local spell_seq, combat_seq
for _, e in ipairs(g:log()) do
	if e.event == "spell" and e.source == "scripts/spells/fireball.lua" then
		spell_seq = e.seq
	elseif e.event == "combat" then
		combat_seq = e.seq
	end
end
assert(spell_seq and combat_seq and combat_seq > spell_seq)

-- Sister Ilse does not know Fireball; a friend is no target, and the script's error undoes the cast.
local ilse = g:place("Sister Ilse", { x = 5, y = 20 })
local ok, err = pcall(g.cast, g, ilse, "Fireball", 1, orc2)
err = tostring(err)
assert(not ok and err:find("does not know Fireball", 1, true), err)
local bram = g:place("Bram the Smith", { x = 5, y = 27.5 })
local before = #g:log()
ok, err = pcall(g.cast, g, hedda, "Fireball", 3, bram)
err = tostring(err)
assert(not ok, "Bram is on Hedda's side")
assert(err:find("scripts/spells/fireball.lua:", 1, true), "the error names the script line: " .. err)
assert(#g:log() == before, "a failed script leaves no trace")
