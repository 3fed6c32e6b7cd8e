--! mod: tests/fixtures/traits_b_mod
-- Steadfast (SUPPLEMENT §9, scripts/traits/steadfast.lua): +morale.steadfast_bonus (1) to each morale die.
local g = village.new_game({ seed = 1, table = "empty" })
local plain = g:place("Orc Warrior", { x = 3, y = 30 })
local steady = g:place("Steadfast Orc", { x = 3, y = 34 })
assert(plain.quality == 4 and steady.quality == 4)

-- Dice 3, 3, 4 against Quality 4+: two failures for the Orc Warrior (it falls back two bands, off the
-- west edge).
g:force_dice({ 3, 3, 4 })
local r = g:morale(plain, "terror")
assert(r.failures == 2 and r.result ~= "steady", r.result)

-- The same dice for the Steadfast Orc are 4, 4, 5: it holds.
g:force_dice({ 3, 3, 4 })
r = g:morale(steady, "terror")
assert(r.failures == 0 and r.result == "steady", r.failures .. " " .. r.result)

local checks = {}
for _, e in ipairs(g:log()) do
	if e.event == "morale" then
		checks[#checks + 1] = e
	end
end
assert(#checks == 2)
assert(#checks[1].modifiers == 0, "no bonus for the Orc Warrior")
local m = checks[2].modifiers
assert(#m == 1 and m[1].value == 1 and m[1].reason == "Steadfast")
assert(m[1].source:find("scripts/traits/steadfast.lua", 1, true), m[1].source)

-- Every trigger: a Gruesome Kill check too.
g:force_dice({ 3, 3, 3 })
r = g:morale(steady, "gruesome_kill")
assert(r.failures == 0 and r.result == "steady")
