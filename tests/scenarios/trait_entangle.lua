--! mod: tests/fixtures/traits_b_mod
-- Entangle (SUPPLEMENT §9, core §3.7, scripts/traits/entangle.lua): a melee win that does not kill
-- Entangles the loser instead of a Recoil or Defenseless result; a kill stands; a loss is read normally,
-- and the Entangle ends when the ensnarer Recoils.
local g = village.new_game({ seed = 1, table = "empty" })
local orc = g:place("Entangling Orc", { x = 3, y = 30 })
local a1 = g:place("Village Archer", { x = 4, y = 30 })
local a1_pos = a1.pos

-- 3 → 6 against 3 → 5: an odd die, a Recoil; the archer is Entangled instead and stays put.
g:force_dice({ 3, 3 })
local r = g:melee(orc, a1)
assert(r.table_result == "recoil" and r.result == "entangled", r.result)
assert(a1:has("entangled") and a1.pos.x == a1_pos.x)
local change
for _, e in ipairs(g:log()) do
	if e.event == "result_changed" then
		change = e
	end
end
assert(change and change.from == "recoil" and change.to == "entangled" and change.reason == "Entangle")
assert(change.source:find("scripts/traits/entangle.lua", 1, true), change.source)

-- The next attack has the Entangled bonus (melee.entangled): 2 + 3 + 1 = 6 against 4 + 2 = 6, a tie.
g:force_dice({ 2, 4 })
r = g:melee(orc, a1)
assert(r.attacker_total == 6 and r.defender_total == 6 and r.result == "tie")

-- A second archer beats the orc: 2 + 3 - 1 (outnumbered) = 4 against 5 + 2 = 7, odd die: the orc
-- Recoils (Entangle is not the archer's), and an ensnarer that Recoils lets go (core §3.7).
local a2 = g:place("Village Archer", { x = 3, y = 31 })
g:force_dice({ 2, 5 })
r = g:melee(orc, a2)
assert(r.winner == a2 and r.result == "recoil", r.result)
assert(not a1:has("entangled"), "the archer is free once the orc recoiled")

-- A kill is not replaced: 6 → 9 against 1 → 3 is a Gruesome Kill.
local a3 = g:place("Village Archer", { x = 3, y = 34 })
local orc2 = g:place("Entangling Orc", { x = 4, y = 34 })
g:force_dice({ 6, 1 })
r = g:melee(orc2, a3)
assert(r.result == "gruesome", r.result)
