--! mod: tests/fixtures/spell_mod
-- A view is read from the game through the call that handed it out. Before a spell's primitive changes
-- the game (`ctx:spell_attack`), every view of the spell's call is filled in: a script the primitive sets
-- off that reads one of them (here a trait's modifier hook, given the view through a shared module) gets
-- the value from before the change, never a game half changed, and never an error.
local inspect = require("lib.inspect")
local g = village.new_game({ seed = 1, table = "empty" })
local peeker = g:place("Test Peeker", { x = 4, y = 20 })
local maren = g:place("Captain Maren", { x = 4, y = 24 })
local r = g:cast(peeker, "Peeking Bolt", 2, maren)
local mods = inspect.modifiers_from(r.result, "peeker.lua")
assert(#mods == 1, "one modifier from the trait, got " .. #mods)
assert(mods[1].reason == "the view read " .. maren.combat, mods[1].reason)
print(mods[1].reason)
