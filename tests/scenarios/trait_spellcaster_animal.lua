--! mod: tests/fixtures/example_mod
-- Spellcaster (scripts/traits/spellcaster.lua) lets a model cast its spells; Animal
-- (scripts/traits/animal.lua) forbids magic even to a model that knows a spell.
local g = village.new_game({ seed = 1, table = "empty" })
local hedda = g:place("Hedda the Hedge Witch", { x = 2, y = 33 })
local cat = g:place("Familiar Cat", { x = 2, y = 30 })
local orc = g:place("Orc Warrior", { x = 6, y = 31.5 })
g:force_dice({ 6, 3 })
local r = g:cast(hedda, "Fireball", 2, orc)
assert(r.spell == "Fireball" and r.result.attacker_total == 6 + 2)
local ok, err = pcall(g.cast, g, cat, "Fireball", 2, orc)
assert(not ok and tostring(err):find("an Animal"), tostring(err))
