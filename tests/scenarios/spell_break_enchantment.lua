-- Break Enchantment (SUPPLEMENT §9) through g:cast and scripts/spells/break_enchantment.lua. An
-- Enchantment is a lasting effect of a spell of kind "enchantment"; no supplied spell is one and the
-- kernel records none, so the honest behaviour today is: the cast is checked (known spell, range,
-- sight), logged, and dispels nothing. A Transfix (a Resisted spell) is not an Enchantment and stays.
--! mod: tests/fixtures/spell_mod
local g = village.new_game({ seed = 1, table = "empty" })
local abjurer = g:place("Test Abjurer", { x = 5, y = 30 })
local ilse = g:place("Sister Ilse", { x = 10, y = 30 })
local bram = g:place("Bram the Smith", { x = 10, y = 27 })

-- Ilse is Transfixed by the Abjurer (Q3: a 1 fails).
g:force_dice({ 1, 6 })
assert(g:cast(abjurer, "Transfix", 2, ilse).result == true)
assert(ilse:has("transfixed"))

-- Out of range at Power 1.
local ok, err = pcall(g.cast, g, abjurer, "Break Enchantment", 1, ilse)
assert(not ok and tostring(err):find('Power 1 reaches 3"', 1, true), tostring(err))

-- In range: nothing to dispel.
local r = g:cast(abjurer, "Break Enchantment", 2, ilse)
assert(r.complete and r.result == nil and r.source == "scripts/spells/break_enchantment.lua")
assert(ilse:has("transfixed"), "Transfix is not an Enchantment")
local last = g:log(1)[1]
assert(last.event == "dispel" and last.target == ilse.id and last.dispelled == nil, last.event)
local spell = g:log(2)[1]
assert(spell.event == "spell" and spell.source == "scripts/spells/break_enchantment.lua")

-- Bram, with nothing on him: likewise nothing, and Ilse is still held.
r = g:cast(abjurer, "Break Enchantment", 2, bram)
assert(r.result == nil and ilse:has("transfixed"))
