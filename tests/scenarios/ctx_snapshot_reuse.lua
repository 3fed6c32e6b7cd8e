--! mod: tests/fixtures/snapshot_memo_mod
-- Within one hook call, ctx:model and ctx:models hand out the snapshot already built for a model while
-- the game is unchanged (a policy asks for the same models many times a call), and build a fresh one
-- after anything changed it. The checks are in the mod's transfix.lua; an assertion there fails the cast.
local g = village.new_game({ seed = 1, table = "empty" })
local abjurer = g:place("Memo Abjurer", { x = 5, y = 30 })
local ilse = g:place("Sister Ilse", { x = 10, y = 30 })
g:force_dice({ 1, 6 })
local r = g:cast(abjurer, "Transfix", 2, ilse)
assert(r.result == true, "the spell took hold")
assert(ilse:has("transfixed"))
