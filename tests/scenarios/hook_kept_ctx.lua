--! mod: tests/fixtures/kept_ctx_mod
-- A hook's ctx and the views it hands out live only for its call: a script that keeps them and tries
-- them later gets a Lua error it can catch, located at its own line, and the game goes on.
local inspect = require("lib.inspect")
local g = village.new_game({ seed = 1, table = "empty" })
local orc = g:place("Hoarding Orc", { x = 3, y = 3 })
local tobin = g:place("Tobin the Marksman", { x = 4, y = 3 })
local maren = g:place("Captain Maren", { x = 2, y = 3 })
local function reason_of(r)
	local mods = inspect.modifiers_from(r, "hoarder.lua")
	assert(#mods == 1, "one modifier from the trait, got " .. #mods)
	return mods[1].reason
end
g:force_dice({ 3, 3 })
assert(reason_of(g:melee(orc, tobin)) == "first call")
g:force_dice({ 3, 3 })
local reason = reason_of(g:melee(orc, maren))
assert(
	reason:find(
		"old ctx refused: runtime error: tests/fixtures/kept_ctx_mod/scripts/traits/hoarder.lua:12: a hook's ctx was used after the call it was given to had returned",
		1,
		true
	),
	reason
)
assert(
	reason:find(
		"old rule refused: runtime error: tests/fixtures/kept_ctx_mod/scripts/traits/hoarder.lua:17: a hook's ctx was used after the call it was given to had returned",
		1,
		true
	),
	reason
)
local view_refused = "old view refused: tests/fixtures/kept_ctx_mod/scripts/traits/hoarder.lua:26: a view of model "
	.. orc.id
	.. " was read after the hook call that handed it out had returned"
assert(reason:find(view_refused, 1, true), reason)
local has_trait_refused = "old has_trait refused: tests/fixtures/kept_ctx_mod/scripts/traits/hoarder.lua:35: a view of model "
	.. orc.id
	.. " was read after the hook call that handed it out had returned"
assert(reason:find(has_trait_refused, 1, true), reason)
print(reason)
