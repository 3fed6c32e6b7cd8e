-- Hex (SUPPLEMENT §8, the Goblin Shaman's Alpha Rule): `per_wave` times a wave, a hero within `within`
-- (Medium) of the Shaman rerolls its best activation die. The kernel shows the heroes' activation rolls
-- to the enemies' scripts (`on_activation_roll`); the Shaman hexes a hero whose best die succeeded.
local uses = require("lib.uses")

return {
	on_activation_roll = function(ctx, self, roll)
		local hero = roll.models[1]
		if roll.side == self.side or hero == nil or hero.kind ~= "hero" then
			return nil
		end
		local best = 0
		for _, face in ipairs(roll.dice) do
			best = math.max(best, face)
		end
		if best < roll.quality then
			return nil -- nothing to take away
		end
		if ctx:distance_to(self, hero) > ctx:rule("measures", ctx.params.within) then
			return nil
		end
		local key = uses.next(ctx, "wave:Hex:" .. self.id, ctx.params.per_wave)
		if key then
			return { reroll = "best", spend = key, reason = "Hex" }
		end
		-- Spent for the wave: no need to see the rolls until the next one (ctx:done_for_wave).
		ctx:done_for_wave()
	end,
}
