-- The random hero policy, the floor of the strength ladder (README, "Strength"): every decision is drawn
-- uniformly from the legal ones, with `math.random` (the game's own seeded stream, so a game is the same
-- for the same seed). An activation rolls one, two or three dice; an action is one of the orders the
-- rules allow now — strike an enemy in contact (plain or a Power Blow), shoot an enemy it may shoot
-- (plain or aimed), move toward any enemy or any standing building, claim a token in contact — or
-- nothing. It buys nothing at the Council and takes the default deployment and Blessing.
local A = require("lib.act")
local VA = require("lib.village_abilities")

local function pick(list)
	if #list == 0 then
		return nil
	end
	return list[math.random(#list)]
end

local function act(ctx, self)
	local orders = { false } -- doing nothing is a choice too
	local attack = A.may_attack(ctx, self)
	local two = self.actions_left >= 2
	for _, e in ipairs(ctx:engaged(self)) do
		if attack then
			orders[#orders + 1] = { melee = e }
			if two then
				orders[#orders + 1] = { melee = e, power_blow = true }
			end
		end
	end
	for _, e in ipairs(ctx:models({ side = "enemies" })) do
		if attack and self.weapon and ctx:can_shoot(self, e) then
			orders[#orders + 1] = { shoot = e }
			if two then
				orders[#orders + 1] = { shoot = e, aimed = true }
			end
		end
		orders[#orders + 1] = { move = e }
	end
	for _, b in ipairs(ctx:buildings({ standing = true })) do
		orders[#orders + 1] = { move = b }
	end
	for _, t in ipairs(ctx:tokens("opportunity")) do
		if ctx:distance_to(self, t) <= 0.05 then
			orders[#orders + 1] = { claim = t }
		end
	end
	local o = pick(orders)
	if not o then
		return nil, "it drew doing nothing"
	end
	return o, "drawn uniformly from the legal orders"
end

return {
	deploy = VA.deploy,
	blessing = VA.blessing,
	activate = function(ctx, self)
		return { dice = math.random(3) }, "dice drawn uniformly from 1 to 3"
	end,
	act = act,
	council = function(ctx, info)
		return {}
	end,
}
