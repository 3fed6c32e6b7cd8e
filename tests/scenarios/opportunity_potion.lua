-- Potion of Healing (SUPPLEMENT §7, roll 4; core §3.7; scripts/opportunities/potion_of_healing.lua): the
-- hero carries a Potion; a `{ use = "Potion of Healing" }` order (1 action) clears one condition or, with
-- none, heals one Wound through the kernel's healing, then the Potion is gone.
local inspect = require("lib.inspect")
local SCRIPT = "opportunities/potion_of_healing.lua"

local g = village.new_game({ seed = 4, table = "empty" })
local tobin = g:place("Tobin the Marksman", { x = 10, y = 10 })
local tok = g:opportunity({ x = 10.5, y = 10 })
g:force_dice({ 4 })
local a = g:order(tobin, { claim = tok })
assert(a.opportunity == "Potion of Healing")
assert(tobin.items[1] == "Potion of Healing")
assert(inspect.last_event(g, "item_gained").source:find(SCRIPT, 1, true))

-- Unhurt, the Potion has nothing to do: the use is refused and the Potion kept.
local ok, err = pcall(g.order, g, tobin, { use = "Potion of Healing" })
assert(not ok and tostring(err):find("nothing to do"), tostring(err))
assert(#tobin.items == 1)

-- Wounded (9 against 4: doubled, Tough → a Wound) and Defenseless: the condition goes first.
local orc = g:place("Orc Warrior", { x = 11, y = 10 })
g:force_dice({ 6, 1 })
g:melee(orc, tobin)
assert(tobin.wounds == 1, tobin.wounds)
g:add_condition(tobin, "defenseless")
a = g:order(tobin, { use = "Potion of Healing" })
assert(a.did == "used" and a.item == "Potion of Healing" and a.complete)
assert(not tobin:has("defenseless") and tobin.wounds == 1)
assert(#tobin.items == 0, "used up")
local used = inspect.last_event(g, "item_used")
assert(used.model == tobin.id and used.source:find(SCRIPT, 1, true), used.source)
assert(inspect.last_event(g, "healed").model == tobin.id)
ok, err = pcall(g.order, g, tobin, { use = "Potion of Healing" })
assert(not ok and tostring(err):find("carries no Potion of Healing"), tostring(err))

-- A second Potion heals the Wound.
local tok2 = g:opportunity({ x = 9.5, y = 10 })
g:force_dice({ 4 })
g:order(tobin, { claim = tok2 })
local q = tobin.quality
g:order(tobin, { use = "Potion of Healing" })
assert(tobin.wounds == 0 and tobin.quality == q - 1, tobin.quality)
