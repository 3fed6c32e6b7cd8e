-- Field Repairs (SUPPLEMENT §8, Bram the Smith): a Task of `task_actions` actions while adjacent to a
-- damaged, intact building restores `integrity` Integrity, `per_wave` times a wave. Ordered
-- `{ ability = "Field Repairs", target = building }`; the kernel keeps the Task (lost if he moves or is
-- beaten) and runs `run` once it is complete.
local uses = require("lib.uses")

local function next_use(ctx, self)
	return uses.next(ctx, "wave:Field Repairs:" .. self.name, ctx.params.per_wave)
end

return {
	actions = {
		["Field Repairs"] = {
			task = function(ctx)
				return ctx.params.task_actions
			end,
			-- The damaged buildings he stands beside (the most damaged first).
			targets = function(ctx, self)
				local found = {}
				-- The kernel lists only the damaged ones (most of the time there are none).
				local damaged = ctx:buildings({ standing = true, damaged = true })
				local touch = ctx:rule("bases", "contact_tolerance")
				for i, d in ipairs(ctx:distances_from(self, damaged)) do
					if d <= touch then
						found[#found + 1] = damaged[i]
					end
				end
				table.sort(found, function(a, b)
					local da, db = a.max_integrity - a.integrity, b.max_integrity - b.integrity
					if da ~= db then
						return da > db
					end
					return a.name < b.name
				end)
				return found
			end,
			can = function(ctx, self, b)
				if b == nil or b.name == nil then
					return "Field Repairs needs a building"
				elseif b.destroyed then
					return "the " .. b.name .. " is Destroyed"
				elseif b.integrity >= b.max_integrity then
					return "the " .. b.name .. " has all its Integrity"
				elseif ctx:distance_to(self, b) > ctx:rule("bases", "contact_tolerance") then
					return "not adjacent to the " .. b.name
				elseif next_use(ctx, self) == nil then
					return "Field Repairs is used up this wave"
				end
				return true
			end,
			run = function(ctx, self, b)
				ctx:spend(next_use(ctx, self))
				ctx:repair(b, ctx.params.integrity)
			end,
		},
	},
}
