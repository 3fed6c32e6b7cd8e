-- Herb Patch (SUPPLEMENT §7, roll 3; scripts/opportunities/herb_patch.lua): the village gains one Herb
-- token at once (the row's `herbs`); the log names the script.
local inspect = require("lib.inspect")

local g = village.new_game({ seed = 2, table = "empty" })
local tobin = g:place("Tobin the Marksman", { x = 10, y = 10 })
local tok = g:opportunity({ x = 10, y = 10.5 })
assert(g.herbs == 0)
g:force_dice({ 3 })
local a = g:order(tobin, { claim = tok })
assert(a.opportunity == "Herb Patch" and a.complete)
assert(g.herbs == 1, g.herbs)
local e = inspect.last_event(g, "herbs_gained")
assert(e.amount == 1 and e.herbs == 1 and e.source:find("opportunities/herb_patch.lua", 1, true))
local roll = inspect.last_event(g, "roll")
assert(roll.purpose == "opportunity" and roll.model == tobin.id and roll.dice[1] == 3 and roll.forced[1])
-- Claimed and resolved now: nothing waits for the wave's end.
g:end_wave()
assert(inspect.last_event(g, "reward_resolved") == nil and g.herbs == 1)
