-- Fire Breath (SUPPLEMENT §8, the Young Dragon's Alpha Rule): one action, and its one attack of the turn
-- (core §3.2): every enemy within `within` (Short) in front of it — the half of the table it faces when
-- it turns on its target — is attacked at Combat `combat`, and one adjacent intact building without a
-- fire gets a fire token. Rulings: "every model" is every model of the other side (the Dragon does not
-- burn its own Group); the building is the first adjacent one in roster order.
local function in_reach(ctx, self)
	local short = ctx:rule("measures", ctx.params.within)
	local found = {}
	for _, m in ipairs(ctx:models()) do
		if m.side ~= self.side and ctx:distance_to(self, m) <= short then
			found[#found + 1] = m
		end
	end
	return found
end

return {
	actions = {
		["Fire Breath"] = {
			attack = true,
			targets = function(ctx, self)
				-- The nearest enemy within reach: the Dragon turns on it.
				local best, best_d
				for _, m in ipairs(in_reach(ctx, self)) do
					local d = ctx:distance_to(self, m)
					if best == nil or d < best_d then
						best, best_d = m, d
					end
				end
				return { best }
			end,
			can = function(ctx, self, target)
				if target == nil or target.id == nil then
					return "Fire Breath needs a model to turn on"
				elseif ctx:distance_to(self, target) > ctx:rule("measures", ctx.params.within) then
					return "it is out of the breath's reach"
				end
				return true
			end,
			run = function(ctx, self, target)
				local fx, fy = target.pos.x - self.pos.x, target.pos.y - self.pos.y
				for _, m in ipairs(in_reach(ctx, self)) do
					local dx, dy = m.pos.x - self.pos.x, m.pos.y - self.pos.y
					if dx * fx + dy * fy >= 0 then
						ctx:attack(self, m, ctx.params.combat, "Fire Breath")
					end
				end
				local fires = ctx.params.fire_tokens
				for _, b in ipairs(ctx:buildings()) do
					local adjacent = ctx:distance_to(self, b) <= ctx:rule("bases", "contact_tolerance")
					if fires > 0 and adjacent and not b.destroyed and not b.fire then
						ctx:ignite(b)
						fires = fires - 1
					end
				end
			end,
		},
	},
}
