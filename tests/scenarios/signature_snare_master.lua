-- Snare Master (SUPPLEMENT §8; scripts/signatures/snare_master.lua): Grimm gives one free Trap each
-- Council Phase, and his Traps Entangle instead of attacking. As a Council opens the kernel asks every
-- model on the table (`on_council`); Grimm's script grants a free Trap (`info.grants`), ordered
-- `{ trap = at, free = true }`. The Trap it places costs no Supply, Entangles the enemy that springs it
-- and names the script in its `trap` event; a bought Trap attacks as the rulebook says.
local inspect = require("lib.inspect")
local SCRIPT = "signatures/snare_master.lua"

local function events(g, kind)
	local found = {}
	for _, e in ipairs(g:log()) do
		if e.event == kind then
			found[#found + 1] = e
		end
	end
	return found
end

local g = village.new_game({ seed = 2, table = "empty", heroes = { "Grimm the Trapper", "Captain Maren" } })
assert(g.supplies == 0, "the village has no Supplies")
local th = g:building("Town Hall")
-- Two spots off the Town Hall's neern corners, clear of the other buildings.
local ne = { x = th.pos.x + th.size.w / 2 + 1, y = th.pos.y + th.size.h / 2 + 2.5 }
local nw = { x = th.pos.x - th.size.w / 2 - 1, y = th.pos.y + th.size.h / 2 + 2.5 }

-- 1. The Council: the free Trap is placed for nothing, a second free one and a bought one are refused.
local r = g:council({ { trap = ne, free = true }, { trap = nw, free = true }, { trap = nw } })
assert(r[1].what == "trap" and r[1].refused == nil and r[1].supplies == 0, tostring(r[1].refused))
assert(r[1].source:find(SCRIPT, 1, true) and r[1].detail:find("Entangles", 1, true), r[1].detail)
assert(r[2].refused and r[2].refused:find("no free Trap", 1, true), tostring(r[2].refused))
assert(r[3].refused and r[3].refused:find("not enough Supplies", 1, true), tostring(r[3].refused))
assert(g.supplies == 0)
local granted = inspect.last_event(g, "rule_bent")
assert(granted.rule == "council_grant" and granted.source:find(SCRIPT, 1, true), granted.detail)
local info = g:council_info()
assert(#info.grants == 1 and info.grants[1].hero == "Grimm the Trapper" and info.grants[1].used == 1)

-- 2. An orc walks into it: it Entangles the orc instead of attacking, without a roll (SUPPLEMENT §11);
-- its movement ends there (§6.5) and the `trap` event names the script and has no dice.
local orc = g:place("Orc Warrior", { x = ne.x + 4, y = ne.y + 4 })
local m = g:move(orc, { x = ne.x, y = ne.y })
assert(m.stopped_by == "trap", tostring(m.stopped_by))
local sprung = inspect.last_event(g, "trap")
assert(sprung.result == "entangled" and sprung.source:find(SCRIPT, 1, true), sprung.result)
assert(sprung.trap_die == nil and sprung.model_die == nil, "a snare rolls no die")
assert(orc:has("entangled") and not orc.defeated, "Entangled, not hurt")

-- 3. A Trap the village bought (g:trap) attacks: the Trap wins (5 + 2 against 2 + 3) and beats the orc.
local plain = g:trap(nw)
local orc2 = g:place("Orc Warrior", { x = nw.x - 4, y = nw.y + 4 })
g:force_dice({ 5, 2 })
g:move(orc2, { x = nw.x, y = nw.y })
local hit = inspect.last_event(g, "trap")
assert(hit.token == plain and hit.result ~= "entangled" and hit.source == nil, hit.result)

-- 4. Each Council grants it afresh; the default policy places it by the Town Hall (no Supplies).
local before = #events(g, "council")
local reports = g:council()
local free
for _, rep in ipairs(reports) do
	if rep.what == "trap" and rep.refused == nil and rep.source:find(SCRIPT, 1, true) then
		free = rep
	end
end
assert(free and free.supplies == 0, "the default policy placed Grimm's free Trap")
assert(#events(g, "council") > before)

-- 5. Without Grimm on the table there is no free Trap.
g:remove(g:models({ side = "heroes" })[1], "defeated")
assert(#g:models({ side = "heroes" }) == 1, "Grimm is gone")
r = g:council({ { trap = ne, free = true } })
assert(r[1].refused and r[1].refused:find("no free Trap", 1, true), tostring(r[1].refused))
assert(#g:council_info().grants == 0)
print("Snare Master works")
