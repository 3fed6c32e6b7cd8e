--! mod: tests/fixtures/rule_probe_mod
-- A script that a ctx method set off (a permissions script asked by `ctx:can_shoot`) cannot change the
-- game through the ctx of the hook that called that method: the game must not change under a method
-- still reading it. The roll is refused with an error the script can catch, at its own line.
local inspect = require("lib.inspect")
local g = village.new_game({ seed = 1, table = "empty" })
local orc = g:place("Reentrant Orc", { x = 3, y = 3 })
local tobin = g:place("Tobin the Marksman", { x = 4, y = 3 })
g:force_dice({ 3, 3 })
local mods = inspect.modifiers_from(g:melee(orc, tobin), "reentrant_prober.lua")
assert(#mods == 1, "one modifier from the prober, got " .. #mods)
local reason = mods[1].reason
assert(reason:find("reentrant: refused: runtime error: ", 1, true) == 1, reason)
assert(
	reason:find(
		"reentrant_prober.lua:13: a hook's ctx was asked to change the game while another of its methods was reading it",
		1,
		true
	),
	reason
)
print(mods[1].reason)
