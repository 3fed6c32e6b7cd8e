-- The default hero policy and Opportunities (scripts/lib/opportunity.lua): a hero walks to a token no
-- enemy is near and claims it when its base touches it; it leaves a token an enemy stands within Long of;
-- a wounded hero drinks its Potion. Then, over whole waves with tokens placed out of the village, heroes
-- of the default party do claim Opportunities.

-- Walking to a safe token and claiming it.
local g = village.new_game({ seed = 11, table = "empty" })
local bram = g:place("Bram the Smith", { x = 3, y = 4 })
g:place("Orc Warrior", { x = 33, y = 33 }) -- far away: something to fight later
local tok = g:opportunity({ x = 3, y = 12 })
local claimed
for _ = 1, 6 do
	for _, h in ipairs(g:hero_turn()) do
		for _, a in ipairs(h.done) do
			if a.did == "claimed" then
				claimed = a
			end
		end
	end
	if claimed then
		break
	end
end
assert(claimed and claimed.token == tok, "Bram walked to the token and claimed it")
assert(#g:log() > 0 and require("lib.inspect").last_event(g, "claimed").hero == bram.id)

-- An enemy within Long of the token: the hero does not go for it.
local g2 = village.new_game({ seed = 12, table = "empty" })
local maren = g2:place("Captain Maren", { x = 3, y = 4 })
g2:place("Orc Warrior", { x = 10, y = 14 }) -- within Long of the token
g2:opportunity({ x = 3, y = 12 })
g2:force_dice({ 6, 6 })
local turn = g2:hero_turn()[1]
assert(turn.model.id == maren.id and turn.done[1].did == "moved")
assert(maren.pos.x > 3 + 1, "she went for the orc, not the token")

-- A wounded hero with a Potion drinks it before anything else.
local g3 = village.new_game({ seed = 13, table = "empty" })
local tobin = g3:place("Tobin the Marksman", { x = 10, y = 10 })
local orc = g3:place("Orc Warrior", { x = 11, y = 10 })
g3:force_dice({ 6, 1 })
g3:melee(orc, tobin)
assert(tobin.wounds == 1)
local t3 = g3:opportunity({ x = 9.5, y = 10 })
g3:force_dice({ 4 })
g3:order(tobin, { claim = t3 })
assert(tobin.items[1] == "Potion of Healing")
g3:force_dice({ 6, 6 })
local done = g3:hero_turn()[1].done
assert(done[1].did == "used" and done[1].item == "Potion of Healing", done[1].did)
assert(tobin.wounds == 0)
