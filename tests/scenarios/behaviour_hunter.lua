-- Hunter (core §6.3): the nearest hero; on a tie, the one with most Wounds; with no hero, the nearest
-- Village Defender, then the Town Hall.
local g = village.new_game({ seed = 1, table = "empty" })
local orc = g:place("Orc Warrior", { x = 2, y = 20 })
assert(orc.behaviour == "Ravager", "a profile's first Behaviour is the default")
local hunter = g:place("Orc Warrior", { x = 2, y = 33 }, { behaviour = "Hunter" })

-- Bram 3" away, Tobin 5" away: Bram.
local bram = g:place("Bram the Smith", { x = 2, y = 29 })
local tobin = g:place("Tobin the Marksman", { x = 8, y = 33 })
assert(g:target(hunter) == bram)

-- Both 3" away: the one with most Wounds. Wound Tobin first (another orc doubles him: Tough → Wound).
g:remove(tobin)
tobin = g:place("Tobin the Marksman", { x = 6, y = 33 })
local brute = g:place("Orc Warrior", { x = 7, y = 33 })
g:force_dice({ 6, 1 })
g:melee(brute, tobin)
assert(tobin.wounds == 1)
g:remove(brute)
assert(g:target(hunter) == tobin, "a tie: Tobin has a Wound")

-- No hero: the nearest Village Defender; none either: the Town Hall.
g:remove(tobin)
g:remove(bram)
local archer = g:place("Village Archer", { x = 10, y = 33 })
assert(g:target(hunter) == archer)
g:remove(archer)
assert(g:target(hunter) == g:building("Town Hall"))
