-- Pathfinder (SUPPLEMENT §8, Wren the Scout): she claims an Opportunity during a move without ending
-- it, and sees Opportunity results before claiming. The kernel tells her (`on_pass_token`) about each
-- Opportunity token her move passes within base contact of, because she holds `claim_on_move`; she
-- peeks at its result first (`ctx:peek`, which `peek_opportunity` allows: the die is rolled now and kept
-- on the token) and claims it on the way — no action, and the move goes on — unless the result is one
-- of `params.avoid` (the Ambush), which she leaves lying for later.
local function avoided(ctx, result)
	for _, name in ipairs(ctx.params.avoid or {}) do
		if name == result then
			return true
		end
	end
	return false
end

return {
	permissions = { claim_on_move = true, peek_opportunity = true },
	on_pass_token = function(ctx, self, token)
		return not avoided(ctx, ctx:peek(self, token))
	end,
}
