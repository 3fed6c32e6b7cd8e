-- Limited uses ("once per wave", "once per game") as keys of the game's spent list: a script with
-- `per_wave = n` owns the keys "<base>#1" .. "<base>#n"; the first unspent one is the next use.
local M = {}

-- The key of the next unspent use of `base`, or nil when all `n` (default 1) are spent.
function M.next(ctx, base, n)
	for i = 1, n or 1 do
		local key = base .. "#" .. i
		if not ctx:spent(key) then
			return key
		end
	end
	return nil
end

return M
