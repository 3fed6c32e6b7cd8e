-- Raise Dead (SUPPLEMENT §8 the Lich's Alpha Rule, §9) through g:cast and scripts/spells/raise_dead.lua: a
-- Ritual of rosters/spells.toml `ritual_actions` (2) worked as a Task; when it completes a Skeleton
-- Warrior within Short joins the Lich's side, and it vanishes when the Lich is Defeated.
local g = village.new_game({ seed = 1, table = "empty" })
local lich = g:place("Lich", { x = 5, y = 5 })
local count = #g:models()

-- One action: the Task is under way, nothing is summoned, the script has not run.
local r = g:cast(lich, "Raise Dead", 1, nil, { at = { 5, 7.5 } })
assert(r.complete == false and r.result == nil)
assert(r.task.name == "Raise Dead" and r.task.done == 1 and r.task.needed == 2)
assert(#g:models() == count)

-- The second action completes it, but 5.5" away is beyond Short: the script's summon is refused and the
-- whole call is undone (the Task is still at 1 of 2).
local ok, err = pcall(g.cast, g, lich, "Raise Dead", 1, nil, { at = { 5, 12 } })
err = tostring(err)
assert(
	not ok and err:find('must be within 3"', 1, true) and err:find("scripts/spells/raise_dead.lua:", 1, true),
	err
)
assert(#g:models() == count)

-- Within Short: the Task completes and the Skeleton Warrior rises on the Lich's side.
r = g:cast(lich, "Raise Dead", 1, nil, { at = { 5, 7.5 } })
assert(r.complete and r.task.done == 2 and r.task.complete)
local sk = r.result
assert(sk.name == "Skeleton Warrior" and sk.side == lich.side and sk:has_trait("Undead"))
assert(#g:models() == count + 1)
local skeleton = g:model(sk.id)
assert(skeleton.pos.y == 7.5)
local seen = {}
for _, e in ipairs(g:log()) do
	seen[e.event] = e
end
assert(seen.spell.source == "scripts/spells/raise_dead.lua")
assert(seen.summoned.model == sk.id and seen.summoned.caster == lich.id)
assert(seen.task_progress.complete == true)

-- Two actions at once complete the Ritual in one call.
local lich2 = g:place("Lich", { x = 30, y = 5 })
r = g:cast(lich2, "Raise Dead", 2, nil, { at = { 30, 7.5 } })
assert(r.complete and r.task.done == 2)

-- The Lich is Defeated: its Skeleton vanishes with it.
g:remove(lich, "defeated")
assert(g:model(sk.id) == nil, "the summoned Skeleton vanished")
assert(not pcall(function()
	return skeleton.pos
end), "its handle reports it gone")
assert(not skeleton.defeated, "it vanished; it was not Defeated")
local vanished
for _, e in ipairs(g:log()) do
	if e.event == "removed" and e.model == sk.id then
		vanished = e
	end
end
assert(vanished.reason == "vanished")

-- Sister Ilse knows no Ritual.
local ilse = g:place("Sister Ilse", { x = 20, y = 30 })
ok, err = pcall(g.cast, g, ilse, "Raise Dead", 1, nil, { at = { 20, 32 } })
assert(not ok and tostring(err):find("does not know Raise Dead", 1, true), tostring(err))
