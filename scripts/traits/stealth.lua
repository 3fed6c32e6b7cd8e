-- Stealth (SUPPLEMENT §9; Song of Blades: "As long as figure is adjacent to scenery that gives Cover,
-- the model cannot be targeted by Ranged attacks, unless it's a Magic weapon"): it cannot be shot while
-- its base touches a piece of Cover terrain (params.cover: wood, wall, hedge, SUPPLEMENT §2). Spells
-- still target it.
return {
	permissions = function(ctx, self)
		return { cannot_be_shot = ctx:touching_terrain(self, ctx.params.cover) }
	end,
}
