-- The threat track: Heroes of the Village's Illager path in this game's terms. A threat marker starts
-- on space 9 of rosters/tracks.toml's `threat` track (11 under an easier preset: `tracks = { threat =
-- 11 }`), counted from the village (0). At the end of each enemy turn it moves one space toward the
-- village on a D6 of `advance_on` or more, and `per_destroyed` spaces more for each building Destroyed
-- that turn. When it reaches the village, the game is lost (cause `threat_track`): the kernel ends the
-- game when a marker reaches its track's `loses_at` space. The numbers are the track's `params`.
return {
	name = "Threat track",
	description = "A threat marker closes on the village each enemy turn (D6 4+, and one space per building Destroyed); when it arrives, the village falls.",
	tracks = { "threat" },
	on_enemy_turn_end = function(ctx, turn)
		local params = ctx:track_info("threat").params
		local steps = #turn.destroyed * params.per_destroyed
		if ctx:roll(1, "threat marker")[1] >= params.advance_on then
			steps = steps + 1
		end
		if steps > 0 then
			local why = "the threat closes in"
			if #turn.destroyed > 0 then
				why = why .. " (" .. table.concat(turn.destroyed, ", ") .. " Destroyed)"
			end
			ctx:advance_track("threat", -steps, why)
		end
	end,
}
