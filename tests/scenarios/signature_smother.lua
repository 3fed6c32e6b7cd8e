-- Smother (SUPPLEMENT §8; scripts/signatures/smother.lua): one action, remove the fire token from a
-- building within Medium; refused for a building not burning or out of reach.
local inspect = require("lib.inspect")
local SCRIPT = "signatures/smother.lua"

local g = village.new_game({ seed = 1, table = "empty" })
local stable = g:building("Stable")
local hedda = g:place("Hedda the Hedge Witch", { x = stable.pos.x, y = stable.pos.y + stable.size.h / 2 + 4 })

local ok, err = pcall(g.order, g, hedda, { ability = "Smother", target = "Stable" })
assert(not ok and tostring(err):find("not burning"), tostring(err))

local looter = g:place("Goblin Looter", { x = stable.pos.x, y = stable.pos.y - stable.size.h / 2 - 0.5 })
g:ignite(looter, "Stable")
assert(g:building("Stable").fire)
local a = g:order(hedda, { ability = "Smother", target = stable })
assert(a.did == "ability" and a.complete and a.source:find(SCRIPT, 1, true), a.source)
assert(not g:building("Stable").fire, "the fire is out")
local fire = inspect.last_event(g, "fire")
assert(fire.building == "Stable" and fire.lit == false and fire.source:find(SCRIPT, 1, true))

-- Out of reach: more than Medium away.
local g2 = village.new_game({ seed = 1, table = "empty" })
local forge = g2:building("Forge")
g2:ignite(g2:place("Goblin Looter", { x = forge.pos.x, y = forge.pos.y - forge.size.h / 2 - 0.5 }), "Forge")
local witch = g2:place("Hedda the Hedge Witch", { x = 1, y = 1 })
ok, err = pcall(g2.order, g2, witch, { ability = "Smother", target = "Forge" })
assert(not ok and tostring(err):find("out of reach"), tostring(err))
