-- Fire Breath (SUPPLEMENT §8; scripts/alpha/fire_breath.lua): one action, the Young Dragon's attack of the
-- turn: every enemy within Short in front of it is attacked at Combat 3 (one behind it is not), and an
-- adjacent building catches fire. Its Behaviour breathes when a hero is within reach.
local inspect = require("lib.inspect")
local SCRIPT = "alpha/fire_breath.lua"

local g = village.new_game({ seed = 1, table = "empty" })
local forge = g:building("Forge")
-- The Dragon's base touches the Forge's south wall.
local size = g:place("Young Dragon", { x = 30, y = 33 })
local radius = size.base / 2
g:remove(size, "fled")
local dragon = g:place("Young Dragon", { x = forge.pos.x, y = forge.pos.y + forge.size.h / 2 + radius })
local front1 = g:place("Captain Maren", { x = dragon.pos.x - 1, y = dragon.pos.y + radius + 2 })
local front2 = g:place("Bram the Smith", { x = dragon.pos.x + 1.5, y = dragon.pos.y + radius + 2.5 })
local behind = g:place("Tobin the Marksman", { x = dragon.pos.x + radius + 2, y = dragon.pos.y - 1 })
local before = #g:log()
-- Two attacks: 6 + 3 = 9 against Maren's 1 + 4 = 5 (won on an even die: Defenseless), then 1 + 3
-- against Bram's 6 + 4 (stopped).
g:force_dice({ 6, 1, 1, 6 })
local a = g:order(dragon, { ability = "Fire Breath", target = front1 })
assert(a.did == "ability" and a.source:find(SCRIPT, 1, true), a.did)
local attacked = {}
for i = before + 1, #g:log() do
	local e = g:log()[i]
	if e.event == "combat" then
		attacked[e.target.model] = e
		assert(e.attacker == dragon.id and e.attacker_total - e.attacker_die == 3, "Combat 3")
		assert(#inspect.modifiers_from(e, SCRIPT) == 1, "the log names Fire Breath")
	end
end
assert(attacked[front1.id] and attacked[front2.id] and not attacked[behind.id], "in front only")
assert(attacked[front1.id].result == "defenseless" and front1:has("defenseless"), attacked[front1.id].result)
assert(attacked[front2.id].result == "none", attacked[front2.id].result)
assert(g:building("Forge").fire, "the adjacent Forge burns")
local fire = inspect.last_event(g, "fire")
assert(fire.source:find(SCRIPT, 1, true))
-- Its one attack of the turn: a second breath is refused until it activates again.
local ok, err = pcall(g.order, g, dragon, { ability = "Fire Breath", target = front1 })
assert(not ok and tostring(err):find("attack"), tostring(err))

-- Its Behaviour (Ravager) breathes on a hero within reach instead of walking on.
local g2 = village.new_game({ seed = 2, table = "empty" })
local wyrm = g2:place("Young Dragon", { x = 4, y = 32 })
g2:place("Captain Maren", { x = 7, y = 32 })
g2:force_dice({ 4, 4 })
local act = g2:act(wyrm)
assert(act.did == "ability" and act.name == "Fire Breath", act.did)
