-- The simplest planning policy (`--policy rush`): a baseline to measure the default one against, and a
-- start for a policy of your own. Each model of the heroes' side closes in on the enemy nearest it with
-- every action it has, and strikes once in contact; it never shoots, casts, heals or buys in the Council
-- Phase. It decides an activation at once (`plan`): the kernel carries the orders out and asks again only
-- when the plan breaks (the model Engaged, hurt or held, an enemy removed, an order refused).
return {
	plan = function(ctx, self)
		local engaged = ctx:engaged(self)
		if #engaged > 0 then
			if self.attacks > 0 then
				return {}, "in contact after its one attack this turn: it stays"
			end
			return { { melee = engaged[1] } }, "in contact: it strikes"
		end
		local foe = ctx:models({ side = "enemies", near = self })[1]
		if not foe then
			return {}, "no enemy"
		end
		local orders = {}
		for i = 1, self.actions_left do
			orders[i] = { move = foe }
		end
		return orders, "it closes in on the nearest enemy with every action"
	end,
}
