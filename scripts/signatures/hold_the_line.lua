-- Hold the Line (SUPPLEMENT §8, Captain Maren): `per_wave` times a wave, when an Enemy Group activates,
-- heroes and Village Defenders within `within` (Medium) of her get +`modifier` Combat against it for
-- that activation. The kernel tells her each time the other side is about to roll
-- (`on_opponent_activation`); she calls it when the Group can reach someone she covers this activation
-- (one of its models within Long of them), and the kernel grants the bonus until the activation ends.
-- Once her uses are spent, she tells the kernel she is done for the wave (`ctx:done_for_wave`).
local uses = require("lib.uses")

return {
	on_opponent_activation = function(ctx, self, group)
		if #group == 0 or group[1].side ~= "enemies" then
			return
		end
		local key = uses.next(ctx, "wave:Hold the Line:" .. self.name, ctx.params.per_wave)
		if key == nil then
			-- Spent for the wave: no need to hear the other Groups activate until the next one.
			ctx:done_for_wave()
			return
		end
		local aura = ctx:rule("measures", ctx.params.within)
		local reach = ctx:rule("measures", "long")
		local covered, threatened = {}, false
		local friends = ctx:models({ side = "heroes" })
		for i, d in ipairs(ctx:distances_from(self, friends)) do
			if d <= aura then
				local friend = friends[i]
				covered[#covered + 1] = friend.id
				-- Once one covered friend is within reach, the rest only need covering.
				if not threatened then
					for _, e in ipairs(ctx:distances_to(group, friend)) do
						if e <= reach then
							threatened = true
						end
					end
				end
			end
		end
		if not threatened then
			return
		end
		local against = {}
		for _, enemy in ipairs(group) do
			against[#against + 1] = enemy.id
		end
		ctx:spend(key)
		ctx:grant({
			models = covered,
			against = against,
			value = ctx.params.modifier,
			reason = "Hold the Line",
		})
	end,
}
