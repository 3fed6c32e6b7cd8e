-- Dashing (SUPPLEMENT §9; Song of Blades: "+1 to his combat score if he attacks in the same turn he
-- comes in contact with an enemy"): +melee.dashing to its own total when it attacks in melee in the
-- activation it moved into contact (the kernel's `charged` marker, which lasts only for the model's own
-- activation). A Free Hack is not an attack it makes (SUPPLEMENT §11).
return {
	melee_modifier = function(ctx, self, roll)
		if roll.role == "attacker" and not roll.free_hack and self.charged then
			return { value = ctx:rule("melee", "dashing"), reason = "Dashing" }
		end
	end,
}
