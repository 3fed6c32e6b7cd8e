---@meta village
-- The village scripting API for lua-language-server. Generated from src/script/api/spec.rs: do not
-- edit. Regenerate with `cargo run -- api --luals > scripts/types/village.lua`.

---The two sides.
---@alias Side "heroes"|"enemies"

---What a profile is.
---@alias ProfileKind "hero"|"enemy"|"defender"

---A profile's tier.
---@alias Tier "mob"|"elite"|"boss"|"hero"|"defender"

---A condition (core rules §3.7); Wounds are not conditions.
---@alias Condition "defenseless"|"transfixed"|"entangled"

---Which roll a modifier hook is asked about.
---@alias RollKind "melee"|"ranged"|"structural"

---Whose total a modifier changes.
---@alias Role "attacker"|"defender"

---A result of the combat table (SUPPLEMENT §4), or what was applied to the loser.
---@alias CombatOutcome "tie"|"recoil"|"defenseless"|"defeated"|"gruesome"|"none"|"wound"|"entangled"

---A model handle of the same game, or a model id.
---@alias ModelArg Model|integer

---A position: `{ x = 3, y = 4 }` or `{ 3, 4 }`, in inches.
---@alias Point Position|number[]

---The `village` global: start games and look at the rosters.
---
---```lua
---local g = village.new_game({ seed = 7, table = "empty" })
---```
---@class village
---@field version string The version of the village engine.
village = {}

---A new game from the rosters: buildings at Level I and the named heroes south of the Town Hall.
---
---```lua
---local g = village.new_game({ seed = 7, heroes = { "Captain Maren" }, table = "empty" })
---```
---@param opts? NewGameOptions Seed, length, heroes, table, preset, variants.
---@return Game
function village.new_game(opts) end

---The names of every profile in the rosters (heroes, enemies, Village Defenders).
---
---```lua
---for _, name in ipairs(village.profiles()) do print(name) end
---```
---@return string[]
function village.profiles() end

---A profile's card, as `village show --json` prints it: its parts with their rule text, scripts and where each comes from (an error names the closest profile).
---
---```lua
---print(village.profile("Captain Maren").signature.name)
---```
---@param name string A profile (part of the name will do: "maren").
---@return ProfileCard
function village.profile(name) end

