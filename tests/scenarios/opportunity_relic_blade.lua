-- Relic Blade (SUPPLEMENT §7, roll 6; scripts/opportunities/relic_blade.lua): a hero in contact claims the
-- token, the die gives 6, and the hero carries a Relic Blade whose script adds +1 Combat to its melee
-- rolls for the rest of the game — once per hero: a second Relic Blade for the same hero adds nothing.
local inspect = require("lib.inspect")
local SCRIPT = "opportunities/relic_blade.lua"

local g = village.new_game({ seed = 1, table = "empty" })
local bram = g:place("Bram the Smith", { x = 10, y = 10 })
local orc = g:place("Orc Warrior", { x = 11, y = 10 })
local tok = g:opportunity({ x = 10, y = 9.5 })

g:force_dice({ 6 })
local a = g:order(bram, { claim = tok })
assert(a.did == "claimed" and a.roll == 6 and a.opportunity == "Relic Blade", a.opportunity)
assert(bram.items[1] == "Relic Blade" and #bram.items == 1)
local claimed = inspect.last_event(g, "claimed")
assert(claimed.hero == bram.id and claimed.token == tok and claimed.roll == 6)
assert(claimed.result == "Relic Blade" and claimed.source:find(SCRIPT, 1, true), claimed.source)
local gained = inspect.last_event(g, "item_gained")
assert(gained.item == "Relic Blade" and gained.source:find(SCRIPT, 1, true), gained.source)
-- The token is gone: claiming it again is refused.
local ok, err = pcall(g.order, g, bram, { claim = tok })
assert(not ok and tostring(err):find("no Opportunity token"), tostring(err))

-- In melee the blade's script adds +1 to Bram's total, named as its source.
g:force_dice({ 3, 3 })
local r = g:melee(bram, orc)
local mods = inspect.modifiers_from(r, SCRIPT)
assert(#mods == 1 and mods[1].value == 1 and mods[1].to == "attacker", #mods)
assert(mods[1].reason == "Relic Blade")
assert(r.attacker_total == 3 + 4 + 1, r.attacker_total)

-- As defender too ("+1 Combat in melee").
local orc2 = g:place("Orc Warrior", { x = 10, y = 11 })
g:force_dice({ 3, 3 })
r = g:melee(orc2, bram)
mods = inspect.modifiers_from(r, SCRIPT)
assert(#mods == 1 and mods[1].to == "defender", #mods)

-- Once per hero: a second Relic Blade for Bram is claimed but gives nothing more.
local tok2 = g:opportunity({ x = 10.5, y = 10 })
g:force_dice({ 6 })
a = g:order(bram, { claim = tok2 })
assert(a.did == "claimed" and a.opportunity == "Relic Blade")
assert(#bram.items == 1, "no second blade")
local orc3 = g:place("Orc Warrior", { x = 9, y = 10 })
g:force_dice({ 3, 3 })
r = g:melee(bram, orc3)
assert(#inspect.modifiers_from(r, SCRIPT) == 1, "the bonus does not stack")

-- Another hero may have its own.
local maren = g:place("Captain Maren", { x = 30, y = 4 })
local tok3 = g:opportunity({ x = 30.5, y = 4 })
g:force_dice({ 6 })
g:order(maren, { claim = tok3 })
assert(maren.items[1] == "Relic Blade")
