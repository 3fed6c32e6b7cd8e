-- Smother (SUPPLEMENT §8, Hedda the Hedge Witch): one action, remove the fire token from a building
-- within `within` (Medium). Ordered `{ ability = "Smother", target = building }`.
return {
	actions = {
		Smother = {
			-- The burning buildings within reach, the Town Hall first (roster order).
			targets = function(ctx, self)
				local found = {}
				-- The kernel lists only the burning ones (most of the time there are none).
				for _, b in ipairs(ctx:buildings({ burning = true })) do
					if ctx:distance_to(self, b) <= ctx:rule("measures", ctx.params.within) then
						found[#found + 1] = b
					end
				end
				return found
			end,
			can = function(ctx, self, b)
				if b == nil or b.name == nil then
					return "Smother needs a building"
				elseif not b.fire then
					return "the " .. b.name .. " is not burning"
				elseif ctx:distance_to(self, b) > ctx:rule("measures", ctx.params.within) then
					return "the " .. b.name .. " is out of reach"
				end
				return true
			end,
			run = function(ctx, self, b)
				ctx:extinguish(b)
			end,
		},
	},
}
