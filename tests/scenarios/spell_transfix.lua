-- Transfix (core §3.7) through g:cast and scripts/spells/transfix.lua: resisted with one Quality die per
-- Power, held on any failure, no moving while held, and broken when the caster leaves the table.
local g = village.new_game({ seed = 1, table = "empty" })
local ilse = g:place("Sister Ilse", { x = 5, y = 30 })
local orc = g:place("Orc Warrior", { x = 10, y = 30 })
assert(g:distance(ilse, orc) == 4)

-- 4" away: Power 1 reaches Short (3"), so the kernel refuses it and nothing is logged.
local before = #g:log()
local ok, err = pcall(g.cast, g, ilse, "Transfix", 1, orc)
err = tostring(err)
assert(not ok and err:find('Power 1 reaches 3"', 1, true), err)
assert(#g:log() == before, "an illegal cast logs nothing")

-- Power 2: the orc (Q4) rolls two dice. 5 and 6 both pass: resisted.
g:force_dice({ 5, 6 })
local r = g:cast(ilse, "Transfix", 2, orc)
assert(r.spell == "Transfix" and r.power == 2 and r.complete)
assert(r.source == "scripts/spells/transfix.lua", r.source)
assert(r.result == false, "resisted")
assert(not orc:has("transfixed"))

-- 5 and 3: one failure is enough, the spell takes hold.
g:force_dice({ 5, 3 })
r = g:cast(ilse, "Transfix", 2, orc)
assert(r.result == true, "held")
assert(orc:has("transfixed"))
ok, err = pcall(g.move, g, orc, { x = 20, y = 30 })
err = tostring(err)
assert(not ok, "a Transfixed model cannot move")

-- The log: the cast names its script, then the Quality dice and the condition.
local spell, resisted
for _, e in ipairs(g:log()) do
	if e.event == "spell" then
		spell = e
	elseif e.event == "resisted" then
		resisted = e
	end
end
assert(spell.spell == "Transfix" and spell.power == 2 and spell.target == orc.id)
assert(spell.source == "scripts/spells/transfix.lua", tostring(spell.source))
assert(resisted.took_hold == true and #resisted.dice == 2)

-- The caster is Defeated: the orc breaks free at once.
g:remove(ilse, "defeated")
assert(not orc:has("transfixed"), "freed when the caster leaves")
local last = g:log(1)[1]
assert(last.event == "condition" and last.condition == "transfixed" and last.added == false)
g:move(orc, { x = 20, y = 30 })
