--! mod: tests/fixtures/rule_probe_mod
-- The measuring ctx methods (`distance`, `distance_to`, `distances_from`, `distances_to`, and
-- `can_shoot`) answer from
-- the game, whichever way the kernel answers (its fast path in C, or the mlua method behind it), and
-- refuse a malformed or missing thing with the method's own error, located at the script's line.
local inspect = require("lib.inspect")
local g = village.new_game({ seed = 1, table = "empty" })
local orc = g:place("Rule Probing Orc", { x = 3, y = 3 })
g:place("Captain Maren", { x = 3, y = 8 })
local tobin = g:place("Tobin the Marksman", { x = 4, y = 3 })
g:place("Shy Orc", { x = 9, y = 8 })
g:place("Village Archer", { x = 9, y = 3 })
g:place("Goblin Looter", { x = 11, y = 3 })
g:force_dice({ 3, 3 })
local answers = inspect.answers(g:melee(orc, tobin), "measure_prober.lua")
local is, refused = inspect.checks(answers, "rule_probe_mod/scripts/traits/measure_prober.lua:")
-- Bases of 1": the gap between two bases 5" apart is 4"; from a base to a point 7" away, 6.5".
is("usable_none", "integer 0")
refused("usable_bad", "expected a model snapshot or id, got boolean")
is("distance", "float 4.000")
is("to_model", "float 4.000")
is("to_point", "float 6.500")
is("to_building", "integer 1")
is("from", "list [4.000,6.500]")
is("from_id", "list [4.000,6.500]")
is("from_empty", "list []")
is("to_all", "list [6.500,1.500]")
is("to_all_ids", "list [6.500,1.500]")
-- ctx:can_shoot: no shot out of or into a melee, none for a model no longer on the table; a free
-- Shooter may shoot the nearest enemy; a permissions script that fails is that script's error.
is("shoot", "integer 0")
is("shoot_back", "integer 0")
is("shoot_ids", "integer 0")
is("shoot_gone", "integer 0")
is("shoot_free", "integer 1")
local failing = answers.shoot_failing or "(no answer)"
assert(failing:find("failing_permissions.lua:4: these permissions cannot be read", 1, true), failing)
refused("to_nan", "distance_to = (NaN, 1) is not a point on the table")
refused("to_number", "distance_to: expected a model, a building, a token or a point, got a integer")
refused("from_bad_item", "distances_from: expected a model, a building, a token or a point, got a integer")
