--! mod: tests/fixtures/rule_probe_mod
-- `ctx:rule(section, key)` (and `ctx:permission`, at the end) answers a rule constant as `convert` makes it (a whole number an integer,
-- a measure a float, a string, a boolean, a list a table), and refuses a misspelt rule or wrong
-- arguments with an error located at the script's line, whichever way the kernel answers (its fast
-- path in C, or the mlua method behind it); the game goes on.
local inspect = require("lib.inspect")
local g = village.new_game({ seed = 1, table = "empty" })
local orc = g:place("Rule Probing Orc", { x = 3, y = 3 })
local tobin = g:place("Tobin the Marksman", { x = 4, y = 3 })
g:place("Wren the Scout", { x = 3, y = 30 })
g:force_dice({ 3, 3 })
local answers = inspect.answers(g:melee(orc, tobin), "rule_prober.lua")
-- The file as Lua names it (a long path is cut short at its start).
local at = "rule_probe_mod/scripts/traits/rule_prober.lua:"
local is, refused = inspect.checks(answers, at)
is("float", "float 6.000")
is("integer", "integer 3")
is("string", "string long")
is("boolean", "boolean true")
is("list", "table 4")
refused("misspelt", "no rule constant measures.huge")
refused("no_section", "no rule constant nowhere.medium")
refused("numbers", "no rule constant 1.2")
-- ctx:permission names the first script granting it by its table of names; a script that works its
-- permissions out in a function (Wren's Stealth, not touching Cover here) is asked, and the Tough trait
-- after it still answers; a model no longer on the table has none.
is("perm_table", "string scripts/traits/shooter.lua")
is("perm_id", "string scripts/traits/shooter.lua")
is("perm_function", "nil nil")
is("perm_after_function", "string scripts/traits/tough.lua")
is("perm_not_granted", "nil nil")
is("perm_number_name", "nil nil")
is("perm_gone", "nil nil")
refused("perm_no_model", "expected a model snapshot or id, got boolean")
-- Arguments of the wrong kind are mlua's conversion errors: they name the argument, and (issue 36) the
-- script's line when the method was reached (a `self` that is no ctx is refused before).
local function bad(name, text, located)
	local a = answers[name] or "(no answer)"
	assert(a:find("bad argument", 1, true) and a:find(text, 1, true), name .. ": " .. a)
	assert(not located or a:find("rule_prober.lua:%d+: bad argument"), name .. " names the line: " .. a)
end
bad("one_arg", "#3 to `ctx:rule`: error converting Lua nil to String", true)
bad("table_arg", "#2 to `ctx:rule`: error converting Lua table to String", true)
bad("not_ctx", "`self` to `ctx:rule`: error converting Lua table to ctx")
refused("unknown_member", "ctx has no field or method `no_such_thing`")
is("field", "integer 0")
for name, a in pairs(answers) do
	print(name .. ": " .. a)
end
