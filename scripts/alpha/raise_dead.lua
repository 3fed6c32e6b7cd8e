-- Raise Dead (SUPPLEMENT §8, the Lich's Alpha Rule): a Ritual, a Task of `task_actions` actions: a
-- `profile` (Skeleton Warrior) rises at the nearest free spot within `within` (Short) of the Lich and
-- joins its side and Group; it vanishes if the Lich is Defeated (a Summoning, core §3.7). Like any
-- spell it cannot be worked while the Lich is Engaged (core §3.7).
return {
	actions = {
		["Raise Dead"] = {
			task = function(ctx)
				return ctx.params.task_actions
			end,
			can = function(ctx, self)
				if self.engaged then
					return "the Lich is Engaged"
				end
				return true
			end,
			run = function(ctx, self)
				ctx:summon_near(self, ctx.params.profile, ctx.params.within)
			end,
		},
	},
}