---Options of `village.new_game`; an unknown key is an error.
---
---```lua
---village.new_game({ seed = 1, length = "standard", heroes = { "Captain Maren", "Tobin the Marksman" } })
---```
---@class NewGameOptions
---@field seed? integer Seed of the dice (default: the session's `--seed`).
---@field length? string Game length as named in the rosters (default "standard").
---@field heroes? string[] Heroes to deploy in a row south of the Town Hall.
---@field table? "empty"|"generated" The standard layout, or a generated table (default).
---@field preset? string A difficulty preset of rosters/presets.toml (default "rulebook": exactly the rules).
---@field scenario? string A scenario: the name of a scenarios/NAME.toml, or a .toml file (default "rulebook": the rulebook's game). Its table and buildings replace the generated ones.
---@field variants? string[] Rule variants (scripts/variants/NAME.lua), applied in order after the preset's.
---@field policy? string The hero policy (scripts/policies/NAME.lua) that plays the heroes' side (default "default").
---@field decisions? boolean Keep the scripts' decisions with their reasons (`g:why`, the REPL's `:why`; default true). false plays the same game without them, as `sim` does.

---A game on the table. Each method resolves a rule at once as a what-if: it checks geometry (contact, sight, range) but not whose turn it is.
---
---```lua
---local g = village.new_game({ seed = 7, table = "empty" })
---```
---@class Game
---@field seed integer The seed of the game's dice.
---@field round integer The current round.
---@field wave integer The current wave.
---@field supplies integer The village's Supplies.
---@field herbs integer Herb tokens the village holds (each heals 1 Wound in a Council Phase).
---@field joining string[] Village Defender profiles that join at the next wave start (Lost Villagers).
---@field length string The game length's name.
---@field preset string The difficulty preset (rosters/presets.toml) the game was made with.
---@field scenario string The scenario (scenarios/NAME.toml, or the file's name) the game was made of.
---@field tracks table<string, integer> The tracks in play (rosters/tracks.toml, put in play by a variant's `tracks`): where each marker stands.
---@field variants string[] The rule variants in force, in order: the preset's, then those asked for.
local Game = {}

---Put a model on the table; an error if its base would hang off the table or overlap anything.
---
---```lua
---local orc = g:place("Orc Warrior", { x = 3, y = 3 })
---```
---@param name string A profile name from the rosters.
---@param pos Point Centre of the base.
---@param opts? PlaceOptions `behaviour` (one of the profile's), `group` (its number).
---@return Model
function Game:place(name, pos, opts) end

---Queue the faces the next dice will show (scenarios and tests).
---
---```lua
---g:force_dice({ 6, 1 })
---```
---@param faces integer[] D6 faces (1 to 6) the next rolls will show, in order.
function Game:force_dice(faces) end

---Begin a side's turn (§3.1): its models become Active, and their one attack of the turn (§3.2) and activation counts start afresh. `g:hero_turn` and `g:enemy_turn` begin their own turn.
---
---```lua
---g:begin_turn("heroes")
---```
---@param side Side Whose turn begins: `heroes` or `enemies`.
function Game:begin_turn(side) end

---Roll an activation (§3.1): successes are actions, two or more failures a turnover. It starts the model's activation (its moves afresh); its attack of the turn stays spent until `g:begin_turn`.
---
---```lua
---local r = g:activate(orc, 2)
---```
---@param model ModelArg The model to activate.
---@param dice integer How many dice to roll (1 to 3).
---@param opts? ActivateOptions `cast` declares spellcasting before the roll.
---@return ActivationResult
function Game:activate(model, dice, opts) end

---Move straight toward a point on the table; stops at contact with an enemy, a building, impassable terrain or the table edge. A point that is NaN, infinite or off the table, or a `distance` that is not a finite number of inches 0 or more, is an error and nothing moves.
---
---```lua
---local m = g:move(orc, { x = 12, y = 3 })
---```
---@param model ModelArg The model to move.
---@param to Point Where to go, in a straight line.
---@param opts? MoveOptions `distance`: at most this far (default: a Medium move).
---@return MoveResult
function Game:move(model, to, opts) end

---Resolve a melee attack (SUPPLEMENT §4) with the modifier hooks of both models.
---
---```lua
---local r = g:melee(orc, bram, { power_blow = true })
---```
---@param attacker ModelArg The attacking model.
---@param defender ModelArg The model attacked; must be in contact.
---@param opts? MeleeOptions Power Blow, Free Hack, Lethal, Ambush.
---@return CombatResult
function Game:melee(attacker, defender, opts) end

---Resolve a ranged attack (range bands, Cover, weapon break) with the modifier hooks.
---
---```lua
---local r = g:shoot(tobin, orc, { aimed = true })
---```
---@param shooter ModelArg The model shooting.
---@param target ModelArg The model shot at; must be in sight and range.
---@param opts? ShotOptions `aimed`.
---@return CombatResult
function Game:shoot(shooter, target, opts) end

---Resolve a structural attack on a building.
---
---```lua
---local r = g:structural(orc, "Town Hall")
---```
---@param attacker ModelArg The model attacking the building; must be in contact.
---@param building Building|string The building or its name.
---@param opts? StructuralOptions `power_blow`.
---@return StructuralResult
function Game:structural(attacker, building, opts) end

---A building by name; an error if there is none.
---
---```lua
---local th = g:building("Town Hall")
---```
---@param name string The building's name.
---@return Building
function Game:building(name) end

---Every building, in table order.
---
---```lua
---for _, b in ipairs(g:buildings()) do print(b.name, b.integrity) end
---```
---@return Building[]
function Game:buildings() end

---The models on the table, in id order.
---
---```lua
---local heroes = g:models({ side = "heroes" })
---```
---@param opts? ModelFilter `side`: only this side.
---@return Model[]
function Game:models(opts) end

---The model with this id, or nil if it is not on the table.
---
---```lua
---local m = g:model(1)
---```
---@param id integer A model id.
---@return Model|nil
function Game:model(id) end

---Take a model off the table.
---
---```lua
---g:remove(orc, "fled")
---```
---@param model ModelArg The model to take off the table.
---@param reason? string Why, for the log (default "removed"; "fled" is not a defeat).
function Game:remove(model, reason) end

---The event log: every roll and result, oldest first.
---
---```lua
---local last = g:log(1)[1]
---```
---@param last? integer Only the last N events.
---@return LogEvent[]
function Game:log(last) end

---The scripts' decisions behind event `seq`: who chose what, what it weighed, why and where (`:why` in the REPL). Empty when no script decided it (the rules' own events) or the game keeps no decisions (`village.new_game{ decisions = false }`).
---
---```lua
---for _, d in ipairs(g:why()) do print(d.by, d.chose, d.reason) end
---```
---@param seq? integer An event's number (default: the latest event but a `round` or `turn` mark).
---@return Decision[]
function Game:why(seq) end

---The whole event log as JSON (byte-identical for the same seed and inputs).
---
---```lua
---print(g:log_json())
---```
---@return string
function Game:log_json() end

---The rule constants in force (the rosters' with the preset's and the variants' overrides applied), by section.
---
---```lua
---local pb = g:rules().melee.power_blow
---```
---@return table<string, table<string, any>>
function Game:rules() end

---Add a piece of terrain (SUPPLEMENT §2) to the table, for scenarios.
---
---```lua
---g:add_terrain("wood", { { 14, 29 }, { 16, 29 }, { 16, 31 }, { 14, 31 } })
---```
---@param kind string wood, hill, rocks, pond, field (an area), wall or hedge (a line).
---@param points Point[] The area's corners (its convex hull), or a line's two ends.
function Game:add_terrain(kind, points) end

---A morale check (§3.6) with the model's morale hooks, applied.
---
---```lua
---local r = g:morale(orc, "terror")
---```
---@param model ModelArg The model testing.
---@param trigger string "terror", "gruesome_kill", "leader_defeated" or "half_lost".
---@return MoraleCheck
function Game:morale(model, trigger) end

---Place a fire token on an intact building (§6.4); a building holds one.
---
---```lua
---g:ignite(goblin, "Forge")
---```
---@param model ModelArg An Igniter adjacent to the building.
---@param building Building|string An intact building.
function Game:ignite(model, building) end

---Place a Barricade (the roster's Integrity and Structure) between two points; its token id.
---
---```lua
---local b = g:barricade({ 10, 10 }, { 13, 10 })
---```
---@param a Point One end.
---@param b Point The other end.
---@return integer
function Game:barricade(a, b) end

---Place a face-down Trap (§6.5); its token id.
---
---```lua
---g:trap({ 10, 30 })
---```
---@param at Point Where the Trap lies.
---@param opts? TrapOptions `entangle`: a snare that Entangles instead of attacking.
---@return integer
function Game:trap(at, opts) end

---A structural attack on a Barricade (its own Structure); removed at 0 Integrity.
---
---```lua
---g:attack_barricade(orc, b)
---```
---@param attacker ModelArg A model adjacent to the Barricade.
---@param token integer The Barricade's token id.
---@param opts? StructuralOptions `power_blow`.
---@return StructuralResult
function Game:attack_barricade(attacker, token, opts) end

---Group activation (§3.1): one roll at the worst Quality for up to five models.
---
---```lua
---g:activate_group(maren, { archer, rider }, 2)
---```
---@param leader ModelArg|nil The Leader, or nil for an Enemy Group.
---@param members ModelArg[] The other members.
---@param dice integer 1 to 3.
---@return ActivationResult
function Game:activate_group(leader, members, dice) end

---Spend actions on a Task (§3.1); they accumulate until it completes or is lost.
---
---```lua
---local t = g:task(bram, "break free", 2, 1)
---```
---@param model ModelArg The model working.
---@param name string The Task.
---@param needed integer Actions it takes in all.
---@param actions integer Actions spent now.
---@return TaskProgress
function Game:task(model, name, needed, actions) end

---Concentrated Shooting (§3.5): the best shooter rolls, the target at −1 per extra shooter.
---
---```lua
---g:concentrated({ archer1, archer2 }, orc)
---```
---@param shooters ModelArg[] Two or more Active shooters.
---@param target ModelArg The target all of them can shoot.
---@param opts? ShotOptions `aimed`.
---@return CombatResult
function Game:concentrated(shooters, target, opts) end

---Remove Integrity from a building (Destroyed at 0, its fire removed), for scenarios; the Integrity left.
---
---```lua
---g:damage("Forge", 5)
---```
---@param building Building|string The building.
---@param amount integer Integrity to remove.
---@return integer
function Game:damage(building, amount) end

---Place a face-down Opportunity token, for scenarios; its token id.
---
---```lua
---g:opportunity({ 30, 30 })
---```
---@param at Point Where the token lies.
---@return integer
function Game:opportunity(at) end

---What a hero policy's `council(ctx, info)` is told now (§7.2): Supplies, Herb tokens, upgrade costs, the Council abilities in force, the Defeated heroes.
---
---```lua
---local info = g:council_info()
---```
---@return CouncilInfo
function Game:council_info() end

---Hold a Council Phase (§7.2–7.3): once-per-Council uses start afresh, each order is validated, applied and logged (`council` event) or refused with its reason. A malformed order is an error.
---
---```lua
---local done = g:council({ { upgrade = "Forge" }, { repair = "Town Hall", supplies = 2 } })
---```
---@param orders? CouncilOrder[] The orders, tried in turn; without them the game's hero policy decides.
---@return CouncilReport[]
function Game:council(orders) end

---Whether play stops now, and why (SUPPLEMENT §10): "town_hall_destroyed",                       "overrun" (no model of the heroes' side on the table while an enemy remains),                       "party_defeated" (the optional rule) or "no_enemy" (the wave is won); nil while                       play goes on. The turn engine resolves nothing after the event that ends it.
---
---```lua
---g:enemy_turn(); if g:ended() == "overrun" then print("the village is lost") end
---```
---@return string|nil
function Game:ended() end

---Start the next wave of the game's length (§5.1–5.3): build it with the default wave builder, deploy the heroes around the Town Hall and each Group along its edge.
---
---```lua
---local plan = g:start_wave()
---```
---@return WavePlan
function Game:start_wave() end

---Play one hero turn (§6.1): heroes and Village Defenders in id order, dice and actions from the hero policy script; a turnover ends it.
---
---```lua
---for _, h in ipairs(g:hero_turn()) do print(h.model.name, h.actions) end
---```
---@return HeroTurn[]
function Game:hero_turn() end

---Play one enemy turn (§6.2): Groups in Behaviour play order, one roll each, every action ordered by the Behaviour scripts; a turnover ends it.
---
---```lua
---for _, t in ipairs(g:enemy_turn()) do print(t.behaviour, t.actions) end
---```
---@return GroupTurn[]
function Game:enemy_turn() end

---One action of an enemy as its Behaviour orders it (§6.2): its script's `target` and `act`, executed by the kernel.
---
---```lua
---local a = g:act(orc)
---```
---@param model ModelArg An enemy with a Behaviour.
---@return EnemyAction
function Game:act(model) end

---Execute one order for a model as the turn engine would (one action): the kernel validates it and errors with the reason when the rules refuse it (nothing applied).
---
---```lua
---local a = g:order(bram, { claim = g:opportunity({ 30, 30 }) })
---```
---@param model ModelArg The model that acts.
---@param order BehaviourOrder One order, as a Behaviour or the hero policy returns it.
---@return EnemyAction
function Game:order(model, order) end

---Spend `actions` on `orders` as the turn engine does: each order costs what the rules and its scripts' `order_cost` say (a Power Blow two, a Called Shot one); an order needing more actions than are left, or one the rules refuse, loses an action with the reason; a Defenseless model not Engaged stands up first.
---
---```lua
---local done = g:orders(tobin, 2, { { shoot = orc, aimed = true }, { shoot = orc } })
---```
---@param model ModelArg The model that acts.
---@param actions integer Actions it has (its activation's successes).
---@param orders BehaviourOrder[] The orders it takes, in turn.
---@return EnemyAction[]
function Game:orders(model, actions, orders) end

---Play the next wave of the game's length to its end, as `village play --auto` does: start it, hero turns by the hero policy and enemy turns by the Behaviours, then the End Sequence if it was won.
---
---```lua
---local s = g:play_wave(); print(s.outcome, s.rounds)
---```
---@return WaveSummary
function Game:play_wave() end

---The End Sequence as far as it exists (§7.1): extinguish, fire damage, Supplies, Rewards (the wave-end Opportunity results).
---
---```lua
---g:end_wave()
---```
function Game:end_wave() end

---The target its Behaviour's script picks for it now (§6.3): a model, a building, a point, "edge", or nil.
---
---```lua
---local t = g:target(orc)
---```
---@param model ModelArg An enemy with a Behaviour.
---@return Model|Building|Position|string|nil
function Game:target(model) end

---A Healer's action (SUPPLEMENT §9) on an adjacent friend; returns the actions it costs.
---
---```lua
---local cost = g:heal(ilse, bram, "wound")
---```
---@param healer ModelArg A Healer.
---@param target ModelArg An adjacent friend.
---@param what string "wound", or the condition to clear.
---@return integer
function Game:heal(healer, target, what) end

---Give a model a condition, for scenarios.
---
---```lua
---g:add_condition(orc, "defenseless")
---```
---@param model ModelArg The model.
---@param condition Condition The condition.
function Game:add_condition(model, condition) end

---Cast a spell (§3.7): the kernel checks that the caster knows it, is not out of power nor Engaged, and sees the target within the Power's range; a Ritual's actions go to its Task first. Then the spell's script (its `script` in rosters/spells.toml) runs `cast(ctx, caster, power, target, opts)` with the spell primitives on `ctx`. An illegal cast or a failing script is an error, and the game is left as it was.
---
---```lua
---local r = g:cast(ilse, "Transfix", 2, orc)
---```
---@param caster ModelArg A Spell-caster that knows the spell.
---@param spell string The spell's name in rosters/spells.toml ("Transfix").
---@param power integer Power 1 to 3 (the actions spent; Short/Medium/Long range). For a Ritual, the actions spent on its Task now.
---@param target ModelArg|nil The model targeted, or nil (a Wall, a Summoning).
---@param opts? CastOptions What the spell's script needs: `what` to heal, a wall's `from`/`to`, `at`.
---@return CastResult
function Game:cast(caster, spell, power, target, opts) end

---The gap between two bases, edge to edge, in inches (0 in contact).
---
---```lua
---if g:distance(orc, bram) <= 0.05 then g:melee(orc, bram) end
---```
---@param a ModelArg A model.
---@param b ModelArg Another model.
---@return number
function Game:distance(a, b) end

---A handle to a model of a game, resolved on every use: once the model is off the table, only `id`, `name` and `defeated` answer and other fields are an error. Handles compare with `==`; `pairs(m)` lists the fields in this order (nil ones left out), `tostring(m)` is "Name (id)".
---
---```lua
---local orc = g:place("Orc Warrior", { x = 3, y = 3 })
---```
---@class Model
---@field id integer The model's id, stable for the whole game.
---@field name string The profile's name ("Orc Warrior").
---@field kind ProfileKind Hero, enemy or Village Defender.
---@field tier Tier The profile's tier.
---@field side Side The side it fights on (Village Defenders fight with the heroes).
---@field quality integer Current Quality (the target number of activation dice), worsened by Wounds.
---@field combat integer Combat.
---@field pos Position Centre of the base, in inches.
---@field base number Base diameter in inches.
---@field wounds integer Wounds suffered (Tough).
---@field conditions Condition[] Conditions, sorted.
---@field traits string[] Traits as printed on the profile, then any it has for this wave only (Stable II Warhorse's Long Move).
---@field weapon? string The ranged weapon, if any.
---@field spells string[] Spells known.
---@field group? integer The enemy Group number, if any.
---@field active boolean Active this turn.
---@field engaged boolean In contact with an enemy.
---@field defeated boolean Removed other than by fleeing (a removed model's handle still answers id, name and defeated).
---@field weapon_broken boolean Its ranged weapon broke or ran out (no more shooting this game).
---@field charged boolean It moved into contact with an enemy in its current activation (Dashing, Ride Down); false outside its own activation.
---@field moved number Inches it moved in its current activation (Sir Roland's Ride Down); 0 outside it.
---@field attacks integer Melee and ranged attacks it made this turn (one per turn, §3.2, however often it is nominated; the turn engine counts them).
---@field activations integer How often it was nominated this turn (§3.1: after failing exactly one die without a turnover it stays Active and may be nominated again).
---@field declared boolean It declared spellcasting before rolling for the activation being played (§3.7): it may cast.
---@field casts integer Spells it cast in the activation being played (one an activation, `magic.spells_per_activation`).
---@field out_of_power boolean A Spell-caster that failed three dice this wave: no more spells until the next (§3.7).
---@field task? string The Task it is working on, if any ("break free of transfixed", "heal Bram the Smith (4)"...).
---@field actions_left integer Actions it has left in the activation being played, this one included (0 outside the turn engine).
---@field wrecked? string The building it Destroyed with a structural attack, if any (a Raider then leaves, §6.3).
---@field behaviour? string The Behaviour an enemy plays (§6.3); nil for heroes and Defenders.
---@field items string[] Names of the items and boons it carries (an Opportunity's Potion of Healing, Relic Blade), in the order gained.
local Model = {}

---Whether the profile carries the trait.
---
---```lua
---if m:has_trait("Hero") then return 1 end
---```
---@param name string A trait, as printed (case-sensitive).
---@return boolean
function Model:has_trait(name) end

---Whether the model has the condition.
---
---```lua
---if m:has("defenseless") then return 2 end
---```
---@param condition Condition A condition.
---@return boolean
function Model:has(condition) end

---Its profile's card, as `village show --json` prints it: Quality, Combat, traits with their rule text and scripts, weapon, spells, the signature or Alpha Rule (name, text, params, script), Behaviours, Wave Points and where each part comes from.
---
---```lua
---print(maren:profile().signature.text)
---```
---@return ProfileCard
function Model:profile() end

---A handle to a building of a game, resolved on every use. Handles compare with `==`; `pairs(b)` lists the fields in this order, `tostring(b)` is the name.
---
---```lua
---local th = g:building("Town Hall")
---```
---@class Building
---@field name string The building's name ("Town Hall").
---@field integrity integer Integrity left.
---@field max_integrity integer Integrity at its current Level.
---@field level integer Level (1 = Level I).
---@field destroyed boolean Destroyed.
---@field fire boolean On fire.
---@field town_hall boolean The Town Hall (its loss ends the game).
---@field economic boolean An economic building (the Raider's target).
---@field pos Position Centre of the footprint, in inches.
---@field size Size Footprint size, in inches.

---A point on the table, in inches from the south-west corner.
---
---```lua
---local p = orc.pos
---```
---@class Position
---@field x number West to east.
---@field y number South to north.

---A footprint's size, in inches.
---
---```lua
---local w = th.size.w
---```
---@class Size
---@field w number Width, west to east.
---@field h number Height, south to north.

---Which models to list.
---
---```lua
---g:models({ side = "enemies" })
---```
---@class ModelFilter
---@field side? Side Only this side.

---Which models `ctx:models` lists (every filter given must hold) and in what order; an unknown key is an error.
---
---```lua
---ctx:models({ side = "heroes", active = true, near = self })
---```
---@class ModelQuery
---@field side? Side Only this side.
---@field kind? "hero"|"defender"|"enemy" Only this kind of profile.
---@field trait? string Only models with this trait (on the profile or granted for the wave).
---@field condition? Condition Only models with this condition.
---@field engaged? boolean Only models that are (true) or are not (false) Engaged.
---@field active? boolean Only models still (true) or no longer (false) Active this turn.
---@field spell_kind? string Only models that know a spell of this roster kind ("summoning", "attack", ...).
---@field except? ModelView|integer Not this model.
---@field group_of? ModelView|integer Only the models of this model's Enemy Group, itself included (just itself when it has no Group): a Behaviour's `target` asks for its Group so.
---@field near? ModelView|BuildingView|Token|Position Nearest first: sorted by `ctx:distance_to(m, near)`, ties by id.

---Which buildings `ctx:buildings` lists (every filter given must hold); an unknown key is an error.
---
---```lua
---ctx:buildings({ standing = true, damaged = true })
---```
---@class BuildingQuery
---@field standing? boolean Only buildings not Destroyed (true) or Destroyed (false).
---@field economic? boolean Only the economic buildings (true: Forge, Stable) or the others.
---@field town_hall? boolean Only the Town Hall (true) or the others.
---@field burning? boolean Only the buildings with a fire token (true) or without.
---@field damaged? boolean Only the buildings below their maximum Integrity (true) or at it.

---The candidates `ctx:nearest` weighs; an unknown key is an error.
---
---```lua
---ctx:nearest(self, { models = { side = "heroes" }, buildings = { standing = true } })
---```
---@class NearestQuery
---@field models? ModelQuery The models `ctx:models` would list with this query.
---@field buildings? BuildingQuery The buildings `ctx:buildings` would list with this query.

---One step of a Behaviour's declared `targets`: the nearest `models` and/or `buildings`, `town_hall = true` or `fallback = true`; an unknown key is an error when the file loads.
---
---```lua
---targets = { { models = "hero", prefer = "most_wounds" }, { town_hall = true } }
---```
---@class TargetStep
---@field models? "any"|"hero"|"defender" The other side's models of that kind are candidates for nearest (edge to edge).
---@field buildings? "standing" The undestroyed buildings are candidates for nearest (with `models`, both are).
---@field prefer? "most_wounds"|"lowest_integrity" The Behaviour's own tie-breaker among those tied for nearest, before the universal tie-breakers of §6.2 and the D6.
---@field town_hall? boolean The Town Hall, while it stands.
---@field fallback? boolean The target its roster entry's `fallback_behaviour` chooses (none without one).
---@field why? string The step's reason, said when the decision is explained.

---Options of `g:move`; an unknown key is an error.
---
---```lua
---g:move(orc, th.pos, { distance = 3 })
---```
---@class MoveOptions
---@field distance? number Move at most this far, in inches (default: the model's band); a finite number, 0 or more.
---@field step? boolean The one-base-width step (§3.3).

---Options of `g:activate`; an unknown key is an error.
---
---```lua
---g:activate(ilse, 2, { cast = true })
---```
---@class ActivateOptions
---@field cast? boolean Declare spellcasting before the roll (§3.7): the model may then cast (`g:order(m, n, { cast = ... })`), and three failed dice leave it out of power for the wave. Refused for a model that knows no spell or is out of power.

---Options of `g:melee`; an unknown key is an error.
---
---```lua
---g:melee(orc, bram, { power_blow = true })
---```
---@class MeleeOptions
---@field power_blow? boolean A Power Blow (two actions): the defender takes the penalty.
---@field free_hack? boolean A Free Hack: the defender can stop the attacker but not hurt it.
---@field lethal? boolean The attack is Lethal.
---@field ambush? boolean The attacker Ambushes.

---Options of `g:shoot`; an unknown key is an error.
---
---```lua
---g:shoot(tobin, orc, { aimed = true })
---```
---@class ShotOptions
---@field aimed? boolean An aimed shot.

---Options of `g:structural`; an unknown key is an error.
---
---```lua
---g:structural(orc, th, { power_blow = true })
---```
---@class StructuralOptions
---@field power_blow? boolean A Power Blow.

---What `g:activate` rolled.
---
---```lua
---local r = g:activate(orc, 2)
---```
---@class ActivationResult
---@field dice integer[] The faces rolled, in order (a Hero rolls one die fewer than it chose).
---@field automatic integer Successes taken without a roll: the Hero trait's one (SUPPLEMENT §4), else 0.
---@field successes integer Actions gained, the automatic ones included.
---@field failures integer Rolled dice that failed.
---@field turnover boolean Two or more rolled dice failed: the turn passes.

---What a Behaviour's `objective` is told (§6.3): its Group, and the objective the Group had when it is asked again because that one was Destroyed or removed.
---
---```lua
---if ask.lost == nil then --[[ at deployment ]] end
---```
---@class ObjectiveAsk
---@field group ModelView[] The Group's models, in id order.
---@field lost? BuildingView|Token The objective it had: a Destroyed building, or nil for a removed token as for the first assignment at deployment.

---What the hero policy's `activate` may return instead of a number of dice (§3.1, §3.7).
---
---```lua
---return { dice = 2, cast = true, group = ctx:leader_group(self) }
---```
---@class ActivationAnswer
---@field dice? integer Activation dice, 1–3 (default 2).
---@field cast? boolean Declare spellcasting before the roll (§3.7): every Spell-caster of the activation may then cast, and is out of power for the wave if the roll fails three dice.
---@field group? ModelView[] A Leader's group (§3.1): these Active friends roll once with it, at the worst Quality, each taking the successes as actions (`ctx:leader_group` lists who may join).

---What `on_wave_start` hears: the wave that begins.
---
---```lua
---if wave.wave == 1 then ctx:spend("game:first wave") end
---```
---@class WaveStartInfo
---@field wave integer The wave's number.
---@field round integer 0: round 1 begins after the hook.

---What a Behaviour's `act` (or the hero policy's `act`) returns: exactly one of its action keys (an order naming two, `{ melee = o, shoot = o }`, is an error). A point must be finite and on the table.
---
---```lua
---return { move = target }
---```
---@class BehaviourOrder
---@field melee? ModelView Attack this adjacent enemy.
---@field power_blow? boolean With `melee`: a two-action Power Blow (the opponent takes the Power Blow modifier).
---@field shoot? ModelView Shoot this enemy.
---@field aimed? boolean With `shoot`: a two-action Aimed Shot (the target takes the Aimed Shot modifier).
---@field structural? BuildingView|string Attack this adjacent building.
---@field ignite? BuildingView|string Set this adjacent building on fire.
---@field move? ModelView|BuildingView|Position|EdgeAim Move toward it (one leg).
---@field within? number With `move`: stop where the route has this many inches left to reach it (close in without contact).
---@field step? ModelView|BuildingView|Position A one-base-width step straight toward it (§3.3): one action, not a move action (Slow).
---@field leave? boolean Leave by the nearest edge.
---@field claim? Token|integer Heroes only (the hero policy): claim this Opportunity token in base contact (§6.1).
---@field use? string Heroes only (the hero policy): use the item it carries by this name ("Potion of Healing").
---@field heal? ModelView A Healer heals this adjacent friend (SUPPLEMENT §9): a Wound (a Task of `actions.heal_wound`) or, with `what`, one condition.
---@field what? "wound"|Condition With `heal`: what to heal (default: a Wound if it has one, else its first condition).
---@field ability? string A scripted action of the model (an `actions` entry of its trait, signature or Alpha Rule: "Field Repairs"); its `can` may refuse it, a Task gains one action.
---@field target? ModelView|BuildingView|string|Token|Position With `ability`: what the action aims at (a building may be given by name). With `cast`: the model the spell aims at.
---@field with? ModelView[] With `shoot`: Concentrated Shooting (§3.5), these other Active shooters of the side fire with it as one attack (best Combat, the target at −1 per shooter after the first); each has shot for the turn.
---@field cast? string Cast this spell the model knows (§3.7), at `power`: only by a model that declared spellcasting before its roll, one spell an activation, costing its Power in actions. An attack spell is the model's attack of the turn.
---@field power? integer With `cast`: Power 1–3 (range Short, Medium, Long).
---@field from? Position With `cast` of a Wall: one endpoint.
---@field to? Position With `cast` of a Wall: the other endpoint.
---@field at? Position With `cast` of a Summoning: where the summoned model appears.
---@field break_free? boolean A Transfixed or Entangled model works to break free (§3.7): a Task of `actions.break_free` actions, the condition gone when it is complete.

---A wave as the wave builder made it (§5.2).
---
---```lua
---local plan = g:start_wave()
---```
---@class WavePlan
---@field escalation string "I" to "VII".
---@field budget integer Wave Points to spend.
---@field spent integer Wave Points spent.
---@field behaviour? string The one Behaviour of the whole wave before Escalation III.
---@field groups GroupPlanT[] The Enemy Groups, in creation order.
---@field unmet? string[] §5.2 limits the budget made impossible (absent when none).

---One order of a Council Phase (§7.2–7.3): exactly one of `upgrade`, `repair`, `barricade`, `trap`, `heal`, `herb`, `resurrect`, with only that order's other keys. Buildings and heroes are names or snapshots. The kernel refuses (and logs why) what the rules or the Supplies do not allow.
---
---```lua
---return { { upgrade = "Forge" }, { barricade = { x = 10, y = 12 }, toward = { x = 13, y = 12 } } }
---```
---@class CouncilOrder
---@field upgrade? string|BuildingView Raise this building one Level (I → II → III) for its roster cost.
---@field level? integer With `upgrade`: the Level wanted, which must be the next one.
---@field repair? string|BuildingView Restore this building's Integrity (never above its starting Integrity).
---@field supplies? integer With `repair`: Supplies to spend on the Forge's Repairs (default: one purchase).
---@field free? boolean With `repair` or `barricade`: use the Town Hall II Engineering Corps (once per Council) instead of Supplies and the Forge. With `trap`: one of the free Traps a model's `on_council` granted this Council (`info.grants`), placed as the grant says.
---@field barricade? Position Place a Barricade from here (within `barricade_within` of an intact building).
---@field toward? Position With `barricade`: the direction it runs, for its roster length.
---@field reinforce? boolean With `barricade`: Forge III Reinforced Defenses adds its Integrity (once per Council).
---@field trap? Position Place a Trap here (within `trap_within` of an intact building).
---@field heal? string|ModelView Temple I Healing (once per Council) on this hero on the table.
---@field herb? string|ModelView Spend a Herb token on this hero on the table.
---@field resurrect? string Temple III Resurrection (once per game) of this Defeated hero of the party.
---@field at? Position With `resurrect`: where it returns, wholly within reach of the Temple (default: the nearest legal spot).

---What one Council order did, as its `council` event says.
---
---```lua
---for _, r in ipairs(g:council(orders)) do print(r.what, r.refused) end
---```
---@class CouncilReport
---@field what string "upgrade", "repair", "barricade", "trap", "heal", "herb" or "resurrect".
---@field building? string The building upgraded or repaired.
---@field hero? string The hero healed or resurrected.
---@field pos? Position Where a Barricade, Trap or resurrected hero was put (or asked for).
---@field token? integer The Barricade or Trap placed.
---@field supplies integer Supplies paid.
---@field source string The ability used ("Forge II Master Craftsmen"), or "Council".
---@field detail string The result in words ("Integrity 3 -> 5"), or "refused".
---@field refused? string Why nothing happened.

---What a hero policy's `council(ctx, info)` is told at the start of a Council Phase.
---
---```lua
---local info = g:council_info()
---```
---@class CouncilInfo
---@field wave integer The wave just ended.
---@field supplies integer The village's Supplies.
---@field herbs integer Herb tokens held.
---@field buildings CouncilBuildingT[] Every building, in roster order.
---@field abilities CouncilAbilityT[] The Council abilities in force (Level reached, building intact).
---@field defeated string[] Heroes of the party that were Defeated (Fled ones rejoin at the next wave).
---@field edges integer[] The spawn edges of the wave just ended (1 north, 2 east, 3 south, 4 west).
---@field barricade_cost integer Supplies per Barricade.
---@field barricade_length number A Barricade's length, inches.
---@field barricade_within number A Barricade goes within this of an intact building.
---@field trap_cost integer Supplies per Trap.
---@field trap_within number A Trap goes within this of an intact building.
---@field grants CouncilGrantT[] Free Council orders the models' `on_council` granted for this Council (Grimm's free Trap).

---A free Council order a model's `on_council` granted for this Council; ordered `{ trap = at, free = true }`.
---
---```lua
---for _, g in ipairs(info.grants) do if g.order == "trap" and g.used < g.uses then print(g.hero) end end
---```
---@class CouncilGrantT
---@field model integer The id of the model whose script granted it.
---@field hero string That model's name.
---@field order string The order it makes free: "trap".
---@field uses integer How many such orders are free this Council.
---@field used integer How many were placed.
---@field entangle boolean A Trap placed with it Entangles instead of attacking.
---@field reason string For the log ("Snare Master").
---@field source string The script that granted it.

---What `on_council` may return (one, or an array): Council orders made free for this Council.
---
---```lua
---return { free = "trap", uses = 1, entangle = true, reason = "Snare Master" }
---```
---@class CouncilGrantAnswer
---@field free "trap" The Council order made free.
---@field uses? integer How many (1 to 10; default 1).
---@field entangle? boolean A Trap placed with it Entangles the model that springs it instead of attacking.
---@field reason? string For the log (default: the script's file name).

---A building as the Council sees it.
---
---```lua
---for _, b in ipairs(info.buildings) do print(b.name, b.upgrade_cost) end
---```
---@class CouncilBuildingT
---@field name string The building.
---@field level integer 1 to 3.
---@field integrity integer Current Integrity.
---@field max_integrity integer Starting Integrity: repairs stop there.
---@field destroyed boolean Destroyed: no repair, no upgrade.
---@field upgrade_cost? integer Supplies for the next Level (absent at the top or when Destroyed).

---A Council ability in force (rosters/village.toml).
---
---```lua
---for _, a in ipairs(info.abilities) do print(a.name, a.used) end
---```
---@class CouncilAbilityT
---@field building string Its building.
---@field level integer The Level that grants it.
---@field name string "Repairs", "Engineering Corps", "Healing", ...
---@field params table<string, any> Its numbers, from the roster.
---@field used boolean Its limited use is spent (this Council, or this game).

---One Enemy Group of a wave plan.
---
---```lua
---for _, gp in ipairs(plan.groups) do print(gp.number, gp.behaviour) end
---```
---@class GroupPlanT
---@field number integer In creation order, from 1.
---@field models string[] A profile name per model (a leader first).
---@field behaviour string The Group's Behaviour.
---@field rolled integer The size the D6 gave.
---@field cost integer Its Wave Points.
---@field edge integer Its spawn edge: 1 north, 2 east, 3 south, 4 west.
---@field igniters boolean It may set buildings on fire.

---What one model of the heroes' side did in `g:hero_turn`.
---
---```lua
---local turns = g:hero_turn()
---```
---@class HeroTurn
---@field model Model Who was nominated (the Leader of a group).
---@field group Model[] The friends that activated with a Leader as its group (§3.1); empty for one model.
---@field actions integer Actions its roll gave (each model of a group).
---@field turnover boolean Its roll ended the hero turn.
---@field done EnemyAction[] Each action, in order, with `model` set.

---What one Enemy Group did in `g:enemy_turn`.
---
---```lua
---local turns = g:enemy_turn()
---```
---@class GroupTurn
---@field group? integer Its Group number.
---@field behaviour? string Its Behaviour.
---@field actions integer Actions each model had.
---@field turnover boolean Its roll ended the enemy turn.
---@field done EnemyAction[] Each action, in order, with `model` set.

---What `g:act` or `g:order` did.
---
---```lua
---local attacked = g:act(orc).did == "structural"
---```
---@class EnemyAction
---@field did string "lost", "melee", "shoot", "structural", "ignite", "moved", "left", "claimed", "used", "healed", "ability" (a scripted action), "cast" (a spell), "broke_free" (work on breaking free) or "stood_up" (a Defenseless model not Engaged spends its first action standing up).
---@field why? string Why the action was lost.
---@field token? integer The Opportunity token claimed.
---@field roll? integer The Opportunity die of a claim.
---@field opportunity? string The Opportunity result claimed ("Relic Blade").
---@field item? string The item used.
---@field name? string The scripted action taken ("Field Repairs"), or the spell cast.
---@field source? string The script defining the scripted action, or the spell's script.
---@field power? integer The Power a spell was cast at.
---@field condition? Condition What a model breaking free works against ("transfixed" or "entangled").
---@field done? integer Actions spent so far on a scripted action's Task.
---@field needed? integer Actions a scripted action's Task needs.
---@field target? integer The id of the friend a Healer worked on.
---@field complete? boolean A claim, use, healing or scripted action is done (false while a multi-action one is under way).
---@field result? CombatOutcome A melee's or shot's result.
---@field building? string The building attacked or set on fire.
---@field damage? integer Integrity a structural attack removed.
---@field to? Position Where a move ended.
---@field travelled? number Inches moved.
---@field model? Model Who acted (in `g:enemy_turn`).

---What a Behaviour's `target` returns to send its model off the nearest table edge.
---
---```lua
---return { edge = true }
---```
---@class EdgeAim
---@field edge boolean true.

---What the hero policy's `deploy(ctx, step)` is asked at one step of the start of a wave (core §5.3): step 1 ("abilities", before anyone deploys) or step 4 ("ready_mounts", after both sides deploy).
---
---```lua
---deploy = function(ctx, step) if step.step == "abilities" then return nil end end
---```
---@class DeployStep
---@field step "abilities"|"ready_mounts" The step of §5.3.
---@field asks string[] The choices the kernel reads at this step: "warhorse" (Stable II), "ready_mounts" (Stable I).
---@field edges? integer[] The Groups' spawn edges (1 N, 2 E, 3 S, 4 W, in Group order) once revealed: at step 4, or already at step 1 with Watchtower III.

---What the hero policy's `deploy` returns; a key is read only at its step, an unknown key is an error naming the file. The kernel checks each choice and refuses a bad one with a reason (a `refused` event); the wave goes on.
---
---```lua
---return { warhorse = hero }
---```
---@class DeployChoices
---@field warhorse? ModelView|integer Stable II: the hero that has Long Move for this wave.
---@field ready_mounts? ReadyMountsChoice Stable I: a hero to move up to Short.

---Stable I Ready Mounts: a hero and where it goes — at most Short away, not an action, never ending in contact with an enemy.
---
---```lua
---return { ready_mounts = { hero = h, to = { x = 18, y = 12 } } }
---```
---@class ReadyMountsChoice
---@field hero ModelView|integer The hero to move.
---@field to Position Where to move it (a straight move, stopped as any move is).

---What a variant's `build_wave(ctx, ask)` is asked to build (SUPPLEMENT §10).
---
---```lua
---build_wave = function(ctx, ask) return { { models = { "Zombie" }, behaviour = "Mindless", edge = 1 } } end
---```
---@class WaveAsk
---@field wave integer The wave number, from 1.
---@field escalation string The wave's Escalation, "I" to "VII".
---@field limits table The Escalation row of rosters/escalation.toml (budget_percent, mobs_only, ...).
---@field budget integer Wave Points the Groups may cost in all (roster Wave Points).
---@field heroes integer The party's size.
---@field edges integer How many spawn edges the table has (1 north, clockwise).
---@field enemies EnemyProfile[] Every enemy profile of the rosters, in roster order.

---What a variant's `on_enemy_turn_end(ctx, turn)` hears as an enemy turn ends.
---
---```lua
---on_enemy_turn_end = function(ctx, turn) if #turn.destroyed > 0 then ctx:advance_track("threat", -#turn.destroyed) end end
---```
---@class EnemyTurnEnd
---@field wave integer The wave number, from 1.
---@field round integer The round of the wave, from 1.
---@field destroyed string[] The buildings Destroyed during the turn, in village order.

---What a victory script's `on_victory_check(ctx, check)` hears.
---
---```lua
---on_victory_check = function(ctx, check) if check.limit then return "draw", "time ran out" end end
---```
---@class VictoryCheck
---@field wave integer The wave number, from 1.
---@field round integer The round of the wave, from 1.
---@field turn string Whose turn just ended: "heroes" or "enemies".
---@field limit boolean The last round of the round limit has just ended.
---@field round_limit? integer The scenario's round limit, if any.

---A scenario's objective as `ctx:objectives` gives it.
---
---```lua
---local o = ctx:objectives()[1]; print(o.name, o.holder, o.vp)
---```
---@class BattleObjective
---@field name string Its name.
---@field x number Its point (an area's centre), inches from the west edge.
---@field y number Inches from the south edge.
---@field vp integer The Victory Points it is worth.
---@field each_round boolean Scored at the end of every round it is held (else at the game's end).
---@field holder? string "heroes" or "enemies": who holds it now (nil: nobody).

---A track in play as `ctx:track_info` gives it: rosters/tracks.toml's entry and where its marker stands.
---
---```lua
---local t = ctx:track_info("threat"); print(t.value, t.min, t.max)
---```
---@class TrackInfo
---@field name string The track's name.
---@field description string What it counts.
---@field value integer The space its marker stands on.
---@field min integer The lowest space.
---@field max integer The highest space.
---@field start integer The starting space in rosters/tracks.toml (a preset may have started it elsewhere).
---@field loses_at? integer The space where the game is lost, if any.
---@field params? table The numbers of the scripts that move it.

---An enemy profile as a wave builder sees it.
---
---```lua
---for _, p in ipairs(ask.enemies) do print(p.name, p.cost) end
---```
---@class EnemyProfile
---@field name string The profile's name.
---@field tier Tier mob, elite or boss.
---@field cost integer Its Wave Points.
---@field behaviours string[] The Behaviours it lists (a Group must use one of them).
---@field traits string[] Its traits.
---@field igniter boolean It may set buildings on fire from Escalation II.

---One Enemy Group a wave builder returns. The kernel checks that every profile is an enemy that lists the Behaviour, the Group holds 1 to 5 models, the edge is 1 to 4 and the wave stays within the budget; an error names the builder's file.
---
---```lua
---return { { models = { "Orc Warrior", "Orc Warrior" }, behaviour = "Ravager", edge = 2 } }
---```
---@class WaveGroup
---@field models string[] A profile name per model, leader first.
---@field behaviour string The Behaviour the Group follows.
---@field edge integer Its spawn edge: 1 north, 2 east, 3 south, 4 west.

---Options of `g:place`; an unknown key is an error.
---
---```lua
---g:place("Orc Warrior", { 3, 3 }, { behaviour = "Hunter", group = 1 })
---```
---@class PlaceOptions
---@field behaviour? string One of the profile's Behaviours (default: its first).
---@field group? integer Its Enemy Group number.

---One wave as `g:play_wave` played it.
---
---```lua
---local s = g:play_wave()
---```
---@class WaveSummary
---@field wave integer The wave number.
---@field escalation string Its Escalation.
---@field enemies integer Enemies deployed.
---@field rounds integer Rounds played.
---@field outcome string "win", "loss" or "stalled".
---@field cause? string Why a lost or stalled wave ended the game: "town_hall_destroyed", "overrun",                  "party_defeated" or "stalled" (absent for a won wave).
---@field integrity (string|integer)[][] Each building's `{ name, Integrity }` at the end.
---@field supplies integer Supplies at the end.
---@field wounds (string|integer)[][] Each hero's `{ name, Wounds }` at the end.
---@field defeated string[] Heroes no longer on the table (filled by a whole game).
---@field claimed string[][] Opportunities claimed in the wave: `{ hero, result }`, in order.
---@field council string[] What the Council Phase after the wave bought, one clause per accepted order.

---The result an Opportunity script resolves (its `claim`'s and `wave_end`'s last argument).
---
---```lua
---claim = function(ctx, hero, params, opp) print(opp.name, opp.roll) end
---```
---@class OpportunityInfo
---@field roll integer The Opportunity die.
---@field name string The row's name ("Ambush").
---@field timing string The entry point running: "claim" or "wave_end".
---@field token? Token The claimed token, where it lay (in `claim`; it is already removed).

---The item an item's `use` resolves.
---
---```lua
---use = function(ctx, hero, params, item) print(item.name) end
---```
---@class ItemInfo
---@field name string The item's name.

---A token on the table, as `ctx:tokens` lists it.
---
---```lua
---for _, t in ipairs(ctx:tokens()) do print(t.kind, t.x, t.y) end
---```
---@class Token
---@field id integer The token's id.
---@field kind string "opportunity", "barricade" or "trap".
---@field x number Where it lies.
---@field y number Where it lies.
---@field caster? integer For a Wall spell's barricade, the id of its caster (it falls with the caster and at the end of the wave).

---Options of `g:trap`; an unknown key is an error.
---
---```lua
---g:trap({ 10, 20 }, { entangle = true })
---```
---@class TrapOptions
---@field entangle? boolean A snare: Entangles instead of attacking.

---Options of `g:cast`, handed to the spell's script as `opts`; an unknown key is an error.
---
---```lua
---g:cast(ilse, "Heal", 1, bram, { what = "wound" })
---```
---@class CastOptions
---@field what? "wound"|Condition What a healing spell removes (default: the script's choice).
---@field from? Point Where a Wall starts.
---@field to? Point Which way a Wall runs (it takes the spell's length).
---@field at? Point Where a Summoning places its model.

---What `g:cast` did.
---
---```lua
---local held = g:cast(ilse, "Transfix", 2, orc).result
---```
---@class CastResult
---@field spell string The spell cast.
---@field power integer The Power (for a Ritual, the actions spent now).
---@field source string The spell's script, as the log names it ("scripts/spells/transfix.lua").
---@field complete boolean The effect happened (false while a Ritual's Task is under way).
---@field task? TaskProgress A Ritual's Task after this call.
---@field result? any What the script's `cast` returned (Transfix: held; Fireball: its CombatResult).

---What `g:morale` did.
---
---```lua
---local fled = g:morale(orc, "terror").result == "fled"
---```
---@class MoraleCheck
---@field dice integer[] The three dice (none when immune).
---@field failures integer Failed dice.
---@field result string "immune", "steady", "fell_back", "stood_up", "fled" or "defeated".
---@field moved number Inches fallen back.

---A Task after `g:task`.
---
---```lua
---local done = g:task(bram, "repairs", 2, 1).complete
---```
---@class TaskProgress
---@field name string The Task.
---@field done integer Actions spent so far.
---@field needed integer Actions it takes.
---@field complete boolean Done.

---Where `g:move` ended and why.
---
---```lua
---local m = g:move(orc, { x = 12, y = 3 })
---```
---@class MoveResult
---@field to Position Where the model stands now.
---@field travelled number Inches moved.
---@field stopped_by? Model|Building|string What stopped it early: a model, a building, a terrain kind, "table edge" or "trap".
---@field actions integer Actions it costs (2 for a Short move crossing difficult ground).
---@field band_lost? string Why it lost a band (difficult terrain, an obstacle).
---@field free_hacks Model[] Enemies that made a Free Hack as it left melee.

---What a melee or ranged attack rolled and did.
---
---```lua
---local r = g:melee(orc, bram)
---```
---@class CombatResult
---@field kind RollKind "melee" or "ranged".
---@field result CombatOutcome What happened to the loser (Tough, room to recoil applied).
---@field table_result CombatOutcome The result read from the combat table.
---@field attacker_die integer The attacker's die.
---@field defender_die integer The defender's die.
---@field attacker_total integer The attacker's total, modifiers included.
---@field defender_total integer The defender's total, modifiers included.
---@field modifiers AppliedModifier[] Every modifier applied, with its source.
---@field winner? Model The winner, unless a tie.
---@field loser? Model The loser, unless a tie (it may be off the table now).

---What a structural attack rolled and did.
---
---```lua
---local r = g:structural(orc, "Town Hall")
---```
---@class StructuralResult
---@field attacker_die integer The attacker's die.
---@field building_die integer The building's die.
---@field attacker_total integer The attacker's total.
---@field building_total integer The building's total.
---@field damage integer Integrity lost.
---@field integrity integer Integrity left.
---@field destroyed boolean The building is destroyed.
---@field modifiers AppliedModifier[] Every modifier applied, with its source.

---A modifier as applied and logged.
---
---```lua
---local m = r.modifiers[1]
---```
---@class AppliedModifier
---@field to Role Whose total it changed.
---@field value integer By how much.
---@field reason string Why ("power blow", or the hook's reason).
---@field source string "rules", or the script file that added it.

---A profile as `village show --json` prints it (`village.profile`, `m:profile()`).
---
---```lua
---local card = village.profile("Captain Maren")
---```
---@class ProfileCard
---@field name string The profile's name.
---@field kind string "hero", "enemy" or "defender".
---@field tier string "hero", "mob", "elite", "boss" or "defender".
---@field quality integer Quality.
---@field combat integer Combat.
---@field base number Base diameter, inches.
---@field moves string Its movement band and length ("Medium (6\")").
---@field wave_points integer Wave Points by the formula of SUPPLEMENT §8.
---@field printed_wave_points? integer As printed in the roster.
---@field traits table[] Each trait: name, text, details, script, source.
---@field weapon? table Its weapon: name, text, details, script, source.
---@field spells? table[] Its spells: name, text, details (kinds, Power), script, source.
---@field signature? table A hero's signature: name, text, params, script.
---@field alpha? table An Elite's or Boss's Alpha Rule: name, text, params, script.
---@field behaviours? table[] An enemy's Behaviours: name, text, details, script, source.
---@field text? string Notes from the roster.
---@field source? table Where its roster entry is: file, line, layer (0 built in).

---A script's decision (`g:why`; a `decision` event of a written log): a Behaviour's target, objective or action, the hero policy's activation, order, plan or Council purchases.
---
---```lua
---local d = g:why()[1]; print(d.script .. ":" .. d.line, d.reason)
---```
---@class Decision
---@field at integer The first event it led to.
---@field until? integer One past the last event it led to, once carried out.
---@field model? integer The model it was made for (none for Council purchases).
---@field by string Who decided: a Behaviour ("Hunter") or "policy NAME".
---@field decides string "target", "objective", "action", "activation", "order", "plan" or "council".
---@field chose string What was chosen, in words ("melee Orc Warrior (3)").
---@field reason? string Why, as the script said it (`ctx:why`, or its second return value).
---@field candidates? Candidate[] What it weighed (`ctx:why`).
---@field script string The deciding script (as the log names scripts).
---@field line integer Its line: where it gave its reason, else where the entry point is defined.
---@field said? string `file:line` where the reason was said, when another file (a library).

---One option a decision weighed.
---
---```lua
---for _, c in ipairs(d.candidates or {}) do print(c.name, c.score) end
---```
---@class Candidate
---@field name string The option in words ("Captain Maren (1)", "the Forge").
---@field score? number The score the script gave it (a distance ...).

---One event of the log; the other keys depend on `event`.
---
---```lua
---for _, e in ipairs(g:log()) do print(e.seq, e.event) end
---```
---@class LogEvent
---@field seq integer Position in the log.
---@field cause? integer The `seq` of the event this one followed from (the combat a Recoil, Wound or removal came from), when the kernel knows it.
---@field event string What happened: "roll", "activation", "moved", "combat", ...
---@field [string] any The event's data.

---The view of the game a hook receives. It lives only for the call: keep what you read, not the ctx. It is read-only in modifier and rule hooks; `on_result` and `on_charge` may roll dice and ask for changes; a spell's `cast` may also call the spell primitives, which the kernel checks against the casting and applies at once.
---
---```lua
---melee_modifier = function(ctx, self, roll) if ctx.wave >= 3 then return 1 end end
---```
---@class Ctx
---@field round integer The current round.
---@field wave integer The current wave.
---@field supplies integer The village's Supplies.
---@field igniters_burn boolean Whether Igniters may place fire in this wave (from Escalation II; true outside waves).
---@field params? table<string, any> The `params` of the roster entry that names this script (a trait's, a signature's ...).
---@field explaining boolean Whether this call's decision is being kept with its reasons (the REPL, a written log, the viewer, `sim --decisions`): `ctx:why` is heard only then, so work done only to explain (measuring every candidate) can be skipped when it is false, as in plain play and simulation.
local Ctx = {}

---A view of the model with this id, or nil (the same table for the same model within a call, until the game changes).
---
---```lua
---local m = ctx:model(roll.attacker.id)
---```
---@param id integer A model id.
---@return ModelView|nil
function Ctx:model(id) end

---Views of the models on the table that match every filter given, in id order, or nearest first with `near`. Filtering and measuring in Rust is much cheaper than reading every model's fields in Lua (docs/scripting.md, "Writing fast scripts").
---
---```lua
---local foes = ctx:models({ side = "enemies", near = ctx:town_hall() })
---```
---@param opts? ModelQuery Filters (side, kind, trait, condition, state, spell kind) and an order (`near`).
---@return ModelView[]
function Ctx:models(opts) end

---A view of the building, or nil.
---
---```lua
---local th = ctx:building("Town Hall")
---```
---@param name string The building's name.
---@return BuildingView|nil
function Ctx:building(name) end

---The gap between two bases, edge to edge, in inches (0 in contact).
---
---```lua
---if ctx:distance(self, roll.target) < 1 then return 1 end
---```
---@param a ModelView A model.
---@param b ModelView Another model.
---@return number
function Ctx:distance(a, b) end

---A rule constant in force (variants applied); an error if there is none.
---
---```lua
---local pb = ctx:rule("melee", "power_blow")
---```
---@param section string A section of rosters/rules.toml ("melee").
---@param key string A constant of that section ("power_blow").
---@return any
function Ctx:rule(section, key) end

---Views of the buildings that match every filter given (all of them, Destroyed ones included, without), in roster order (Town Hall first).
---
---```lua
---for _, b in ipairs(ctx:buildings({ standing = true })) do print(b.name) end
---```
---@param opts? BuildingQuery Filters: standing, economic, the Town Hall.
---@return BuildingView[]
function Ctx:buildings(opts) end

---The Town Hall's view (Destroyed or not), or nil when the village has none.
---
---```lua
---local th = ctx:town_hall()
---```
---@return BuildingView|nil
function Ctx:town_hall() end

---`ctx:distance_to(m, t)` for each `t` of the list, in order, in one call.
---
---```lua
---local d = ctx:distances_from(self, candidates)
---```
---@param m ModelView A model.
---@param things any[] Models, buildings, tokens or points.
---@return number[]
function Ctx:distances_from(m, things) end

---The candidates nearest `m`, edge to edge: of the models `ctx:models(among.models)` lists, then the buildings `ctx:buildings(among.buildings)` lists (a query left out lists none), in that order, each one more than 0.000001" nearer than the best so far replaces those kept and each within 0.000001" of it joins them (as `lib/priority.lua`'s `P.smallest_of`). Views only of those: a Behaviour picks its target without a view of every candidate. Empty when there is none.
---
---```lua
---local tied = ctx:nearest(self, { models = { side = "heroes" }, buildings = { standing = true } })
---```
---@param m ModelView A model.
---@param among NearestQuery The candidates: models (a `ctx:models` query) and buildings (a `ctx:buildings` query).
---@return (ModelView|BuildingView)[]
function Ctx:nearest(m, among) end

---`ctx:distance_to(m, thing)` for each model `m` of the list, in order, in one call.
---
---```lua
---local d = ctx:distances_to(ctx:models({ side = "enemies" }), ctx:town_hall())
---```
---@param models ModelView[] Models.
---@param thing ModelView|BuildingView|Token|Position What to measure to.
---@return number[]
function Ctx:distances_to(models, thing) end

---Edge-to-edge distance from a model to a model, a building's outline, a token from `ctx:tokens` (a Barricade's segment) or a point (inches).
---
---```lua
---local d = ctx:distance_to(self, ctx:buildings()[1])
---```
---@param m ModelView A model.
---@param other ModelView|BuildingView|Position A model, a building or a point.
---@return number
function Ctx:distance_to(m, other) end

---The tokens on the table, in id order.
---
---```lua
---local ops = ctx:tokens("opportunity")
---```
---@param kind? string "opportunity", "barricade" or "trap" (default: all).
---@return Token[]
function Ctx:tokens(kind) end

---The script that grants the model this permission (its traits', signature's, items' or a variant's `permissions`), or nil — what the kernel asks before letting it act. Not in a spell's `cast`.
---
---```lua
---if ctx:permission(self, "ignite") then return { ignite = building } end
---```
---@param m ModelView A model.
---@param name string A permission ("ignite", "heal", "shoot", "lead", ...).
---@return string|nil
function Ctx:permission(m, name) end

---The Behaviour's entry in rosters/behaviours.toml (§6.2–6.3): its play `order`, `max_actions`, `turnover`, the limits the kernel enforces (`ranged_attacks`, `voluntary_disengage`, `ignores_terror_and_gruesome`), `guard_radius`, `fallback_behaviour`, its `script`, `params` and the rulebook's words; nil for an unknown name.
---
---```lua
---local radius = ctx:behaviour(self.behaviour).guard_radius
---```
---@param name string A Behaviour's name (a model's `behaviour`).
---@return BehaviourInfo|nil
function Ctx:behaviour(name) end

---The objective its Group holds (§6.3): what its Behaviour's `objective` assigned at deployment, kept until that building is Destroyed or that token removed (then the Behaviour is asked again); nil when it has none.
---
---```lua
---local guarded = ctx:objective(self)
---```
---@param m ModelView An enemy model.
---@return BuildingView|Token|nil
function Ctx:objective(m) end

---The length in inches of the shortest legal route from `m` to base contact with `target`, as a `{ move = target }` order would take it (around buildings, impassable terrain and other bases); nil when there is none (a target hemmed in by bases and buildings). Costs a route search: ask when it matters.
---
---```lua
---if ctx:reach(self, foe) then return { move = foe } end
---```
---@param m ModelView The model that would move.
---@param target ModelView The model it would move to.
---@return number|nil
function Ctx:reach(m, target) end

---The move actions the route `ctx:reach` measures takes at `m`'s band: one move action is one straight segment (SUPPLEMENT §11), so each straight leg of the route takes one (more when longer than the band) and the rest of a band is lost at a corner; terrain is not counted. Nil when there is no route. Costs a route search.
---
---```lua
---local n = ctx:move_actions(self, foe)
---if n and n < self.actions_left then return { move = foe } end
---```
---@param m ModelView The model that would move.
---@param target ModelView The model it would move to.
---@return integer|nil
function Ctx:move_actions(m, target) end

---Whether the shooter may shoot the target now (§3.5: Shooter, weapon, not Engaged, target not Engaged, sight, range, the closest-target rule, Stealth), checked as a shot would be (`g:shoot` says why not). Rolls nothing. Not in a spell's `cast`.
---
---```lua
---if ctx:can_shoot(self, foe) then return { shoot = foe } end
---```
---@param shooter ModelView The model that would shoot.
---@param target ModelView The enemy it would shoot.
---@return boolean
function Ctx:can_shoot(shooter, target) end

---A spell as the rosters describe it (rosters/spells.toml): its kinds ("attack", "resisted", "healing", "wall"...), text, params; nil for an unknown name.
---
---```lua
---local s = ctx:spell("Fireball"); local attack = s and s.kinds[1] == "attack"
---```
---@param name string A spell's name ("Transfix").
---@return SpellInfo|nil
function Ctx:spell(name) end

---Whether the caster may cast the spell at this Power and target now (§3.7: known, not out of power, not Engaged, range by Power, sight; an attack spell the ranged-attack rules, a healing spell a living target), checked as a cast would be. It does not ask whether the caster declared: `self.declared` says that. Rolls nothing. Not in a spell's `cast`.
---
---```lua
---if ctx:can_cast(self, "Fireball", 2, foe) then return { cast = "Fireball", power = 2, target = foe } end
---```
---@param caster ModelView The Spell-caster.
---@param spell string A spell it knows ("Fireball").
---@param power integer Power 1–3 (range Short, Medium, Long).
---@param target? ModelView The model it aims at (none for a Wall).
---@return boolean
function Ctx:can_cast(caster, spell, power, target) end

---The friends that may activate with the Leader as a group now (§3.1): Active models of its side, in id order, each within Long of the Leader and of every one before it, up to five with the Leader. Empty for a model that is not a Leader. Not in a spell's `cast`.
---
---```lua
---local g = ctx:leader_group(self); if #g >= 2 then return { dice = 2, group = g } end
---```
---@param leader ModelView A Leader (its scripts grant `lead`).
---@return ModelView[]
function Ctx:leader_group(leader) end

---The enemies in base contact with a model, in id order.
---
---```lua
---local extra = #ctx:engaged(self) - 1
---```
---@param m ModelView A model.
---@return ModelView[]
function Ctx:engaged(m) end

---Whether the model's base touches a terrain piece of one of these kinds.
---
---```lua
---local hidden = ctx:touching_terrain(self, { "wood", "wall", "hedge" })
---```
---@param m ModelView A model.
---@param kinds string[] Terrain kinds ("wood", "wall", "hedge", ...).
---@return boolean
function Ctx:touching_terrain(m, kinds) end

---Roll dice from the game's stream, logged as an event. Only in `on_result` and `on_charge`.
---
---```lua
---if ctx:roll(1)[1] >= 5 then ctx:worsen_quality(win.opponent, 1, "Poison") end
---```
---@param n integer How many D6 (1 to 6).
---@param purpose? string What the roll is for, in the log (default: the script).
---@return integer[]
function Ctx:roll(n, purpose) end

---Ask the kernel to worsen a model's Quality after the hook (at the Tough limit it is Defeated). Only in `on_result` and `on_charge`.
---
---```lua
---ctx:worsen_quality(win.opponent, 1, "Poison")
---```
---@param m ModelView The model.
---@param amount integer By how much (Quality grows: worse).
---@param reason? string For the log.
function Ctx:worsen_quality(m, amount, reason) end

---Ask the kernel to give a model a condition after the hook. Only in `on_result` and `on_charge`.
---
---```lua
---ctx:add_condition(win.opponent, "entangled", self)
---```
---@param m ModelView The model.
---@param condition Condition The condition.
---@param holder? ModelView The model holding it (an Entangle ends when it Recoils or falls).
function Ctx:add_condition(m, condition, holder) end

---Spell primitive (a Resisted spell): the target rolls one Quality die per Power; any failure Transfixes it, held by the caster. True when it took hold. Only in a spell's `cast`.
---
---```lua
---local held = ctx:transfix(target, power)
---```
---@param target ModelView|integer The model (in range and sight).
---@param power integer The Power the spell was cast at.
---@return boolean
function Ctx:transfix(target, power) end

---Spell primitive (an attack spell): a ranged attack with Combat equal to the Power, with both models' modifier hooks. Only in a spell's `cast`.
---
---```lua
---local r = ctx:spell_attack(target, power)
---```
---@param target ModelView|integer An enemy model (in range and sight, closest, not Engaged).
---@param power integer The Power the spell was cast at: its Combat.
---@return CombatResult
function Ctx:spell_attack(target, power) end

---Spell primitive (a healing spell): heal one Wound or clear one condition; an error on an Undead or Artificial model or when there is nothing of that kind. What was healed. In a spell's `cast`; in an item's `use` (a Potion) it is a reward the kernel applies after the script, to the hero using it only (returns what was asked).
---
---```lua
---ctx:heal(target, "wound")
---```
---@param target ModelView|integer A living model in range and sight.
---@param what "wound"|Condition A Wound, or the condition to clear.
---@return string
function Ctx:heal(target, what) end

---Spell primitive (a Wall spell): a linear obstacle with the roster's Integrity and Structure, held by the caster (it falls when the caster leaves). Its token id. Only in a spell's `cast`.
---
---```lua
---local token = ctx:wall(opts.from, opts.to, power)
---```
---@param from Point Where the wall starts.
---@param to Point Which way it runs: it takes the spell's `wall.length`.
---@param power integer The Power the spell was cast at: both ends within its range.
---@return integer
function Ctx:wall(from, to, power) end

---Spell primitive (a Summoning): a new model on the caster's side and in its Group, summoned by the caster so it vanishes when the caster leaves. Only in a spell's `cast`.
---
---```lua
---local sk = ctx:summon(ctx.params.profile, opts.at, ctx.params.within)
---```
---@param profile string A profile of the rosters ("Skeleton Warrior").
---@param at Point Where its base stands: free ground.
---@param within "short"|"medium"|"long" How close to the caster it must stand.
---@return ModelView
function Ctx:summon(profile, at, within) end

---Spell primitive (a dispel): remove one Enchantment (a lasting effect of a spell of kind `enchantment`) from the model; what was removed, or nil. No supplied spell is an Enchantment and the kernel records none, so today it finds nothing. Only in a spell's `cast`.
---
---```lua
---local gone = ctx:dispel(target)
---```
---@param target ModelView|integer A model in range and sight.
---@return string|nil
function Ctx:dispel(target) end

---Reward primitive: the village gains Supplies (logged `supplies_gained`, this script the source). Only in an Opportunity's `claim`/`wave_end` or an item's `use`; like every reward, applied by the kernel after the script returns, or not at all if one fails.
---
---```lua
---ctx:add_supplies(params.supplies)
---```
---@param n integer Supplies to add (1 or more).
function Ctx:add_supplies(n) end

---Reward primitive: the village gains Herb tokens (each heals 1 Wound in a Council Phase).
---
---```lua
---ctx:add_herbs(params.herbs)
---```
---@param n integer Herb tokens to add (1 or more).
function Ctx:add_herbs(n) end

---Reward primitive: a Village Defender of this profile joins at the next wave start.
---
---```lua
---ctx:join(params.profile)
---```
---@param profile string A Village Defender profile ("Village Archer").
function Ctx:join(profile) end

---Reward primitive: enemies deploy wholly within the measure of the claimed token, outside contact, as a new numbered Enemy Group joining the wave (nearest spots first; fewer when the ground is crowded). Only in an Opportunity's `claim`.
---
---```lua
---ctx:ambush(params.profile, params.count, params.behaviour, params.within)
---```
---@param profile string An enemy profile.
---@param count integer How many.
---@param behaviour string The Behaviour they play.
---@param within string How far from the token: "short", "medium" or "long".
function Ctx:ambush(profile, count, behaviour, within) end

---Reward primitive: the hero gains an item carrying this script and its params: the script's model hooks (`melee_modifier`, ...) then act for the hero as a trait's do, and its `use`, if any, is what a `{ use = item }` order does.
---
---```lua
---ctx:give(hero, "Relic Blade")
---```
---@param m ModelView|integer A hero (not an Animal or a Village Defender).
---@param item string The item's name ("Relic Blade").
function Ctx:give(m, item) end

---Whether a limited use is already spent (game:... lasts the game, wave:... the wave, council:... the Council Phase).
---
---```lua
---if ctx:spent("game:Relic Blade:" .. hero.name) then return end
---```
---@param key string A limited use: "game:...", "wave:..." or "council:...".
---@return boolean
function Ctx:spent(key) end

---Reward primitive: spend a limited use (an error if it is already spent).
---
---```lua
---ctx:spend("game:Relic Blade:" .. hero.name)
---```
---@param key string A limited use: "game:...", "wave:..." or "council:...".
function Ctx:spend(key) end

---In a decision hook (a Behaviour's `target`, `objective`, `act`; a policy's `activate`, `act`, `council`) while `ctx.explaining`: says why the script chose what it returns, and what it weighed; the kernel keeps it with the decision (`decision` events in a written log, `:why` in the REPL, the viewer) with the line of the deciding script it was said from. Nothing otherwise: it never changes the game. A hook may also return its reason as a second value (`return target, "why"`), which costs nothing when no one is explaining.
---
---```lua
---if ctx.explaining then ctx:why("the nearest hero", heroes, distances) end
---```
---@param reason? string Why, in a few words ("the nearest hero").
---@param candidates? any[] What was weighed: models, buildings, tokens, points or strings.
---@param scores? number[] The score each candidate was given, by position (a distance, a rank).
function Ctx:why(reason, candidates, scores) end

---In a hook the kernel calls for every script of a model (on_opponent_activation, on_activation_roll, on_friend_result, on_result, on_charge, on_defeat, on_structural, on_activation, on_wave_start, on_pass_token, on_council): this hook of this script has nothing more to do for this model this wave, so the kernel does not call it again until the next wave begins (a use spent for the wave, say). It saves the calls, and changes nothing else; an error in any other hook.
---
---```lua
---if key == nil then ctx:done_for_wave() return end
---```
function Ctx:done_for_wave() end

---The hero an Opportunity's or item's script acts for, if it is on the table (nil elsewhere).
---
---```lua
---local h = ctx:hero()
---```
---@return ModelView|nil
function Ctx:hero() end

---See an Opportunity's result before claiming it (Wren's Pathfinder): the kernel rolls the token's Opportunity die now (logged, with a `rule_bent` event naming the script that grants `peek_opportunity`), keeps it on the token for whoever claims it, and returns the result's name; a token already peeked is read again without a roll. An error for a model without the permission, a token that is no Opportunity, or a read-only ctx.
---
---```lua
---if ctx:peek(self, token) ~= "Ambush" then return true end
---```
---@param model ModelView|integer Who looks: a model holding the `peek_opportunity` permission.
---@param token Token|integer An Opportunity token (from `ctx:tokens("opportunity")`).
---@return string
function Ctx:peek(model, token) end

---Ask the kernel for a morale check after the hook. Only in `on_result` and `on_charge`.
---
---```lua
---for _, m in ipairs(charged) do ctx:morale(m, "terror") end
---```
---@param m ModelView The model.
---@param trigger string "terror", "gruesome_kill", "leader_defeated" or "half_lost".
function Ctx:morale(m, trigger) end

---What each candidate is worth, by playing the game on from here with it taken: `samples` playouts each, by the default policy (or `options.policy`) and the Behaviours, to `depth` (the rest of the activation, the turn, the round — the default — or the wave), scored by `score`. Sample k of every candidate rolls the same dice (common random numbers), seeded from the game's seed and the event the decision is made at: the same decision always gets the same estimates. Each roll in a playout comes from a position named by its wave, round, purpose and model, so a candidate that spends dice differently does not shift every later roll: the same model's same roll gets the same faces in every candidate's sample k. The game, its log, its dice and `math.random` are exactly as before the call. Only the hero policy may call it, in its `activate`, `act` or `plan`; a playout's own policy may not. The playouts' scripts spend a budget of their own, not the caller's: at most 100 M VM instructions and 250,000 events for all the calls of one decision (`instructions` and `events` may lower them); sampling stops where they run out (`capped`), every candidate keeping the same number of samples.
---
---```lua
---local r = ctx:rollouts({ { order = a }, { order = b } }, { samples = 8, depth = "round" })
---if r.estimates[2].mean > r.estimates[1].mean then return b end
---```
---@param candidates RolloutCandidate[] The decisions to weigh (1–32): nominations of an offered model, letting it wait, or orders for the model taking its actions.
---@param options? RolloutOptions Samples, depth, score and caps (all optional).
---@return Rollouts
function Ctx:rollouts(candidates, options) end

---Ask the kernel to add a modifier to some models' melee and ranged rolls for a while (logged `effect_granted`). In hooks that may ask for changes.
---
---```lua
---ctx:grant({ models = ids, against = group_ids, value = 1, reason = "Hold the Line" })
---```
---@param effect GrantOptions Who gains what, against whom, for how long.
function Ctx:grant(effect) end

---The space the track's marker stands on. An error names the tracks in play when it is not one of them (a variant in force puts a track in play with `tracks = { "name" }`).
---
---```lua
---if ctx:track("threat") <= 2 then return 1 end
---```
---@param name string A track in play (rosters/tracks.toml).
---@return integer
function Ctx:track(name) end

---The track as rosters/tracks.toml has it (`min`, `max`, `start`, `loses_at`, `params`), with `value`, where its marker stands.
---
---```lua
---local advance_on = ctx:track_info("threat").params.advance_on
---```
---@param name string A track in play.
---@return TrackInfo
function Ctx:track_info(name) end

---Ask the kernel to move the track's marker, stopping at its bounds (logged `track_moved`). A marker that reaches the track's `loses_at` space ends the game (cause `threat_track`). In hooks that may ask for changes and in an action's `run`.
---
---```lua
---ctx:advance_track("threat", -1, "the threat grows")
---```
---@param name string A track in play.
---@param by integer Spaces to move its marker: up when positive, down when negative.
---@param reason? string Why, in words (the log's `reason`; default: the script).
function Ctx:advance_track(name, by, reason) end

---The Victory Points the side has scored in the scenario's battle (0 in a game without one).
---
---```lua
---if ctx:vp("heroes") >= 6 then return "win", "six VP" end
---```
---@param side string "heroes" or "enemies".
---@return integer
function Ctx:vp(side) end

---The scenario's objectives, each with who holds it now (`holder`: "heroes", "enemies" or nil), in the scenario's order; empty in a game without them.
---
---```lua
---for _, o in ipairs(ctx:objectives()) do print(o.name, o.holder) end
---```
---@return BattleObjective[]
function Ctx:objectives() end

---Ask the kernel to award Victory Points (logged `vp_scored`). Only in a scenario's battle, in hooks that may ask for changes (a victory script's `on_victory_check`).
---
---```lua
---ctx:award_vp("heroes", 1, "the caravan moved on")
---```
---@param side string "heroes" or "enemies".
---@param points integer Victory Points to award, 0 or more.
---@param reason? string Why, in words (the log's `reason`; default: the script).
function Ctx:award_vp(side, points, reason) end

---Ask the kernel to restore Integrity to an intact building (logged `repaired`). In hooks that may ask for changes and in an action's `run`.
---
---```lua
---ctx:repair("Forge", 1)
---```
---@param building BuildingView|string The building.
---@param amount integer Integrity to restore, up to its maximum.
function Ctx:repair(building, amount) end

---Ask the kernel to remove a building's fire token (logged `fire` with this script).
---
---```lua
---ctx:extinguish("Temple")
---```
---@param building BuildingView|string The building.
function Ctx:extinguish(building) end

---Ask the kernel to put a fire token on an intact building that has none (logged `fire` with this script).
---
---```lua
---ctx:ignite("Stable")
---```
---@param building BuildingView|string The building.
function Ctx:ignite(building) end

---Ask the kernel for an attack at this Combat, resolved as a ranged attack is (the target's roll only defends; no weapon, sight or closest-target check), its result applied. Only in a scripted action's `run` (the Young Dragon's Fire Breath).
---
---```lua
---ctx:attack(self, hero, ctx.params.combat, "Fire Breath")
---```
---@param attacker ModelView|integer Who attacks.
---@param target ModelView|integer Who is attacked.
---@param combat integer The attacker's Combat for this attack.
---@param reason string|nil For the log (default: the script's path).
function Ctx:attack(attacker, target, combat, reason) end

---Ask the kernel to place a model of `profile` at the nearest free spot within `within` of the summoner, on its side and in its Group; it vanishes if the summoner is Defeated (logged `summoned`). Only in a scripted action's `run` (the Lich's Raise Dead).
---
---```lua
---ctx:summon_near(self, "Skeleton Warrior", "short")
---```
---@param summoner ModelView|integer Whose side and Group it joins.
---@param profile string The profile to place.
---@param within number|"short"|"medium"|"long" How far from the summoner's base.
function Ctx:summon_near(summoner, profile, within) end

---The scripted actions the model may take now: each action of its scripts (by name) with each target its `targets` offers, kept when its `can` says true. Order one with `{ ability = u.name, target = u.target }`.
---
---```lua
---for _, u in ipairs(ctx:usable(self)) do return { ability = u.name, target = u.target } end
---```
---@param model ModelView|integer The model.
---@return UsableAction[]
function Ctx:usable(model) end

---Ask the kernel to remove a Barricade (logged `barricade_damage` with this script).
---
---```lua
---ctx:remove_barricade(b)
---```
---@param token Token|integer The Barricade (from `ctx:tokens("barricade")`).
function Ctx:remove_barricade(token) end

---A model as a hook sees it (the fields of a `Model`), read-only. Lazy: a field is read from the game the first time it is asked for, then kept; `pairs` lists them all. A view lives for the hook call that handed it out: a field first read after that call is an error (keep ids, not views). Before a ctx method changes the game, the call's views are filled in: they keep showing the model as it was.
---
---```lua
---melee_modifier = function(ctx, self, roll) if self:has_trait("Savage") then return 1 end end
---```
---@class ModelView
---@field id integer The model's id, stable for the whole game.
---@field name string The profile's name ("Orc Warrior").
---@field kind ProfileKind Hero, enemy or Village Defender.
---@field tier Tier The profile's tier.
---@field side Side The side it fights on (Village Defenders fight with the heroes).
---@field quality integer Current Quality (the target number of activation dice), worsened by Wounds.
---@field combat integer Combat.
---@field pos Position Centre of the base, in inches.
---@field base number Base diameter in inches.
---@field wounds integer Wounds suffered (Tough).
---@field conditions Condition[] Conditions, sorted.
---@field traits string[] Traits as printed on the profile, then any it has for this wave only (Stable II Warhorse's Long Move).
---@field weapon? string The ranged weapon, if any.
---@field spells string[] Spells known.
---@field group? integer The enemy Group number, if any.
---@field active boolean Active this turn.
---@field engaged boolean In contact with an enemy.
---@field defeated boolean Removed other than by fleeing (a removed model's handle still answers id, name and defeated).
---@field weapon_broken boolean Its ranged weapon broke or ran out (no more shooting this game).
---@field charged boolean It moved into contact with an enemy in its current activation (Dashing, Ride Down); false outside its own activation.
---@field moved number Inches it moved in its current activation (Sir Roland's Ride Down); 0 outside it.
---@field attacks integer Melee and ranged attacks it made this turn (one per turn, §3.2, however often it is nominated; the turn engine counts them).
---@field activations integer How often it was nominated this turn (§3.1: after failing exactly one die without a turnover it stays Active and may be nominated again).
---@field declared boolean It declared spellcasting before rolling for the activation being played (§3.7): it may cast.
---@field casts integer Spells it cast in the activation being played (one an activation, `magic.spells_per_activation`).
---@field out_of_power boolean A Spell-caster that failed three dice this wave: no more spells until the next (§3.7).
---@field task? string The Task it is working on, if any ("break free of transfixed", "heal Bram the Smith (4)"...).
---@field actions_left integer Actions it has left in the activation being played, this one included (0 outside the turn engine).
---@field wrecked? string The building it Destroyed with a structural attack, if any (a Raider then leaves, §6.3).
---@field behaviour? string The Behaviour an enemy plays (§6.3); nil for heroes and Defenders.
---@field items string[] Names of the items and boons it carries (an Opportunity's Potion of Healing, Relic Blade), in the order gained.
local ModelView = {}

---Whether the profile carries the trait.
---
---```lua
---if m:has_trait("Hero") then return 1 end
---```
---@param name string A trait, as printed (case-sensitive).
---@return boolean
function ModelView:has_trait(name) end

---Whether the model has the condition.
---
---```lua
---if m:has("defenseless") then return 2 end
---```
---@param condition Condition A condition.
---@return boolean
function ModelView:has(condition) end

---A building as a hook sees it (the fields of a `Building`), read-only and lazy as a `ModelView` is.
---
---```lua
---local th = ctx:building("Town Hall")
---```
---@class BuildingView
---@field name string The building's name ("Town Hall").
---@field integrity integer Integrity left.
---@field max_integrity integer Integrity at its current Level.
---@field level integer Level (1 = Level I).
---@field destroyed boolean Destroyed.
---@field fire boolean On fire.
---@field town_hall boolean The Town Hall (its loss ends the game).
---@field economic boolean An economic building (the Raider's target).
---@field pos Position Centre of the footprint, in inches.
---@field size Size Footprint size, in inches.

---What a modifier hook learns about the roll about to be made.
---
---```lua
---if roll.kind == "melee" and roll.role == "attacker" then return 1 end
---```
---@class Roll
---@field kind RollKind Which roll.
---@field role Role The hook owner's role in it.
---@field attacker ModelView The attacking model.
---@field target ModelView|BuildingView The model or building attacked.
---@field power_blow boolean The attack is a Power Blow.
---@field aimed boolean The shot is aimed.
---@field free_hack boolean The attack is a Free Hack.
---@field target_token? integer The token attacked, when it is a Barricade.

---A won roll as `win_rules` and `on_result` see it.
---
---```lua
---if win.role == "winner" and win.kind == "melee" then return { lethal = true } end
---```
---@class Win
---@field kind RollKind Which roll.
---@field result CombatOutcome The result so far (read from the table, or as a script replaced it).
---@field role "winner"|"loser"|"friend" The hook owner's side of the win ("friend": a friend of the loser, in `on_friend_result`).
---@field attacker_won boolean Whether the winner was the attacker.
---@field winner_die integer The winner's natural die.
---@field winner_total integer The winner's total.
---@field loser_total integer The loser's total.
---@field opponent? ModelView The other model.
---@field friend? ModelView In `on_friend_result`: the friend that lost.
---@field would_remove? boolean In `on_friend_result`: the result as it stands takes the friend off the table (a Tough model's Wound does not).

---What `win_rules` returns: how the owner's win is read.
---
---```lua
---return { lethal = "Lethal", gruesome_multiplier = 2 }
---```
---@class WinRules
---@field lethal? boolean|string The win defeats on any loss (a string is the reason).
---@field gruesome_multiplier? integer A Gruesome Kill from this multiple (Savage: 2).

---What `on_result` (and `on_friend_result`) may return: a result to apply instead, or a longer Recoil.
---
---```lua
---return { result = "none", reason = "Heavy Armor" }
---```
---@class ResultChange
---@field result? CombatOutcome The result to apply instead.
---@field recoil? number|"short"|"medium"|"long" A Recoil moves the loser this far instead of one base width (inches or a measure).
---@field reason? string For the log.

---What `movement` returns: how its owner moves.
---
---```lua
---return { ignore_terrain = { "wood" } }
---```
---@class MoveTraits
---@field flying? boolean Passes over terrain; no band lost.
---@field ignore_terrain? string[] Terrain kinds that cost it nothing.
---@field free_disengage? boolean|integer[] Leaves these enemies (ids; true: all) without a Free Hack.
---@field band? "short"|"medium"|"long" Its movement band (default Medium).
---@field one_move? boolean Only one move action per activation (Slow).

---What `morale` returns for a check about to be rolled.
---
---```lua
---if trigger == "terror" then return { immune = "Fearless" } end
---```
---@class MoraleAnswer
---@field immune? boolean|string Ignore this check (a string is the reason).
---@field modifier? integer Added to each morale die.
---@field reason? string For the log.

---One decision `ctx:rollouts` weighs: a nomination of an Active model of the heroes' side (`model` with `dice`, `cast`, `group`, as `activate` answers), letting it wait (`model` with `wait = true`: the turn's pass goes on without it), or orders for the model taking its actions (`order`, or a plan's `orders`; the policy orders the rest of the activation).
---
---```lua
---local cands = { { model = self, dice = 3 }, { model = self, wait = true }, { order = { melee = foe } } }
---```
---@class RolloutCandidate
---@field model? integer|ModelView The model nominated or left to wait.
---@field wait? boolean Let the model wait instead of nominating it.
---@field dice? integer Activation dice, 1–3 (default 2).
---@field cast? boolean Declare spellcasting before the roll.
---@field group? integer[]|ModelView[] A Leader's group rolling with it.
---@field order? BehaviourOrder One order for the model taking its actions.
---@field orders? BehaviourOrder[] A plan: orders for the model taking its actions, in turn.

---How `ctx:rollouts` plays out: every key optional.
---
---```lua
---local r = ctx:rollouts(cands, { samples = 16, depth = "wave", score = "integrity" })
---```
---@class RolloutOptions
---@field samples? integer Playouts per candidate, 1–256 (default 8).
---@field depth? "activation"|"turn"|"round"|"wave" How far each playout goes (default "round").
---@field score? "result"|"integrity"|"waves" What a playout's end is worth: the wave's result (1 won, 0 lost, ½ a battle's draw; before the wave ends, the position's worth between: 0.4 × the enemies' strength taken, 0.3 × the heroes' side's kept, 0.3 × the village's Integrity kept), the Town Hall's Integrity, or waves won with the wave under way counted by its result (default "result").
---@field events? integer The most events this call's playouts may log (default 100,000).
---@field instructions? integer The most VM instructions this call's playouts' scripts may spend.
---@field policy? string The hero policy the playouts are played with (default "default").

---What `ctx:rollouts` found: an estimate per candidate, in the order given.
---
---```lua
---for i, e in ipairs(r.estimates) do print(i, e.mean, e.low, e.high) end
---```
---@class Rollouts
---@field estimates RolloutEstimate[] One per candidate.
---@field samples integer Samples played (each for every candidate).
---@field events integer Events the playouts logged (then undid).
---@field capped boolean Sampling stopped at a cap before the samples asked for.
---@field instructions integer VM instructions the playouts' scripts spent.

---One candidate's estimate.
---
---```lua
---if e.low > best.high then best = e end
---```
---@class RolloutEstimate
---@field mean number The mean score of its playouts.
---@field low number The low end of its 95% interval (mean − 1.96 standard errors).
---@field high number The high end.
---@field playouts integer The playouts behind it.
---@field scores number[] Each playout's score, by sample.
---@field refused? string Why the rules refused the candidate (not played out).

---What `ctx:grant` is given: a modifier for some models' rolls, for a while.
---
---```lua
---ctx:grant({ models = { self.id }, against = { orc.id }, value = 1, ends = "wave" })
---```
---@class GrantOptions
---@field models integer[]|ModelView[] The models whose rolls it modifies (ids or views).
---@field against? integer[]|ModelView[] Only in rolls against these (default: anyone).
---@field value integer Added to the model's own total.
---@field reason? string For the log (default: the script's file name).
---@field ends? "activation"|"wave" When it ends: with the activation being played (default) or the wave.

---The order an `order_cost` hook is asked about.
---
---```lua
---if order.kind == "aimed_shot" then return { cost = 1 } end
---```
---@class OrderInfo
---@field kind string "melee", "power_blow", "shoot", "aimed_shot", "structural", "ignite", "move", "approach", "leave", "claim", "use", "heal" or "ability".
---@field cost integer Actions it costs by the rulebook.
---@field target? integer The model it aims at (an attack or a heal).
---@field building? string The building it aims at.
---@field name? string A scripted action's name.

---What `order_cost` may return: a lower cost, and the limited use it spends when the order is carried out.
---
---```lua
---return { cost = 1, spend = "wave:Called Shot", reason = "Called Shot" }
---```
---@class CostAnswer
---@field cost integer Actions (0 to 3); the lowest any script gives is used. A model takes at most three free orders (cost 0) an activation: past them the order costs the rulebook's.
---@field spend? string A limited use (`game:`/`wave:`/`council:`) spent once the order is carried out.
---@field reason? string For the log.

---An activation roll as `on_activation_roll` sees it, before any reroll.
---
---```lua
---if roll.side == "heroes" and #roll.dice > 0 then return { reroll = "best" } end
---```
---@class ActivationRollInfo
---@field dice integer[] The faces, in the order rolled (a Hero's automatic success is not a die and is not here).
---@field quality integer The Quality rolled against.
---@field side Side The side activating.
---@field models ModelView[] The models activating (a Group, or one model).

---What `on_activation_roll` may return: dice to roll again (the first script that asks wins).
---
---```lua
---return { reroll = "all", spend = "wave:Warcry:" .. self.id, reason = "Warcry" }
---```
---@class RerollAnswer
---@field reroll "all"|"best" Every die, or the best (highest) one.
---@field spend? string A limited use spent by the reroll.
---@field reason? string For the log.

---A scripted action a model may take now, as `ctx:usable` lists it.
---
---```lua
---local u = ctx:usable(self)[1]
---```
---@class UsableAction
---@field name string The action's name.
---@field target? any What it would aim at (a building, model, token or point).
---@field source string The script that defines it.

---A structural attack as `on_structural` sees it, after its damage.
---
---```lua
---if attack.won then ctx:remove_barricade(b) end
---```
---@class StructuralInfo
---@field building string The building attacked.
---@field won boolean Whether the attacker won the roll.

---One entry of a script's `actions` table: an extra action its owner may order with `{ ability = name, target = ... }`.
---
---```lua
---actions = { ["Smother"] = { can = function(ctx, self, b) return true end, run = function(ctx, self, b) ctx:extinguish(b) end } }
---```
---@class ActionSpec
---@field task? integer|fun(ctx: Ctx): integer A Task of this many actions (each order adds one); `run` runs once complete.
---@field attack? boolean It is its model's one melee or ranged attack of the turn (core §3.2): refused after one, counted as one.
---@field targets? fun(ctx: Ctx, self: ModelView): any[] The targets worth offering now (for `ctx:usable`); without it the action takes no target.
---@field can? fun(ctx: Ctx, self: ModelView, target: any): boolean|string true when it may be used now; false or a string saying why not refuses the order.
---@field run fun(ctx: Ctx, self: ModelView, target: any) Its effect: ask for changes through `ctx` (`ctx:repair`, `ctx:extinguish`, `ctx:spend`, ...).

---A modifier a hook returns (a bare whole number means `{ value = n }`).
---
---```lua
---return { value = -1, to = "opponent", reason = "terrifying" }
---```
---@class Modifier
---@field value integer A whole number to add to the total.
---@field to? "self"|"opponent"|"attacker"|"defender" Whose total (default "self", the hook's owner).
---@field reason? string For the log (default: the script's file name).

---A Behaviour of rosters/behaviours.toml (§6.2–6.3), as `ctx:behaviour` reads it.
---
---```lua
---local b = ctx:behaviour("Guardian")
---```
---@class BehaviourInfo
---@field name string The Behaviour's name.
---@field order integer Its place in the enemy turn's play order (lower first).
---@field max_actions integer Most actions a Group of it takes per activation.
---@field turnover boolean Whether two failures end the enemy turn.
---@field ranged_attacks boolean Whether it makes ranged and spell attacks (the kernel refuses them otherwise).
---@field voluntary_disengage boolean Whether it moves while Engaged (the kernel refuses it otherwise).
---@field ignores_terror_and_gruesome? boolean It makes no morale checks for Terror or Gruesome Kills.
---@field guard_radius? number How near its objective it stays (Guardian), inches.
---@field fallback_behaviour? string The Behaviour it falls back on.
---@field target string The rulebook's words: its target.
---@field melee string The rulebook's words: in melee.
---@field fallback string The rulebook's words: its fallback.
---@field limits? string The rulebook's words: its limits.
---@field script? string Its script, relative to scripts/.
---@field params? table Plain data for its script.

---A spell of rosters/spells.toml, as `ctx:spell` reads it.
---
---```lua
---local s = ctx:spell("Thorn Wall")
---```
---@class SpellInfo
---@field name string The spell's name.
---@field kinds string[] Its kinds (§3.7): "attack", "resisted", "enchantment", "summoning", "wall", "ritual", "healing", "dispel".
---@field text string What it does, for people.
---@field living_only? boolean No effect on Undead or Artificial models.
---@field ritual_actions? integer A Ritual's Task size.
---@field wall? table A Wall's `{ length, integrity, structure }`.
---@field script? string The script that resolves it.
---@field params? table Plain data for its script.

---A trait's script (scripts/traits/*.lua), named by a trait in rosters/traits.toml.
---
---```lua
---return { melee_modifier = function(ctx, self, roll) return 1 end }
---```
---@class TraitScript
---@field name? string A display name.
---@field description? string What it does, for people.
---@field params? table Plain data for the module's own use.
---@field melee_modifier? fun(ctx: Ctx, self: ModelView, roll: Roll): integer|Modifier|Modifier[]|nil Modifiers to a melee roll its owner (`self`) takes part in, as attacker or defender.
---@field ranged_modifier? fun(ctx: Ctx, self: ModelView, roll: Roll): integer|Modifier|Modifier[]|nil Modifiers to a ranged roll its owner takes part in.
---@field structural_modifier? fun(ctx: Ctx, self: ModelView, roll: Roll): integer|Modifier|Modifier[]|nil Modifiers to a structural attack its owner makes.
---@field win_rules? fun(ctx: Ctx, self: ModelView, win: Win): WinRules|nil Called for the winner of a roll before its result is read: Lethal, a lower Gruesome multiple.
---@field on_result? fun(ctx: Ctx, self: ModelView, win: Win): ResultChange|nil Called for the winner, then the loser, before a result is applied: replace it (Heavy Armor, Entangle), roll dice and ask for changes through `ctx` (Poison).
---@field on_charge? fun(ctx: Ctx, self: ModelView, charged: ModelView[]) Called when its owner's move ends in contact with enemies: ask for changes (Terror's morale checks).
---@field movement? MoveTraits|fun(ctx: Ctx, self: ModelView, engaged: ModelView[]): MoveTraits|nil How its owner moves: Flying, its band, terrain it ignores, enemies it leaves freely. A table when the answer never changes (Long Move's `{ band = "long" }`: no call at each move), or a function called before each move.
---@field permissions? table<string, boolean|string>|fun(ctx: Ctx, self: ModelView): table<string, boolean|string>|nil Rules its owner may bend, by name ("ignore_closest_target"): a table, read once when the file loads, or a function asked each time the kernel needs the answer.
---@field morale? fun(ctx: Ctx, self: ModelView, trigger: string): MoraleAnswer|nil Called before its owner tests morale: immunity to this trigger, or a modifier to each die.
---@field on_activation? fun(ctx: Ctx, self: ModelView, roll: ActivationResult) Called for each model of an activation (one model, a Group or a Leader's group) once its roll is final (after any reroll), before its first action: ask for changes through `ctx` (`ctx:grant`, `ctx:spend`, `ctx:add_condition`...). `roll` is the roll every model of the activation shares.
---@field on_wave_start? fun(ctx: Ctx, self: ModelView, wave: WaveStartInfo) Called for every model on the table, in id order, once both sides have deployed (core §5.3, after Ready Mounts) and before round 1: ask for changes through `ctx`.
---@field on_council? fun(ctx: Ctx, self: ModelView): CouncilGrantAnswer|CouncilGrantAnswer[]|nil Called for every model on the table, in id order, as each Council Phase opens (before the hero policy orders, in `play` and `g:council`): grant free Council orders for this Council (Grimm's Snare Master: `{ free = "trap", entangle = true }`, logged `rule_bent`), roll dice and ask for changes through `ctx`.
---@field on_defeat? fun(ctx: Ctx, self: ModelView) Called as its owner is Defeated (or suffers a Gruesome Kill), before it is removed: ask for changes applied once it is gone (the Fire Entity's Wildfire: `ctx:ignite`).
---@field actions? table<string, ActionSpec> Extra actions its owner may take, by name: ordered `{ ability = name, target = ... }` by the hero policy or a Behaviour, checked by `can`, worked as a Task when `task` says so, and resolved by `run` (logged `ability`, naming this script).
---@field order_cost? fun(ctx: Ctx, self: ModelView, order: OrderInfo): CostAnswer|nil Asked when its owner takes an order in the turn engine: a lower action cost (Tobin's Called Shot), with a limited use spent once the order is carried out. Read-only ctx.
---@field on_opponent_activation? fun(ctx: Ctx, self: ModelView, activating: ModelView[]) Called for every model of the other side before an Enemy Group (or a hero) rolls its activation: ask for changes (`ctx:grant`, `ctx:spend`: Captain Maren's Hold the Line).
---@field on_activation_roll? fun(ctx: Ctx, self: ModelView, roll: ActivationRollInfo): RerollAnswer|nil Called after an activation roll for the activating models, then for every model of the other side: reroll all the dice (the Orc Warlord's Warcry) or the best one (the Goblin Shaman's Hex). The first that asks wins; the reroll is logged `rerolled`.
---@field on_friend_result? fun(ctx: Ctx, self: ModelView, win: Win): ResultChange|nil Called for each friend of a model that lost a roll (after the winner's and loser's `on_result`), in id order until one replaces the result: Sister Ilse's Sanctuary. `win.friend` is the loser, `win.would_remove` whether the result takes it off the table.
---@field on_structural? fun(ctx: Ctx, self: ModelView, attack: StructuralInfo) Called after its owner's structural attack on a building: ask for changes (the Orc Demolisher's Breach: `ctx:remove_barricade` on a win).
---@field on_pass_token? fun(ctx: Ctx, self: ModelView, token: Token): boolean|nil Called, when its owner holds the `claim_on_move` permission, for each Opportunity token its move passes within base contact of (in the order met, after the leg of the move that passed it): return true to claim it on the way — no action, and the move goes on (Wren's Pathfinder). Its ctx may roll dice (`ctx:peek`) and ask for changes.

---A hero signature's script (scripts/signatures/*.lua).
---
---```lua
---return { melee_modifier = function(ctx, self, roll) return 1 end }
---```
---@class SignatureScript
---@field name? string A display name.
---@field description? string What it does, for people.
---@field params? table Plain data for the module's own use.
---@field melee_modifier? fun(ctx: Ctx, self: ModelView, roll: Roll): integer|Modifier|Modifier[]|nil Modifiers to a melee roll its owner (`self`) takes part in, as attacker or defender.
---@field ranged_modifier? fun(ctx: Ctx, self: ModelView, roll: Roll): integer|Modifier|Modifier[]|nil Modifiers to a ranged roll its owner takes part in.
---@field structural_modifier? fun(ctx: Ctx, self: ModelView, roll: Roll): integer|Modifier|Modifier[]|nil Modifiers to a structural attack its owner makes.
---@field win_rules? fun(ctx: Ctx, self: ModelView, win: Win): WinRules|nil Called for the winner of a roll before its result is read: Lethal, a lower Gruesome multiple.
---@field on_result? fun(ctx: Ctx, self: ModelView, win: Win): ResultChange|nil Called for the winner, then the loser, before a result is applied: replace it (Heavy Armor, Entangle), roll dice and ask for changes through `ctx` (Poison).
---@field on_charge? fun(ctx: Ctx, self: ModelView, charged: ModelView[]) Called when its owner's move ends in contact with enemies: ask for changes (Terror's morale checks).
---@field movement? MoveTraits|fun(ctx: Ctx, self: ModelView, engaged: ModelView[]): MoveTraits|nil How its owner moves: Flying, its band, terrain it ignores, enemies it leaves freely. A table when the answer never changes (Long Move's `{ band = "long" }`: no call at each move), or a function called before each move.
---@field permissions? table<string, boolean|string>|fun(ctx: Ctx, self: ModelView): table<string, boolean|string>|nil Rules its owner may bend, by name ("ignore_closest_target"): a table, read once when the file loads, or a function asked each time the kernel needs the answer.
---@field morale? fun(ctx: Ctx, self: ModelView, trigger: string): MoraleAnswer|nil Called before its owner tests morale: immunity to this trigger, or a modifier to each die.
---@field on_activation? fun(ctx: Ctx, self: ModelView, roll: ActivationResult) Called for each model of an activation (one model, a Group or a Leader's group) once its roll is final (after any reroll), before its first action: ask for changes through `ctx` (`ctx:grant`, `ctx:spend`, `ctx:add_condition`...). `roll` is the roll every model of the activation shares.
---@field on_wave_start? fun(ctx: Ctx, self: ModelView, wave: WaveStartInfo) Called for every model on the table, in id order, once both sides have deployed (core §5.3, after Ready Mounts) and before round 1: ask for changes through `ctx`.
---@field on_council? fun(ctx: Ctx, self: ModelView): CouncilGrantAnswer|CouncilGrantAnswer[]|nil Called for every model on the table, in id order, as each Council Phase opens (before the hero policy orders, in `play` and `g:council`): grant free Council orders for this Council (Grimm's Snare Master: `{ free = "trap", entangle = true }`, logged `rule_bent`), roll dice and ask for changes through `ctx`.
---@field on_defeat? fun(ctx: Ctx, self: ModelView) Called as its owner is Defeated (or suffers a Gruesome Kill), before it is removed: ask for changes applied once it is gone (the Fire Entity's Wildfire: `ctx:ignite`).
---@field actions? table<string, ActionSpec> Extra actions its owner may take, by name: ordered `{ ability = name, target = ... }` by the hero policy or a Behaviour, checked by `can`, worked as a Task when `task` says so, and resolved by `run` (logged `ability`, naming this script).
---@field order_cost? fun(ctx: Ctx, self: ModelView, order: OrderInfo): CostAnswer|nil Asked when its owner takes an order in the turn engine: a lower action cost (Tobin's Called Shot), with a limited use spent once the order is carried out. Read-only ctx.
---@field on_opponent_activation? fun(ctx: Ctx, self: ModelView, activating: ModelView[]) Called for every model of the other side before an Enemy Group (or a hero) rolls its activation: ask for changes (`ctx:grant`, `ctx:spend`: Captain Maren's Hold the Line).
---@field on_activation_roll? fun(ctx: Ctx, self: ModelView, roll: ActivationRollInfo): RerollAnswer|nil Called after an activation roll for the activating models, then for every model of the other side: reroll all the dice (the Orc Warlord's Warcry) or the best one (the Goblin Shaman's Hex). The first that asks wins; the reroll is logged `rerolled`.
---@field on_friend_result? fun(ctx: Ctx, self: ModelView, win: Win): ResultChange|nil Called for each friend of a model that lost a roll (after the winner's and loser's `on_result`), in id order until one replaces the result: Sister Ilse's Sanctuary. `win.friend` is the loser, `win.would_remove` whether the result takes it off the table.
---@field on_structural? fun(ctx: Ctx, self: ModelView, attack: StructuralInfo) Called after its owner's structural attack on a building: ask for changes (the Orc Demolisher's Breach: `ctx:remove_barricade` on a win).
---@field on_pass_token? fun(ctx: Ctx, self: ModelView, token: Token): boolean|nil Called, when its owner holds the `claim_on_move` permission, for each Opportunity token its move passes within base contact of (in the order met, after the leg of the move that passed it): return true to claim it on the way — no action, and the move goes on (Wren's Pathfinder). Its ctx may roll dice (`ctx:peek`) and ask for changes.

---An Alpha Rule's script (scripts/alpha/*.lua).
---
---```lua
---return { melee_modifier = function(ctx, self, roll) return 1 end }
---```
---@class AlphaScript
---@field name? string A display name.
---@field description? string What it does, for people.
---@field params? table Plain data for the module's own use.
---@field melee_modifier? fun(ctx: Ctx, self: ModelView, roll: Roll): integer|Modifier|Modifier[]|nil Modifiers to a melee roll its owner (`self`) takes part in, as attacker or defender.
---@field ranged_modifier? fun(ctx: Ctx, self: ModelView, roll: Roll): integer|Modifier|Modifier[]|nil Modifiers to a ranged roll its owner takes part in.
---@field structural_modifier? fun(ctx: Ctx, self: ModelView, roll: Roll): integer|Modifier|Modifier[]|nil Modifiers to a structural attack its owner makes.
---@field win_rules? fun(ctx: Ctx, self: ModelView, win: Win): WinRules|nil Called for the winner of a roll before its result is read: Lethal, a lower Gruesome multiple.
---@field on_result? fun(ctx: Ctx, self: ModelView, win: Win): ResultChange|nil Called for the winner, then the loser, before a result is applied: replace it (Heavy Armor, Entangle), roll dice and ask for changes through `ctx` (Poison).
---@field on_charge? fun(ctx: Ctx, self: ModelView, charged: ModelView[]) Called when its owner's move ends in contact with enemies: ask for changes (Terror's morale checks).
---@field movement? MoveTraits|fun(ctx: Ctx, self: ModelView, engaged: ModelView[]): MoveTraits|nil How its owner moves: Flying, its band, terrain it ignores, enemies it leaves freely. A table when the answer never changes (Long Move's `{ band = "long" }`: no call at each move), or a function called before each move.
---@field permissions? table<string, boolean|string>|fun(ctx: Ctx, self: ModelView): table<string, boolean|string>|nil Rules its owner may bend, by name ("ignore_closest_target"): a table, read once when the file loads, or a function asked each time the kernel needs the answer.
---@field morale? fun(ctx: Ctx, self: ModelView, trigger: string): MoraleAnswer|nil Called before its owner tests morale: immunity to this trigger, or a modifier to each die.
---@field on_activation? fun(ctx: Ctx, self: ModelView, roll: ActivationResult) Called for each model of an activation (one model, a Group or a Leader's group) once its roll is final (after any reroll), before its first action: ask for changes through `ctx` (`ctx:grant`, `ctx:spend`, `ctx:add_condition`...). `roll` is the roll every model of the activation shares.
---@field on_wave_start? fun(ctx: Ctx, self: ModelView, wave: WaveStartInfo) Called for every model on the table, in id order, once both sides have deployed (core §5.3, after Ready Mounts) and before round 1: ask for changes through `ctx`.
---@field on_council? fun(ctx: Ctx, self: ModelView): CouncilGrantAnswer|CouncilGrantAnswer[]|nil Called for every model on the table, in id order, as each Council Phase opens (before the hero policy orders, in `play` and `g:council`): grant free Council orders for this Council (Grimm's Snare Master: `{ free = "trap", entangle = true }`, logged `rule_bent`), roll dice and ask for changes through `ctx`.
---@field on_defeat? fun(ctx: Ctx, self: ModelView) Called as its owner is Defeated (or suffers a Gruesome Kill), before it is removed: ask for changes applied once it is gone (the Fire Entity's Wildfire: `ctx:ignite`).
---@field actions? table<string, ActionSpec> Extra actions its owner may take, by name: ordered `{ ability = name, target = ... }` by the hero policy or a Behaviour, checked by `can`, worked as a Task when `task` says so, and resolved by `run` (logged `ability`, naming this script).
---@field order_cost? fun(ctx: Ctx, self: ModelView, order: OrderInfo): CostAnswer|nil Asked when its owner takes an order in the turn engine: a lower action cost (Tobin's Called Shot), with a limited use spent once the order is carried out. Read-only ctx.
---@field on_opponent_activation? fun(ctx: Ctx, self: ModelView, activating: ModelView[]) Called for every model of the other side before an Enemy Group (or a hero) rolls its activation: ask for changes (`ctx:grant`, `ctx:spend`: Captain Maren's Hold the Line).
---@field on_activation_roll? fun(ctx: Ctx, self: ModelView, roll: ActivationRollInfo): RerollAnswer|nil Called after an activation roll for the activating models, then for every model of the other side: reroll all the dice (the Orc Warlord's Warcry) or the best one (the Goblin Shaman's Hex). The first that asks wins; the reroll is logged `rerolled`.
---@field on_friend_result? fun(ctx: Ctx, self: ModelView, win: Win): ResultChange|nil Called for each friend of a model that lost a roll (after the winner's and loser's `on_result`), in id order until one replaces the result: Sister Ilse's Sanctuary. `win.friend` is the loser, `win.would_remove` whether the result takes it off the table.
---@field on_structural? fun(ctx: Ctx, self: ModelView, attack: StructuralInfo) Called after its owner's structural attack on a building: ask for changes (the Orc Demolisher's Breach: `ctx:remove_barricade` on a win).
---@field on_pass_token? fun(ctx: Ctx, self: ModelView, token: Token): boolean|nil Called, when its owner holds the `claim_on_move` permission, for each Opportunity token its move passes within base contact of (in the order met, after the leg of the move that passed it): return true to claim it on the way — no action, and the move goes on (Wren's Pathfinder). Its ctx may roll dice (`ctx:peek`) and ask for changes.

---A rule variant (scripts/variants/NAME.lua): rule-constant overrides, hooks applied to every model, and perhaps a wave builder (`build_wave`) replacing the default one.
---
---```lua
---return { rules = { combat = { power_blow_lethal = true } } }
---```
---@class VariantScript
---@field name? string A display name.
---@field description? string What it does, for people.
---@field params? table Plain data for the module's own use.
---@field rules? table<string, table<string, any>> Rule-constant overrides by section, merged key by key over rosters/rules.toml.
---@field tracks? string[] Tracks of rosters/tracks.toml the variant puts in play: each starts on its `start` space (or the preset's) as the game is made (logged `track_set`), and scripts read it with `ctx:track` and move it with `ctx:advance_track`.
---@field build_wave? fun(ctx: Ctx, ask: WaveAsk): WaveGroup[]|nil Replaces the default wave builder (SUPPLEMENT §10) while the variant is enabled (`--variant`, `variants = {...}`): the wave's Enemy Groups, which the kernel checks and deploys as usual; nil lets the default builder build this wave, and an empty array is an error (a wave with no enemies is not a wave). Its ctx may roll dice (logged). Only one enabled variant may define it.
---@field on_enemy_turn_end? fun(ctx: Ctx, turn: EnemyTurnEnd) Called at the end of each enemy turn while the variant is in force (not when the game ended during the turn). Its ctx may roll dice (logged) and ask for changes (`ctx:advance_track`, `ctx:repair`, …), applied when it returns. The threat track moves here.
---@field melee_modifier? fun(ctx: Ctx, self: ModelView, roll: Roll): integer|Modifier|Modifier[]|nil Modifiers to a melee roll its owner (`self`) takes part in, as attacker or defender.
---@field ranged_modifier? fun(ctx: Ctx, self: ModelView, roll: Roll): integer|Modifier|Modifier[]|nil Modifiers to a ranged roll its owner takes part in.
---@field structural_modifier? fun(ctx: Ctx, self: ModelView, roll: Roll): integer|Modifier|Modifier[]|nil Modifiers to a structural attack its owner makes.
---@field win_rules? fun(ctx: Ctx, self: ModelView, win: Win): WinRules|nil Called for the winner of a roll before its result is read: Lethal, a lower Gruesome multiple.
---@field on_result? fun(ctx: Ctx, self: ModelView, win: Win): ResultChange|nil Called for the winner, then the loser, before a result is applied: replace it (Heavy Armor, Entangle), roll dice and ask for changes through `ctx` (Poison).
---@field on_charge? fun(ctx: Ctx, self: ModelView, charged: ModelView[]) Called when its owner's move ends in contact with enemies: ask for changes (Terror's morale checks).
---@field movement? MoveTraits|fun(ctx: Ctx, self: ModelView, engaged: ModelView[]): MoveTraits|nil How its owner moves: Flying, its band, terrain it ignores, enemies it leaves freely. A table when the answer never changes (Long Move's `{ band = "long" }`: no call at each move), or a function called before each move.
---@field permissions? table<string, boolean|string>|fun(ctx: Ctx, self: ModelView): table<string, boolean|string>|nil Rules its owner may bend, by name ("ignore_closest_target"): a table, read once when the file loads, or a function asked each time the kernel needs the answer.
---@field morale? fun(ctx: Ctx, self: ModelView, trigger: string): MoraleAnswer|nil Called before its owner tests morale: immunity to this trigger, or a modifier to each die.
---@field on_activation? fun(ctx: Ctx, self: ModelView, roll: ActivationResult) Called for each model of an activation (one model, a Group or a Leader's group) once its roll is final (after any reroll), before its first action: ask for changes through `ctx` (`ctx:grant`, `ctx:spend`, `ctx:add_condition`...). `roll` is the roll every model of the activation shares.
---@field on_wave_start? fun(ctx: Ctx, self: ModelView, wave: WaveStartInfo) Called for every model on the table, in id order, once both sides have deployed (core §5.3, after Ready Mounts) and before round 1: ask for changes through `ctx`.
---@field on_council? fun(ctx: Ctx, self: ModelView): CouncilGrantAnswer|CouncilGrantAnswer[]|nil Called for every model on the table, in id order, as each Council Phase opens (before the hero policy orders, in `play` and `g:council`): grant free Council orders for this Council (Grimm's Snare Master: `{ free = "trap", entangle = true }`, logged `rule_bent`), roll dice and ask for changes through `ctx`.
---@field on_defeat? fun(ctx: Ctx, self: ModelView) Called as its owner is Defeated (or suffers a Gruesome Kill), before it is removed: ask for changes applied once it is gone (the Fire Entity's Wildfire: `ctx:ignite`).
---@field order_cost? fun(ctx: Ctx, self: ModelView, order: OrderInfo): CostAnswer|nil Asked when its owner takes an order in the turn engine: a lower action cost (Tobin's Called Shot), with a limited use spent once the order is carried out. Read-only ctx.
---@field on_opponent_activation? fun(ctx: Ctx, self: ModelView, activating: ModelView[]) Called for every model of the other side before an Enemy Group (or a hero) rolls its activation: ask for changes (`ctx:grant`, `ctx:spend`: Captain Maren's Hold the Line).
---@field on_activation_roll? fun(ctx: Ctx, self: ModelView, roll: ActivationRollInfo): RerollAnswer|nil Called after an activation roll for the activating models, then for every model of the other side: reroll all the dice (the Orc Warlord's Warcry) or the best one (the Goblin Shaman's Hex). The first that asks wins; the reroll is logged `rerolled`.
---@field on_friend_result? fun(ctx: Ctx, self: ModelView, win: Win): ResultChange|nil Called for each friend of a model that lost a roll (after the winner's and loser's `on_result`), in id order until one replaces the result: Sister Ilse's Sanctuary. `win.friend` is the loser, `win.would_remove` whether the result takes it off the table.
---@field on_structural? fun(ctx: Ctx, self: ModelView, attack: StructuralInfo) Called after its owner's structural attack on a building: ask for changes (the Orc Demolisher's Breach: `ctx:remove_barricade` on a win).

---An enemy Behaviour (scripts/behaviours/*.lua).
---
---```lua
---return { target = function(ctx, self) end, act = function(ctx, self, target) end }
---```
---@class BehaviourScript
---@field name? string A display name.
---@field description? string What it does, for people.
---@field params? table Plain data for the module's own use.
---@field target? fun(ctx: Ctx, self: ModelView): ModelView|BuildingView|Position|EdgeAim|nil The target the Behaviour picks for a model of its Group (§6.3): a model, a building, a point (an Opportunity) or `{ edge = true }`; nil for none. Its ctx may roll dice (the last tie-breaker). The Group's models, when a Behaviour weighs them: `ctx:models({ group_of = self })` (asked for, not handed to every call).
---@field targets? TargetStep[] Its target choice (§6.3) declared as steps; the first step that finds something gives the target. The kernel follows them natively (no call into Lua) unless the decision is being explained and the Behaviour has a `target`, which then says why (`P.declared(ctx, self, targets)` of scripts/lib/priority.lua follows the same steps). Checked when the file loads.
---@field act? fun(ctx: Ctx, self: ModelView, target: ModelView|BuildingView|Position|EdgeAim|nil): BehaviourOrder|nil One action for a model of the Group, given its target (§6.2 universal priority): an order the kernel executes, or nil to lose the action. Its ctx may roll dice.
---@field declare? fun(ctx: Ctx, self: ModelView): boolean|nil Asked for each Spell-caster of a Group before the Group rolls (§3.7: spellcasting is declared before the roll): true declares, so the caster may cast this activation (`{ cast = ... }` from `act`) and is out of power for the wave if its roll fails three dice. nil or false does not declare.
---@field objective? fun(ctx: Ctx, self: ModelView, ask: ObjectiveAsk): BuildingView|Token|nil The objective a Group holds (§6.3, Guardian: its nearest building, or a nearer Opportunity): asked once at deployment (for a model placed outside a wave, before its first target) and again only when the objective is Destroyed or its token removed (`ask.lost`). The kernel keeps the answer for every model of the Group (`ctx:objective(self)` reads it) and logs it; nil keeps none. Its ctx may roll dice (tie-breakers).
---@field universal? boolean true: for a model that has not declared spellcasting, the Behaviour's `act` is the universal priority of §6.2 (`A.default` of scripts/lib/act.lua). The kernel then decides those actions natively and calls `act` only where a script must choose: a Spell-caster that declared, or a model whose scripts offer special actions. Much cheaper; the same orders and reasons.

---A spell (scripts/spells/*.lua), named by `script` in rosters/spells.toml and run by `g:cast`.
---
---```lua
---return { cast = function(ctx, caster, power, target, opts) return ctx:transfix(target, power) end }
---```
---@class SpellScript
---@field name? string A display name.
---@field description? string What it does, for people.
---@field params? table Plain data for the module's own use.
---@field cast? fun(ctx: Ctx, caster: ModelView, power: integer, target: ModelView|nil, opts: CastOptions): any Called by `g:cast` once the kernel has checked the cast (and a Ritual's Task is complete): decide the effect and ask for it through the spell primitives on `ctx`; what it returns is the CastResult's `result`. An error undoes the whole cast.

---A scenario's victory script (scripts/victory/NAME.lua), named by `victory = "NAME"` in its scenario file: `on_victory_check` is asked where the game can end.
---
---```lua
---return { on_victory_check = function(ctx, check) if ctx:vp("heroes") >= 6 then return "win", "six VP" end end }
---```
---@class VictoryScript
---@field name? string A display name.
---@field description? string What it does, for people.
---@field params? table Plain data for the module's own use.
---@field on_victory_check? fun(ctx: Ctx, check: VictoryCheck): string|nil A scenario's victory script (`victory = "NAME"` in its file): called where the game can end — after each side's turn, and at the round limit's last round (`check.limit`). Returns "win", "loss" or "draw", then a reason (a second value), to end the game so (cause `victory_script`), or nil to play on. Its ctx may read the battle (`ctx:vp`, `ctx:objectives`) and award Victory Points (`ctx:award_vp`), applied when it returns.

---An Opportunity result (scripts/opportunities/*.lua), named by `script` in rosters/opportunities.toml: its `claim` or `wave_end` decides the result; an item it gives carries it, so its model hooks act for the item's carrier and its `use` is the item's use.
---
---```lua
---return { claim = function(ctx, hero, params) ctx:add_herbs(params.herbs) end }
---```
---@class OpportunityScript
---@field name? string A display name.
---@field description? string What it does, for people.
---@field params? table Plain data for the module's own use.
---@field claim? fun(ctx: Ctx, hero: ModelView, params: table<string, any>, opportunity: OpportunityInfo) Called when a hero claims a token and the die gives this row, for a row of timing `now` (core §6.1): decide the result and ask for it through the reward primitives on `ctx` (`ctx:add_herbs`, `ctx:ambush`, `ctx:give`, ...). `params` are the row's. An error undoes the whole claim.
---@field wave_end? fun(ctx: Ctx, hero: ModelView|nil, params: table<string, any>, opportunity: OpportunityInfo) Called at step 4 of the End Sequence (core §7.1, Rewards) for each result of timing `wave_end` claimed during the wave, in the order claimed; `hero` is nil when the claimer has left the table (the reward is still the village's).
---@field use? fun(ctx: Ctx, hero: ModelView, params: table<string, any>, item: ItemInfo) Called when the hero carrying this script's item orders `{ use = name }`: ask for the effect (`ctx:heal`); the kernel then removes the item. Asking for nothing refuses the use.
---@field melee_modifier? fun(ctx: Ctx, self: ModelView, roll: Roll): integer|Modifier|Modifier[]|nil Modifiers to a melee roll its owner (`self`) takes part in, as attacker or defender.
---@field ranged_modifier? fun(ctx: Ctx, self: ModelView, roll: Roll): integer|Modifier|Modifier[]|nil Modifiers to a ranged roll its owner takes part in.
---@field structural_modifier? fun(ctx: Ctx, self: ModelView, roll: Roll): integer|Modifier|Modifier[]|nil Modifiers to a structural attack its owner makes.
---@field win_rules? fun(ctx: Ctx, self: ModelView, win: Win): WinRules|nil Called for the winner of a roll before its result is read: Lethal, a lower Gruesome multiple.
---@field on_result? fun(ctx: Ctx, self: ModelView, win: Win): ResultChange|nil Called for the winner, then the loser, before a result is applied: replace it (Heavy Armor, Entangle), roll dice and ask for changes through `ctx` (Poison).
---@field on_charge? fun(ctx: Ctx, self: ModelView, charged: ModelView[]) Called when its owner's move ends in contact with enemies: ask for changes (Terror's morale checks).
---@field movement? MoveTraits|fun(ctx: Ctx, self: ModelView, engaged: ModelView[]): MoveTraits|nil How its owner moves: Flying, its band, terrain it ignores, enemies it leaves freely. A table when the answer never changes (Long Move's `{ band = "long" }`: no call at each move), or a function called before each move.
---@field permissions? table<string, boolean|string>|fun(ctx: Ctx, self: ModelView): table<string, boolean|string>|nil Rules its owner may bend, by name ("ignore_closest_target"): a table, read once when the file loads, or a function asked each time the kernel needs the answer.
---@field morale? fun(ctx: Ctx, self: ModelView, trigger: string): MoraleAnswer|nil Called before its owner tests morale: immunity to this trigger, or a modifier to each die.
---@field on_activation? fun(ctx: Ctx, self: ModelView, roll: ActivationResult) Called for each model of an activation (one model, a Group or a Leader's group) once its roll is final (after any reroll), before its first action: ask for changes through `ctx` (`ctx:grant`, `ctx:spend`, `ctx:add_condition`...). `roll` is the roll every model of the activation shares.
---@field on_wave_start? fun(ctx: Ctx, self: ModelView, wave: WaveStartInfo) Called for every model on the table, in id order, once both sides have deployed (core §5.3, after Ready Mounts) and before round 1: ask for changes through `ctx`.
---@field on_council? fun(ctx: Ctx, self: ModelView): CouncilGrantAnswer|CouncilGrantAnswer[]|nil Called for every model on the table, in id order, as each Council Phase opens (before the hero policy orders, in `play` and `g:council`): grant free Council orders for this Council (Grimm's Snare Master: `{ free = "trap", entangle = true }`, logged `rule_bent`), roll dice and ask for changes through `ctx`.
---@field on_defeat? fun(ctx: Ctx, self: ModelView) Called as its owner is Defeated (or suffers a Gruesome Kill), before it is removed: ask for changes applied once it is gone (the Fire Entity's Wildfire: `ctx:ignite`).
---@field order_cost? fun(ctx: Ctx, self: ModelView, order: OrderInfo): CostAnswer|nil Asked when its owner takes an order in the turn engine: a lower action cost (Tobin's Called Shot), with a limited use spent once the order is carried out. Read-only ctx.
---@field on_opponent_activation? fun(ctx: Ctx, self: ModelView, activating: ModelView[]) Called for every model of the other side before an Enemy Group (or a hero) rolls its activation: ask for changes (`ctx:grant`, `ctx:spend`: Captain Maren's Hold the Line).
---@field on_activation_roll? fun(ctx: Ctx, self: ModelView, roll: ActivationRollInfo): RerollAnswer|nil Called after an activation roll for the activating models, then for every model of the other side: reroll all the dice (the Orc Warlord's Warcry) or the best one (the Goblin Shaman's Hex). The first that asks wins; the reroll is logged `rerolled`.
---@field on_friend_result? fun(ctx: Ctx, self: ModelView, win: Win): ResultChange|nil Called for each friend of a model that lost a roll (after the winner's and loser's `on_result`), in id order until one replaces the result: Sister Ilse's Sanctuary. `win.friend` is the loser, `win.would_remove` whether the result takes it off the table.
---@field on_structural? fun(ctx: Ctx, self: ModelView, attack: StructuralInfo) Called after its owner's structural attack on a building: ask for changes (the Orc Demolisher's Breach: `ctx:remove_barricade` on a win).

---A hero AI policy for simulated games (scripts/policies/*.lua).
---
---```lua
---return { activate = function(ctx) end }
---```
---@class PolicyScript
---@field name? string A display name.
---@field description? string What it does, for people.
---@field params? table Plain data for the module's own use.
---@field activate? fun(ctx: Ctx, self: ModelView): integer|ActivationAnswer|boolean|nil Whether and how a model of the heroes' side is nominated when its turn comes (§3.1): the number of activation dice (1–3), or an ActivationAnswer (dice, a Leader's `group`, `cast` to declare spellcasting, §3.7); false or 0 passes it over. The hero turn offers the Active models in id order, pass after pass, while one is nominated: a model that failed one die without a turnover is offered again (`self.activations` counts its activations this turn). Without it, or for nil, two dice.
---@field plan? fun(ctx: Ctx, self: ModelView): BehaviourOrder[]|nil The orders for the rest of a model's activation (`self.actions_left` actions), in order, as `act` gives them one at a time: `{ { move = foe }, { move = foe } }`; `{}` is nothing more this activation. The kernel carries them out and asks again only when the plan runs out or breaks: an order refused (its action lost), or a fact it rested on changed (the model hurt, held or freed, Engaged or no longer, a model removed, a token taken or dropped). One call instead of one for each action. nil is no plan this time: `act` is asked for each action left in the activation, as it is in a policy without `plan`. Optional.
---@field act? fun(ctx: Ctx, self: ModelView): BehaviourOrder|nil One order for a model of the heroes' side, asked once per action it has left (`self.actions_left`): melee (a Power Blow with `power_blow`), shoot (an Aimed Shot with `aimed`, Concentrated Shooting with `with`), move (`within` to stop short), claim, use, heal, cast (declared before the roll; costs its Power), break_free. An order needing more actions than are left, or one the rules refuse, loses an action (logged with the reason); nil loses it.
---@field council? fun(ctx: Ctx, info: CouncilInfo): CouncilOrder[]|nil Called in the Council Phase after every non-final wave (§7.2): the orders to try, in turn (see CouncilOrder). The kernel validates each, applies it and logs a `council` event, or logs why it refused it and goes on. Its ctx reads the table (and may roll dice).
---@field deploy? fun(ctx: Ctx, step: DeployStep): DeployChoices|nil The hero policy's choices in the start-of-wave sequence (core §5.3), called at each step where a building ability in force asks for one: step 1 (Stable II Warhorse) and step 4 (Stable I Ready Mounts). Its ctx may roll dice. nil chooses nothing.
---@field blessing? fun(ctx: Ctx, group: ModelView[]): BuildingView|string|nil Temple II Blessing, once per wave: called before an Enemy Group's activation begins while the Blessing is unspent; the building returned ignores all Integrity damage from that activation, fire lit during it included. nil keeps the Blessing for later.
