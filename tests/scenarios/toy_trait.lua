-- Run with --mod tests/fixtures/toy_mod: a trait script's hook changes a roll's modifier, and the log
--! mod: tests/fixtures/toy_mod
-- names the script as the source.
local g = village.new_game({ seed = 1, table = "empty" })
local toy = g:place("Toy Orc", { x = 3, y = 3 })
local tobin = g:place("Tobin the Marksman", { x = 4, y = 3 })
assert(toy.engaged)

-- Dice 3 and 4: C3 + 3 = 6 against C3 + 4 = 7 would lose; the toy trait's +1 makes it a tie.
g:force_dice({ 3, 4 })
local r = g:melee(toy, tobin)
assert(r.attacker_total == 7 and r.defender_total == 7, r.attacker_total .. " vs " .. r.defender_total)
assert(r.result == "tie")
assert(#r.modifiers == 1)
assert(r.modifiers[1].value == 1 and r.modifiers[1].reason == "toy bonus")
assert(r.modifiers[1].source:find("scripts/traits/toy.lua", 1, true), r.modifiers[1].source)

-- The hook only fires for its owner attacking: Tobin attacking the toy orc gets no modifier.
g:force_dice({ 3, 4 })
r = g:melee(tobin, toy)
assert(#r.modifiers == 0 and r.defender_total == 7 and r.attacker_total == 6)

local last_combat
for _, e in ipairs(g:log()) do
	if e.event == "combat" then
		last_combat = last_combat or e
	end
end
assert(last_combat.modifiers[1].source:find("toy.lua", 1, true))
