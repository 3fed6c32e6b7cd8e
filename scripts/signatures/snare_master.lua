-- Snare Master (SUPPLEMENT §8, Grimm the Trapper): one free Trap each Council Phase, and his Traps
-- Entangle instead of attacking. As each Council opens the kernel asks every model on the table
-- (`on_council`); while Grimm stands he grants `params.free_traps` free Traps for this Council, which
-- the policy orders `{ trap = at, free = true }`. A Trap placed with the grant Entangles the enemy that
-- springs it without a roll (SUPPLEMENT §11), and its `trap` event names this script and has no dice.
-- (Traps the village buys stay the rulebook's.)
return {
	on_council = function(ctx, self)
		return { free = "trap", uses = ctx.params.free_traps, entangle = true, reason = "Snare Master" }
	end,
}
