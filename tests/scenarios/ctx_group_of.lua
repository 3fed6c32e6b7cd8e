--! mod: tests/fixtures/rule_probe_mod
-- `ctx:models({ group_of = m })` lists the models of m's Enemy Group, itself included (a Behaviour's
-- `target` asks for its Group so, instead of being handed it on every call): the Rule Probing Orc and
-- the Shy Orc are Group 1, the Goblin Looter Group 2, Captain Maren belongs to no Group.
local inspect = require("lib.inspect")
local g = village.new_game({ seed = 1, table = "empty" })
local orc = g:place("Rule Probing Orc", { x = 3, y = 3 }, { group = 1 })
g:place("Captain Maren", { x = 3, y = 8 })
local tobin = g:place("Tobin the Marksman", { x = 4, y = 3 })
g:place("Shy Orc", { x = 9, y = 8 }, { group = 1 })
g:place("Goblin Looter", { x = 11, y = 3 }, { group = 2 })
g:force_dice({ 3, 3 })
local answers = inspect.answers(g:melee(orc, tobin), "measure_prober.lua")
local is, refused = inspect.checks(answers, "rule_probe_mod/scripts/traits/measure_prober.lua:")
is("group_of", "string Rule Probing Orc,Shy Orc")
is("group_of_id", "string Rule Probing Orc,Shy Orc")
is("group_of_near", "string Shy Orc")
is("group_of_hero", "string Captain Maren")
refused("group_of_bad", "group_of = boolean: expected a model's view or id")
refused("group_of_huge", "group_of = integer: expected a model's view or id")
