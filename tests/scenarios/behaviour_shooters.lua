-- Enemy Shooters under the universal priority (§6.2 step 3, "if the target becomes attackable ... attack
-- it"): a Kobold Skirmisher (Hunter, Javelins: Short range) throws at its hero once in range and sight,
-- walks when out of range; one ranged attack per turn. (Mindless never shoots: scripts/lib/act.lua's
-- `melee_only`, which mindless.lua passes; no supplied Shooter plays Mindless.)
local g = village.new_game({ seed = 4, table = "empty" })
local bram = g:place("Bram the Smith", { x = 30, y = 30 })
local kobold = g:place("Kobold Skirmisher", { x = 30, y = 34 }, { group = 1, behaviour = "Hunter" })
assert(g:target(kobold) == bram)
assert(g:distance(kobold, bram) <= 3, "within Short")
g:force_dice({ 3, 3 })
local a = g:act(kobold)
assert(a.did == "shoot", "in range: it throws, " .. a.did)
local again = g:act(kobold)
assert(again.did ~= "shoot", "one ranged attack per turn: " .. again.did)

-- Out of range it walks toward its target.
local g2 = village.new_game({ seed = 4, table = "empty" })
g2:place("Bram the Smith", { x = 30, y = 20 })
local k2 = g2:place("Kobold Skirmisher", { x = 30, y = 34 }, { group = 1, behaviour = "Hunter" })
local b = g2:act(k2)
assert(b.did == "moved", b.did)
