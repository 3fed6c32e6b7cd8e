-- Hold the bridge (scenarios/hold_the_bridge.toml): the crossing is decided early when one side leads
-- by 6 VP at the end of a round, and every enemy removed once the last Group has come counts the
-- bridge held for good.
return {
	on_victory_check = function(ctx, check)
		if check.turn ~= "enemies" then
			return nil
		end
		local heroes, enemies = ctx:vp("heroes"), ctx:vp("enemies")
		if heroes - enemies >= 6 then
			return "win", "the bridge held: a lead of " .. (heroes - enemies) .. " VP"
		end
		if enemies - heroes >= 6 then
			return "loss", "the bridge fell: the enemy leads by " .. (enemies - heroes) .. " VP"
		end
		return nil
	end,
}
