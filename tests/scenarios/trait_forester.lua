-- Forester (SUPPLEMENT §9, core §3.3; scripts/traits/forester.lua): the `movement` hook makes woods not
-- difficult terrain for the model; other difficult terrain (a field) still costs it a band. The kernel
-- does not log which script shaped a move, so this scenario compares Wren the Scout (Long Move,
-- Forester) with a Dire Wolf (Long Move, no Forester) on the same path.
local function across(kind, name)
	local g = village.new_game({ seed = 1, table = "empty" })
	g:add_terrain(kind, { { 5, 31 }, { 7, 31 }, { 7, 35 }, { 5, 35 } })
	local model = g:place(name, { x = 2, y = 33 })
	return g:move(model, { x = 20, y = 33 })
end

-- Through a wood Wren keeps her Long band (9"); the Wolf drops to Medium (6").
local m = across("wood", "Wren the Scout")
assert(m.band_lost == nil and math.abs(m.travelled - 9) < 1e-9, m.travelled)
m = across("wood", "Dire Wolf")
assert(m.band_lost ~= nil and m.band_lost:find("wood"), tostring(m.band_lost))
assert(math.abs(m.travelled - 6) < 1e-9, m.travelled)

-- A field is difficult for both: Wren drops to Medium too.
m = across("field", "Wren the Scout")
assert(m.band_lost ~= nil and m.band_lost:find("field"), tostring(m.band_lost))
assert(math.abs(m.travelled - 6) < 1e-9, m.travelled)

-- The log names the script whose movement properties applied.
local g = village.new_game({ seed = 1, table = "empty" })
local wren = g:place("Wren the Scout", { x = 2, y = 33 })
g:move(wren, { x = 20, y = 33 })
local last = g:log()[#g:log()]
local named = false
for _, source in ipairs(last.traits or {}) do
	named = named or source:find("scripts/traits/forester.lua", 1, true) ~= nil
end
assert(last.event == "moved" and named)
