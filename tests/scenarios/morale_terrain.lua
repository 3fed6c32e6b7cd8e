-- Compelled movement uses terrain penalties (core §3.6: "Fleeing movement uses the shortest legal route
-- and terrain penalties"): a band of fall-back that would enter difficult terrain covers one band less,
-- as a move action does (§3.3). A wood lies across the orc's shortest way to the south edge.
local I = require("lib.inspect")

local function fall_back(with_wood)
	local g = village.new_game({ seed = 5, table = "empty" })
	if with_wood then
		g:add_terrain("wood", { { 5, 5 }, { 15, 5 }, { 15, 6 }, { 5, 6 } })
	end
	local orc = g:place("Orc Warrior", { x = 10, y = 8 })
	g:force_dice({ 1, 6, 6 }) -- one failure: one band toward the nearest edge
	local r = g:morale(orc, "terror")
	assert(r.failures == 1 and r.result == "fell_back", r.result)
	return r.moved, orc.pos, I.last_event(g, "morale").detail
end

local open_moved, open_pos = fall_back(false)
assert(math.abs(open_moved - 6) < 1e-9, "a Medium band in the open: " .. open_moved)
assert(math.abs(open_pos.y - 2) < 1e-9, "straight south: " .. open_pos.y)
local wood_moved, wood_pos, words = fall_back(true)
assert(math.abs(wood_moved - 3) < 1e-9, "a Short band through the wood: " .. wood_moved)
assert(math.abs(wood_pos.y - 5) < 1e-9, "stopped short: " .. wood_pos.y)
assert(words:find("one band less as it enters difficult wood", 1, true), words)
