-- Warcry (SUPPLEMENT §8, the Orc Warlord's Alpha Rule): `per_wave` times a wave, its Group rerolls its
-- activation dice. The kernel shows every activation roll to the activating models' scripts
-- (`on_activation_roll`); the Warlord calls for the reroll when its Group's roll would give no action or
-- end the enemy turn (two failures).
local uses = require("lib.uses")

local function mine(self, roll)
	for _, m in ipairs(roll.models) do
		if m.id == self.id then
			return true
		end
	end
	return false
end

return {
	on_activation_roll = function(ctx, self, roll)
		if not mine(self, roll) then
			return nil
		end
		local failures = 0
		for _, face in ipairs(roll.dice) do
			if face < roll.quality then
				failures = failures + 1
			end
		end
		if failures < 2 and failures < #roll.dice then
			return nil
		end
		local key = uses.next(ctx, "wave:Warcry:" .. self.id, ctx.params.per_wave)
		if key then
			return { reroll = "all", spend = key, reason = "Warcry" }
		end
		-- Spent for the wave: no need to see the rolls until the next one (ctx:done_for_wave).
		ctx:done_for_wave()
	end,
}
