-- Combat Master (SUPPLEMENT §9: "ignores outnumbering"): cancels the outnumbering modifier on its own
-- total (melee.outnumbered for each enemy Engaged with it beyond the first, SUPPLEMENT §4).
-- Not modelled: Song of Blades' extra attacks per action (TVMS allows one attack per turn, core §3.2).
return {
	melee_modifier = function(ctx, self, roll)
		local extra = #ctx:engaged(self) - 1
		if extra > 0 then
			return { value = -ctx:rule("melee", "outnumbered") * extra, reason = "Combat Master" }
		end
	end,
}
