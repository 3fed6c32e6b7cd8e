-- Tough (scripts/traits/tough.lua, core §3.8): a normal Defeated result is a Wound and Quality +1; at Q7+
-- the model is Defeated; a Gruesome Kill still defeats it. Heroes have it; an Orc Warrior does not.
local g = village.new_game({ seed = 1, table = "empty" })
local tobin = g:place("Tobin the Marksman", { x = 4, y = 32 })
local orc = g:place("Orc Warrior", { x = 5, y = 32 })
-- The orc rolls 6 (9) against Tobin's 1 (4): doubled → Defeated → a Wound.
g:force_dice({ 6, 1 })
local r = g:melee(orc, tobin)
assert(r.table_result == "defeated" and r.result == "wound", r.result)
assert(tobin.wounds == 1 and tobin.quality == 4 and not tobin.defeated)
local wounded = false
for _, e in ipairs(g:log()) do
	if e.event == "outcome" and e.result == "wound" then
		wounded = true
	end
end
assert(wounded)
-- Two more Wounds take him to Q6, a fourth to Q7: Defeated.
for _ = 1, 2 do
	g:force_dice({ 6, 1 })
	g:melee(orc, tobin)
end
assert(tobin.wounds == 3 and tobin.quality == 6)
g:force_dice({ 6, 1 })
r = g:melee(orc, tobin)
assert(r.result == "defeated" and tobin.defeated)
-- An orc without the trait is simply Defeated.
local bram = g:place("Bram the Smith", { x = 10, y = 32 })
local orc2 = g:place("Orc Warrior", { x = 11, y = 32 })
g:force_dice({ 6, 1 })
r = g:melee(bram, orc2)
assert(r.result == "defeated" and orc2.defeated)
