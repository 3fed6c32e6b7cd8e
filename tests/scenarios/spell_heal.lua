-- Heal (SUPPLEMENT §9, core §3.7 "Conditions") through g:cast and scripts/spells/heal.lua: one Wound or one
-- condition (how many per casting comes from rosters/spells.toml params), on living models only.
local g = village.new_game({ seed = 1, table = "empty" })
local ilse = g:place("Sister Ilse", { x = 5, y = 30 })
local bram = g:place("Bram the Smith", { x = 8, y = 30 })
local orc = g:place("Orc Warrior", { x = 9, y = 30 })

-- A Wound first: the orc's Power Blow beats Bram (Tough) by double, 6 + 3 = 9 against 1 + 4 - 1 = 4.
g:force_dice({ 6, 1 })
g:melee(orc, bram, { power_blow = true })
assert(bram.wounds == 1 and bram.quality == 4, "Bram took a Wound")
g:remove(orc)

-- No `what`: the script heals a Wound before a condition.
local r = g:cast(ilse, "Heal", 1, bram)
assert(r.source == "scripts/spells/heal.lua" and r.complete)
assert(#r.result == 1 and r.result[1] == "a Wound", r.result[1])
assert(bram.wounds == 0 and bram.quality == 3, "the Wound is healed and Quality restored")

-- A named condition.
g:add_condition(bram, "defenseless")
r = g:cast(ilse, "Heal", 1, bram, { what = "defenseless" })
assert(r.result[1] == "defenseless cleared")
assert(not bram:has("defenseless"))
local healed
for _, e in ipairs(g:log()) do
	if e.event == "healed" then
		healed = e
	end
end
assert(healed.model == bram.id and healed.what == "defenseless cleared")

-- Nothing to heal: the script says so, with its file and line, and the cast leaves no trace.
local before = #g:log()
local ok, err = pcall(g.cast, g, ilse, "Heal", 1, bram)
err = tostring(err)
assert(not ok and err:find("scripts/spells/heal.lua:%d+: Bram the Smith has no Wound and no condition"), err)
assert(#g:log() == before)

-- Not on Undead: the kernel refuses, and the Skeleton keeps its condition.
local skeleton = g:place("Skeleton Warrior", { x = 5, y = 26 })
g:add_condition(skeleton, "defenseless")
before = #g:log()
local json = g:log_json()
ok, err = pcall(g.cast, g, ilse, "Heal", 1, skeleton)
err = tostring(err)
assert(not ok and err:find("Undead, not living", 1, true), err)
assert(err:find("scripts/spells/heal.lua:", 1, true), err)
assert(skeleton:has("defenseless") and #g:log() == before and g:log_json() == json)

-- Healing herself: no target means the caster.
g:add_condition(ilse, "entangled")
r = g:cast(ilse, "Heal", 1, nil)
assert(r.result[1] == "entangled cleared" and not ilse:has("entangled"))
