-- Helpers for reading results and the event log from a script or the REPL: which modifiers one script
-- added to a combat result (and the answers a probing script gave through them), the events of a kind,
-- and the latest one. Plain Lua over the tables the API
-- returns; nothing here changes a game.
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

--- The answers a probing script gave as the reasons of its modifiers, each reading "name: answer", as a
--- table from name to answer (the modifiers of `result` whose source names `script`).
function M.answers(result, script)
	local found = {}
	for _, m in ipairs(M.modifiers_from(result, script)) do
		local name, answer = m.reason:match("^(%S+): (.*)$")
		if name then
			found[name] = answer
		end
	end
	return found
end

--- The first line of an error (or any value) as text, at most `max` bytes (an error raised through a
--- protected call carries its traceback after the first line).
function M.first_line(text, max)
	return (tostring(text):match("^[^\n]*")):sub(1, max or 400)
end

--- Every event of `kind` in the game's log, in order, that `pred` (if given) accepts.
function M.events(game, kind, pred)
	local found = {}
	for _, e in ipairs(game:log()) do
		if e.event == kind and (pred == nil or pred(e)) then
			found[#found + 1] = e
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
