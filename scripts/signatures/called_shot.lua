-- Called Shot (SUPPLEMENT §8, Tobin the Marksman): he ignores the closest-target rule, and `per_wave`
-- Aimed Shots per wave cost `aimed_shot_cost` actions instead of the rulebook's two. The kernel asks
-- `order_cost` before an order and spends the use ("wave:Called Shot:<hero>#1") once the shot is taken.
local uses = require("lib.uses")

return {
	permissions = { ignore_closest_target = true },
	order_cost = function(ctx, self, order)
		if order.kind ~= "aimed_shot" then
			return nil
		end
		local key = uses.next(ctx, "wave:Called Shot:" .. self.name, ctx.params.per_wave)
		if key then
			return { cost = ctx.params.aimed_shot_cost, spend = key, reason = "Called Shot" }
		end
	end,
}
