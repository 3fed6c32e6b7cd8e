--! mod: tests/fixtures/pathfinder_mod
-- Pathfinder (SUPPLEMENT §8; scripts/signatures/pathfinder.lua): Wren claims an Opportunity during a
-- move without ending it, and sees Opportunity results before claiming. Her script holds
-- `claim_on_move` and `peek_opportunity`; the kernel asks her `on_pass_token` about each token her move
-- passes, she peeks (`ctx:peek`: the token's die is rolled now and kept on it) and claims on the way
-- unless the result is an Ambush. A claim of a peeked token reads the kept roll.
local inspect = require("lib.inspect")
local SCRIPT = "signatures/pathfinder.lua"

local function events(g, kind, rule)
	local found = {}
	for _, e in ipairs(g:log()) do
		if e.event == kind and (rule == nil or e.rule == rule) then
			found[#found + 1] = e
		end
	end
	return found
end

-- 1. A Herb Patch on her way: she peeks (die 3), claims it on the move, and goes on to the end of her
-- Long move (9"): one action, the move not ended.
local g = village.new_game({ seed = 1, table = "empty" })
local wren = g:place("Wren the Scout", { x = 4, y = 4 })
local patch = g:opportunity({ x = 7, y = 4.3 }) -- 0.3" off her line: her base touches it
g:force_dice({ 3 })
local done = g:orders(wren, 1, { { move = { x = 12, y = 4 } } })
assert(#done == 1 and done[1].did == "moved", "one action: the move")
-- A move toward a point ends with the base's edge on it: 7.5" on, well past the token at x = 7.
assert(done[1].travelled == 7.5 and wren.pos.x == 11.5, "the move went on to its end: " .. wren.pos.x)
local claimed = inspect.last_event(g, "claimed")
assert(claimed and claimed.token == patch and claimed.roll == 3 and claimed.result == "Herb Patch")
assert(g:log_json():find('"herbs_gained"', 1, true), "the Herb Patch's reward was applied")
local peeked = events(g, "rule_bent", "peek_opportunity")
assert(#peeked == 1 and peeked[1].source:find(SCRIPT, 1, true), "the peek names the signature")
local on_move = events(g, "rule_bent", "claim_on_move")
assert(#on_move == 1 and on_move[1].source:find(SCRIPT, 1, true), "the claim on the move names it")
assert(on_move[1].detail:find("on the move", 1, true), on_move[1].detail)
-- One Opportunity die for the token, rolled by the peek (the claim read it).
local dice = 0
for _, e in ipairs(events(g, "roll")) do
	if e.purpose == "opportunity" then
		dice = dice + 1
	end
end
assert(dice == 1, "one Opportunity die, not " .. dice)

-- 2. An Ambush on her way: she sees it and leaves it lying; the token keeps its roll. Bram claims it
-- later by walking up and spending an action: the kept die (1, Ambush) is read, not a new roll.
local ambush = g:opportunity({ x = 15, y = 4 })
g:force_dice({ 1 })
g:orders(wren, 1, { { move = { x = 20, y = 4 } } })
assert(wren.pos.x == 19.5, "she went past: " .. wren.pos.x)
assert(#events(g, "claimed") == 1, "no second claim")
assert(#events(g, "rule_bent", "peek_opportunity") == 2, "she peeked at it")
local bram = g:place("Bram the Smith", { x = 15, y = 4.5 }) -- in base contact with the token
g:force_dice({ 6 })
local a = g:order(bram, { claim = ambush })
assert(a.did == "claimed" and a.roll == 1 and a.opportunity == "Ambush", a.opportunity)
-- The forced 6 is still waiting: the claim rolled nothing.
assert(g:activate(bram, 1).dice[1] == 6, "the claim used the kept roll")

-- 3. Without the signature, a hero passing a token claims nothing.
local g2 = village.new_game({ seed = 1, table = "empty" })
local maren = g2:place("Captain Maren", { x = 4, y = 4 })
local tok = g2:opportunity({ x = 7, y = 4 })
g2:order(maren, { move = { x = 10, y = 4 } })
assert(#events(g2, "claimed") == 0 and #events(g2, "rule_bent") == 0, "Maren has no Pathfinder")
local lying = false
for _, e in ipairs(g2:log()) do
	lying = lying or (e.event == "claimed" and e.token == tok)
end
assert(not lying)

-- 4. Only a model holding `peek_opportunity` may peek: the fixture hero claims on the move, and its
-- script peeks without the right: a clear error naming the permission and the script.
local g3 = village.new_game({ seed = 1, table = "empty" })
local nosy = g3:place("Nosy Scout", { x = 4, y = 4 })
g3:opportunity({ x = 6, y = 4 })
local ok, err = pcall(g3.order, g3, nosy, { move = { x = 10, y = 4 } })
assert(not ok, "the peek is refused")
assert(tostring(err):find("peek_opportunity", 1, true), tostring(err))
assert(tostring(err):find("nosy.lua", 1, true), tostring(err))
assert(nosy.pos.x == 4 and #events(g3, "roll") == 0, "the failed move is undone: nothing half-applied")
print("Pathfinder works")
