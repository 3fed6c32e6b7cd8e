-- Each Enemy Group activates once a turn: the other reading of §3.1's re-nomination for the enemy turn
-- (by default a Group that failed exactly one die without a turnover activates again later that turn,
-- as §3.1 says of every model and §6.2's turns follow §3.1). One rule constant.
return {
	name = "Enemy Groups activate once a turn",
	description = "An Enemy Group that failed one die is not nominated again in the same enemy turn.",
	rules = {
		activation = { enemy_groups_renominate = false },
	},
}
