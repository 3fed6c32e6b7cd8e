--! mod: tests/fixtures/spell_mod
-- A spell "that affects only living targets has no effect on Undead or Artificial models" (§3.7): the
-- roster's `living_only` says which. Heal has it; this mod's Mend Bones, the same script without it,
-- mends a Skeleton.
local g = village.new_game({ seed = 1, table = "empty" })
local setter = g:place("Test Bonesetter", { x = 4, y = 26 })
local skeleton = g:place("Skeleton Warrior", { x = 5, y = 28 })
g:add_condition(skeleton, "defenseless")
local r = g:cast(setter, "Mend Bones", 1, skeleton)
assert(r.result[1] == "defenseless cleared" and not skeleton:has("defenseless"), "the Skeleton is mended")

local ilse = g:place("Sister Ilse", { x = 30, y = 26 })
local other = g:place("Skeleton Warrior", { x = 31, y = 28 })
g:add_condition(other, "defenseless")
local ok, err = pcall(g.cast, g, ilse, "Heal", 1, other)
assert(not ok and tostring(err):find("Undead, not living", 1, true), tostring(err))
