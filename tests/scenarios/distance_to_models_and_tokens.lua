-- ctx:distance_to measures to a token only when it is given a token (a table from ctx:tokens, whose
-- `kind` is "opportunity", "barricade" or "trap"). A model snapshot also has an id and a `kind`
-- ("hero"...): it was once taken for the token of the same id, so a Hunter measured its hero to an
-- Opportunity across the table and went for another hero.
local g = village.new_game({ seed = 1, table = "empty" })
local maren = g:place("Captain Maren", { x = 4, y = 4 }) -- model 1
local bram = g:place("Bram the Smith", { x = 4, y = 20 }) -- model 2
local token = g:opportunity({ 5, 21 }) -- token 1, beside Bram
assert(token == maren.id, "the token shares Maren's id")
local orc = g:place("Orc Warrior", { x = 4, y = 8 }, { group = 1, behaviour = "Hunter" })
-- Maren is 3" away, Bram 11": the Hunter targets Maren (measured to her, not to token 1 by Bram).
assert(g:target(orc) == maren, "the nearest hero: " .. tostring(g:target(orc)))
assert(bram ~= nil)
