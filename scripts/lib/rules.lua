-- A game's rule constants (`ctx:rule`), each read from the kernel once per game and kept here. A game keeps
-- the rules it was created with while it is played, and every game starts with fresh module state (this
-- cache included), so a kept constant is always the one `ctx:rule` would give; reading it here costs a
-- table lookup instead of a call into the kernel. Lists (`magic.power_ranges`) are not kept: each call
-- hands out a list of its own, which a caller may change.
local R = {}

local kept = {}

--- `ctx:rule(section, key)`, read once per game.
function R.rule(ctx, section, key)
	local s = kept[section]
	if s == nil then
		s = {}
		kept[section] = s
	end
	local v = s[key]
	if v == nil then
		v = ctx:rule(section, key)
		if type(v) ~= "table" then
			s[key] = v
		end
	end
	return v
end

return R
