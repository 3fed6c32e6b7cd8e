-- The optional rule of the rulebook's introduction: "For a harder game, the players also lose if every
-- hero is Defeated at the same time; Defenseless heroes do not trigger this rule." One rule constant.
return {
	name = "The party's defeat is a loss",
	description = "The players also lose when every hero is Defeated (Fled and Defenseless heroes do not count).",
	rules = {
		wave = { party_defeated_loss = true },
	},
}
