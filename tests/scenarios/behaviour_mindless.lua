-- Mindless (core §6.3): the nearest hero, Village Defender or undestroyed building.
local g = village.new_game({ seed = 1, table = "empty" })
local skel = g:place("Skeleton Warrior", { x = 30, y = 33 })
assert(skel.behaviour == "Mindless")
-- Nearest is the Temple's corner (29,20): about 13" away; a hero at 30,28 is 4" away.
assert(g:target(skel) == g:building("Forge") or g:target(skel) == g:building("Temple"))
local ilse = g:place("Sister Ilse", { x = 30, y = 28 })
assert(g:target(skel) == ilse)
local archer = g:place("Village Archer", { x = 30, y = 31 })
assert(g:target(skel) == archer, "a Village Defender counts too")
