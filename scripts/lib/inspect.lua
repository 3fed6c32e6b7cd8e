-- Helpers for reading results and the event log from a script or the REPL: which modifiers one script
-- added to a combat result, and the latest event of a kind. Plain Lua over the tables the API returns;
-- nothing here changes a game.
local M = {}

--- The modifiers of a combat result (`g:melee`, `g:shoot`, ...) whose source names `script`
--- (a path such as "scripts/traits/big.lua"), in the order they were applied.
function M.modifiers_from(result, script)
	local found = {}
	for _, m in ipairs(result.modifiers) do
		if m.source:find(script, 1, true) then
			table.insert(found, m)
		end
	end
	return found
end

--- The latest event of `kind` ("combat", "morale", ...) in the game's log, or nil.
function M.last_event(game, kind)
	local found
	for _, e in ipairs(game:log()) do
		if e.event == kind then
			found = e
		end
	end
	return found
end

return M
