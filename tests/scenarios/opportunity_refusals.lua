--! mod: tests/fixtures/opportunity_mod
-- Who may claim an Opportunity (core §6.1): a hero in base contact with the token. A Village Defender
-- ("they cannot claim Opportunities"), an Animal (SUPPLEMENT §9, the permission its trait script grants)
-- and an enemy may not; a hero out of contact may not; a token that is not on the table cannot be
-- claimed. Each refusal names the reason and changes nothing: no die, no event, the token stays.
local g = village.new_game({ seed = 6, table = "empty" })
local bram = g:place("Bram the Smith", { x = 10, y = 10 })
local archer = g:place("Village Archer", { x = 20, y = 4 })
local bear = g:place("Bear Companion", { x = 30, y = 4 })
local orc = g:place("Orc Warrior", { x = 4, y = 20 })
local near_bram = g:opportunity({ x = 10.5, y = 10 })
local near_archer = g:opportunity({ x = 20.5, y = 4 })
local near_bear = g:opportunity({ x = 30.5, y = 4 })
local near_orc = g:opportunity({ x = 4.5, y = 20 })
local far = g:opportunity({ x = 15, y = 10 })

local function refused(model, order, why)
	local before = #g:log()
	local ok, err = pcall(g.order, g, model, order)
	assert(not ok, "refused: " .. why)
	assert(tostring(err):find(why, 1, true), tostring(err))
	assert(#g:log() == before, "nothing logged, no die rolled")
end

g:force_dice({ 6 })
refused(bram, { claim = far }, "not in contact with Opportunity token " .. far)
refused(archer, { claim = near_archer }, "a Village Defender is not a hero")
refused(bear, { claim = near_bear }, "an Animal")
refused(orc, { claim = near_orc }, "only heroes do")
refused(bram, { claim = 99 }, "no Opportunity token 99")
refused(bram, { claim = "token" }, 'claim = "token"')
-- The forced die is still waiting: the first legal claim takes it.
local a = g:order(bram, { claim = near_bram })
assert(a.roll == 6 and a.opportunity == "Relic Blade")
-- A Barricade is a token but not an Opportunity.
local bar = g:barricade({ x = 10, y = 11 }, { x = 13, y = 11 })
refused(bram, { claim = bar }, "no Opportunity token")

-- Items: an Animal cannot carry or use them, a Village Defender neither.
refused(bear, { use = "Potion of Healing" }, "an Animal")
refused(archer, { use = "Potion of Healing" }, "Village Defender")
refused(bram, { use = "Potion of Healing" }, "carries no Potion of Healing")

-- A result's script that fails undoes the whole claim: no Herb, the token back, the die back in the queue.
local tobin = g:place("Tobin the Marksman", { x = 30, y = 20 })
local cursed = g:opportunity({ x = 30.5, y = 20 })
local before = #g:log()
g:force_dice({ 3 })
local ok, err = pcall(g.order, g, tobin, { claim = cursed })
assert(not ok and tostring(err):find("the patch is cursed", 1, true), tostring(err))
assert(tostring(err):find("cursed_patch.lua", 1, true), "the error names the script")
assert(g.herbs == 0 and #g:log() == before)
local ok2 = pcall(g.order, g, tobin, { claim = cursed })
assert(not ok2, "the same forced 3 again")
