-- Sanctuary (SUPPLEMENT §8, Sister Ilse): `per_game` times a game, a hero within `within` (Medium) of her
-- that would be Defeated is Defenseless instead. The kernel tells her (`on_friend_result`) when a friend
-- loses a roll and whether the result would take it off the table (a Tough hero's Wound would not, so
-- she keeps her Sanctuary for the blow that counts). Ruling: she shelters another hero, not herself.
local uses = require("lib.uses")

return {
	on_friend_result = function(ctx, self, win)
		local friend = win.friend
		if not win.would_remove or friend.kind ~= "hero" then
			return nil
		end
		if ctx:distance_to(self, friend) > ctx:rule("measures", ctx.params.within) then
			return nil
		end
		local key = uses.next(ctx, "game:Sanctuary:" .. self.name, ctx.params.per_game)
		if key == nil then
			return nil
		end
		ctx:spend(key)
		return { result = "defenseless", reason = "Sanctuary" }
	end,
}
