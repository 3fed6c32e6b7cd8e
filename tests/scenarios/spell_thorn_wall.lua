-- Thorn Wall (SUPPLEMENT §9) through g:cast and scripts/spells/thorn_wall.lua: a 3" linear obstacle
-- (rosters/spells.toml `wall`) that costs a model crossing it a band, held by its caster: it falls when
-- the caster leaves the table.
local g = village.new_game({ seed = 1, table = "empty" })
local hedda = g:place("Hedda the Hedge Witch", { x = 5, y = 30 })

-- Power 1 (Short): an end 7.5" away is out of reach; the cast is refused and leaves no token.
local ok, err = pcall(g.cast, g, hedda, "Thorn Wall", 1, nil, { from = { 13, 28 }, to = { 13, 33 } })
err = tostring(err)
assert(not ok and err:find('Power 1 reaches 3"', 1, true), err)

-- Power 2 (Medium): from (8, 28) toward (8, 33), it takes the roster's 3" length.
local r = g:cast(hedda, "Thorn Wall", 2, nil, { from = { 8, 28 }, to = { 8, 33 } })
assert(r.source == "scripts/spells/thorn_wall.lua" and math.type(r.result) == "integer")
local raised
for _, e in ipairs(g:log()) do
	if e.event == "wall_raised" then
		raised = e
	end
end
assert(raised.token == r.result and raised.caster == hedda.id and raised.spell == "Thorn Wall")

-- An orc crossing it moves a band less: Short (3") instead of Medium.
local orc = g:place("Orc Warrior", { x = 12, y = 29 })
local m = g:move(orc, { x = 0.5, y = 29 })
assert(math.abs(m.travelled - 3) < 1e-9, "travelled " .. m.travelled)
assert(m.band_lost ~= nil)

-- Hedda is Defeated: the wall falls, and the orc moves a full Medium.
g:remove(hedda, "defeated")
m = g:move(orc, { x = 0.5, y = 29 })
assert(math.abs(m.travelled - 6) < 1e-9 and m.band_lost == nil, "travelled " .. m.travelled)

-- Without `from` and `to` the script refuses, naming its line.
local hedda2 = g:place("Hedda the Hedge Witch", { x = 30, y = 5 })
ok, err = pcall(g.cast, g, hedda2, "Thorn Wall", 1, nil)
err = tostring(err)
assert(not ok and err:find("scripts/spells/thorn_wall.lua:%d+: Thorn Wall needs opts.from"), err)
