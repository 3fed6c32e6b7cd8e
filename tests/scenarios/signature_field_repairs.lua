-- Field Repairs (SUPPLEMENT §8; scripts/signatures/field_repairs.lua): a two-action Task adjacent to a
-- damaged building restores 1 Integrity, once per wave. Its `can` refuses an undamaged or distant
-- building and a second use in the wave; moving away loses the Task in progress.
local inspect = require("lib.inspect")
local SCRIPT = "signatures/field_repairs.lua"

local g = village.new_game({ seed = 1, table = "empty" })
local forge = g:building("Forge")
local bram = g:place("Bram the Smith", { x = forge.pos.x, y = forge.pos.y + forge.size.h / 2 + 0.5 })

-- Nothing to repair yet.
local ok, err = pcall(g.order, g, bram, { ability = "Field Repairs", target = "Forge" })
assert(not ok and tostring(err):find("has all its Integrity"), tostring(err))

g:damage("Forge", 2)
local before = g:building("Forge").integrity
local a = g:order(bram, { ability = "Field Repairs", target = "Forge" })
assert(a.did == "ability" and a.name == "Field Repairs" and not a.complete, "the Task is under way")
assert(a.done == 1 and a.needed == 2 and a.source:find(SCRIPT, 1, true), a.source)
assert(g:building("Forge").integrity == before, "nothing restored until the Task is complete")
a = g:order(bram, { ability = "Field Repairs", target = "Forge" })
assert(a.complete and a.done == 2, "the Task is complete")
assert(g:building("Forge").integrity == before + 1, g:building("Forge").integrity)
local repaired = inspect.last_event(g, "repaired")
assert(repaired.building == "Forge" and repaired.amount == 1 and repaired.source:find(SCRIPT, 1, true))

-- Once per wave.
ok, err = pcall(g.order, g, bram, { ability = "Field Repairs", target = "Forge" })
assert(not ok and tostring(err):find("used up this wave"), tostring(err))

-- Not adjacent: refused. And a Task is lost when he moves off.
local g2 = village.new_game({ seed = 1, table = "empty" })
local temple = g2:building("Temple")
g2:damage("Temple", 1)
local far = g2:place("Bram the Smith", { x = 1, y = 1 })
ok, err = pcall(g2.order, g2, far, { ability = "Field Repairs", target = "Temple" })
assert(not ok and tostring(err):find("not adjacent"), tostring(err))
local near = g2:place("Bram the Smith", { x = temple.pos.x, y = temple.pos.y + temple.size.h / 2 + 0.5 })
g2:order(near, { ability = "Field Repairs", target = "Temple" })
g2:move(near, { x = near.pos.x, y = near.pos.y + 3 })
g2:move(near, { x = temple.pos.x, y = temple.pos.y + temple.size.h / 2 + 0.5 })
a = g2:order(near, { ability = "Field Repairs", target = "Temple" })
assert(a.done == 1 and not a.complete, "the Task starts again after moving away")
