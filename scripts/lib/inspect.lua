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

--- How a probing script reports what a protected call gave (`pcall`'s two results): "error" and the
--- error's first line; "list [4.000,6.500]" for a list of numbers; "table n" for another table of n
--- items; else the value's type (`math.type` for a number) and the value, a float to three places.
function M.answer(ok, v)
	if not ok then
		return "error " .. M.first_line(v)
	end
	if type(v) == "table" then
		local out = {}
		for i, x in ipairs(v) do
			if math.type(x) ~= "float" then
				return "table " .. #v
			end
			out[i] = string.format("%.3f", x)
		end
		return "list [" .. table.concat(out, ",") .. "]"
	end
	if math.type(v) == "float" then
		return "float " .. string.format("%.3f", v)
	end
	return (math.type(v) or type(v)) .. " " .. tostring(v)
end

--- A probing script's report of one question: a +1 modifier whose reason is `name` and the
--- `M.answer` of calling `f` protected (`M.answers` reads it back from the result).
function M.probe(name, f)
	return { value = 1, reason = name .. ": " .. M.answer(pcall(f)) }
end

--- A scenario's checks of a probe's `answers` (from `M.answers`): `is(name, want)`, the answer is
--- exactly `want`; `refused(name, text)`, it is an error containing `text`, located at `at` (the
--- probing script's name as Lua shows it, a line number following).
function M.checks(answers, at)
	local function is(name, want)
		assert(answers[name] == want, name .. ": " .. tostring(answers[name]))
	end
	local function refused(name, text)
		local a = answers[name] or "(no answer)"
		assert(a:find("error", 1, true) == 1 and a:find(text, 1, true), name .. ": " .. a)
		assert(a:find(at, 1, true), name .. " is located at the script's line: " .. a)
	end
	return is, refused
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
