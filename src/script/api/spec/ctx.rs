//! The API classes a hook sees: the `ctx` (its reads, measures, intents, spell and reward primitives)
//! and the tables hooks receive and return.

use super::*;

/// The hooks' classes, in output order.
pub(super) const CLASSES: &[Class] = &[
    Class {
        name: "Ctx",
        kind: ClassKind::Handle,
        doc: "The view of the game a hook receives. It lives only for the call: keep what you read, not the \
              ctx. It is read-only in modifier and rule hooks; `on_result` and `on_charge` may roll dice and \
              ask for changes; a spell's `cast` may also call the spell primitives, which the kernel checks \
              against the casting and applies at once.",
        usage: "melee_modifier = function(ctx, self, roll) if ctx.wave >= 3 then return 1 end end",
        fields: &[
            f("round", "integer", "The current round."),
            f("wave", "integer", "The current wave."),
            f("supplies", "integer", "The village's Supplies."),
            f(
                "igniters_burn",
                "boolean",
                "Whether Igniters may place fire in this wave (from Escalation II; true outside waves).",
            ),
            opt(
                "params",
                "table<string, any>",
                "The `params` of the roster entry that names this script (a trait's, a signature's ...).",
            ),
            f(
                "explaining",
                "boolean",
                "Whether this call's decision is being kept with its reasons (the REPL, a written log, \
                 the viewer, `sim --decisions`): `ctx:why` is heard only then, so work done only to \
                 explain (measuring every candidate) can be skipped when it is false, as in plain play \
                 and simulation.",
            ),
        ],
        methods: &[
            Method {
                name: "model",
                params: &[p("id", "integer", "A model id.")],
                returns: "ModelView|nil",
                doc: "A view of the model with this id, or nil (the same table for the same model within a \
                      call, until the game changes).",
                usage: "local m = ctx:model(roll.attacker.id)",
            },
            Method {
                name: "models",
                params: &[po(
                    "opts",
                    "ModelQuery",
                    "Filters (side, kind, trait, condition, state, spell kind) and an order (`near`).",
                )],
                returns: "ModelView[]",
                doc: "Views of the models on the table that match every filter given, in id order, or nearest \
                      first with `near`. Filtering and measuring in Rust is much cheaper than reading every \
                      model's fields in Lua (docs/scripting.md, \"Writing fast scripts\").",
                usage: "local foes = ctx:models({ side = \"enemies\", near = ctx:town_hall() })",
            },
            Method {
                name: "building",
                params: &[p("name", "string", "The building's name.")],
                returns: "BuildingView|nil",
                doc: "A view of the building, or nil.",
                usage: "local th = ctx:building(\"Town Hall\")",
            },
            Method {
                name: "distance",
                params: &[p("a", "ModelView", "A model."), p("b", "ModelView", "Another model.")],
                returns: "number",
                doc: "The gap between two bases, edge to edge, in inches (0 in contact).",
                usage: "if ctx:distance(self, roll.target) < 1 then return 1 end",
            },
            Method {
                name: "rule",
                params: &[
                    p("section", "string", "A section of rosters/rules.toml (\"melee\")."),
                    p("key", "string", "A constant of that section (\"power_blow\")."),
                ],
                returns: "any",
                doc: "A rule constant in force (variants applied); an error if there is none.",
                usage: "local pb = ctx:rule(\"melee\", \"power_blow\")",
            },
            Method {
                name: "buildings",
                params: &[po("opts", "BuildingQuery", "Filters: standing, economic, the Town Hall.")],
                returns: "BuildingView[]",
                doc: "Views of the buildings that match every filter given (all of them, Destroyed ones \
                      included, without), in roster order (Town Hall first).",
                usage: "for _, b in ipairs(ctx:buildings({ standing = true })) do print(b.name) end",
            },
            Method {
                name: "town_hall",
                params: &[],
                returns: "BuildingView|nil",
                doc: "The Town Hall's view (Destroyed or not), or nil when the village has none.",
                usage: "local th = ctx:town_hall()",
            },
            Method {
                name: "distances_from",
                params: &[
                    p("m", "ModelView", "A model."),
                    p("things", "any[]", "Models, buildings, tokens or points."),
                ],
                returns: "number[]",
                doc: "`ctx:distance_to(m, t)` for each `t` of the list, in order, in one call.",
                usage: "local d = ctx:distances_from(self, candidates)",
            },
            Method {
                name: "nearest",
                params: &[
                    p("m", "ModelView", "A model."),
                    p(
                        "among",
                        "NearestQuery",
                        "The candidates: models (a `ctx:models` query) and buildings (a `ctx:buildings` \
                         query).",
                    ),
                ],
                returns: "(ModelView|BuildingView)[]",
                doc: "The candidates nearest `m`, edge to edge: of the models `ctx:models(among.models)` \
                      lists, then the buildings `ctx:buildings(among.buildings)` lists (a query left out \
                      lists none), in that order, each one more than 0.000001\" nearer than the best so \
                      far replaces those kept and each within 0.000001\" of it joins them (as \
                      `lib/priority.lua`'s `P.smallest_of`). Views only of those: a Behaviour picks its \
                      target without a view of every candidate. Empty when there is none.",
                usage: "local tied = ctx:nearest(self, { models = { side = \"heroes\" }, buildings = { standing = true } })",
            },
            Method {
                name: "distances_to",
                params: &[
                    p("models", "ModelView[]", "Models."),
                    p("thing", "ModelView|BuildingView|Token|Position", "What to measure to."),
                ],
                returns: "number[]",
                doc: "`ctx:distance_to(m, thing)` for each model `m` of the list, in order, in one call.",
                usage: "local d = ctx:distances_to(ctx:models({ side = \"enemies\" }), ctx:town_hall())",
            },
            Method {
                name: "distance_to",
                params: &[
                    p("m", "ModelView", "A model."),
                    p("other", "ModelView|BuildingView|Position", "A model, a building or a point."),
                ],
                returns: "number",
                doc: "Edge-to-edge distance from a model to a model, a building's outline, a token from \
                      `ctx:tokens` (a Barricade's segment) or a point (inches).",
                usage: "local d = ctx:distance_to(self, ctx:buildings()[1])",
            },
            Method {
                name: "tokens",
                params: &[po("kind", "string", "\"opportunity\", \"barricade\" or \"trap\" (default: all).")],
                returns: "Token[]",
                doc: "The tokens on the table, in id order.",
                usage: "local ops = ctx:tokens(\"opportunity\")",
            },
            Method {
                name: "permission",
                params: &[
                    p("m", "ModelView", "A model."),
                    p("name", "string", "A permission (\"ignite\", \"heal\", \"shoot\", \"lead\", ...)."),
                ],
                returns: "string|nil",
                doc: "The script that grants the model this permission (its traits', signature's, items' or a \
                      variant's `permissions`), or nil — what the kernel asks before letting it act. Not in a \
                      spell's `cast`.",
                usage: "if ctx:permission(self, \"ignite\") then return { ignite = building } end",
            },
            Method {
                name: "behaviour",
                params: &[p("name", "string", "A Behaviour's name (a model's `behaviour`).")],
                returns: "BehaviourInfo|nil",
                doc: "The Behaviour's entry in rosters/behaviours.toml (§6.2–6.3): its play `order`, \
                      `max_actions`, `turnover`, the limits the kernel enforces (`ranged_attacks`, \
                      `voluntary_disengage`, `ignores_terror_and_gruesome`), `guard_radius`, \
                      `fallback_behaviour`, its `script`, `params` and the rulebook's words; nil for an \
                      unknown name.",
                usage: "local radius = ctx:behaviour(self.behaviour).guard_radius",
            },
            Method {
                name: "objective",
                params: &[p("m", "ModelView", "An enemy model.")],
                returns: "BuildingView|Token|nil",
                doc: "The objective its Group holds (§6.3): what its Behaviour's `objective` assigned at \
                      deployment, kept until that building is Destroyed or that token removed (then the \
                      Behaviour is asked again); nil when it has none.",
                usage: "local guarded = ctx:objective(self)",
            },
            Method {
                name: "reach",
                params: &[
                    p("m", "ModelView", "The model that would move."),
                    p("target", "ModelView", "The model it would move to."),
                ],
                returns: "number|nil",
                doc: "The length in inches of the shortest legal route from `m` to base contact with `target`, \
                      as a `{ move = target }` order would take it (around buildings, impassable terrain and \
                      other bases); nil when there is none (a target hemmed in by bases and buildings). \
                      Costs a route search: ask when it matters.",
                usage: "if ctx:reach(self, foe) then return { move = foe } end",
            },
            Method {
                name: "move_actions",
                params: &[
                    p("m", "ModelView", "The model that would move."),
                    p("target", "ModelView", "The model it would move to."),
                ],
                returns: "integer|nil",
                doc: "The move actions the route `ctx:reach` measures takes at `m`'s band: one move action is \
                      one straight segment (SUPPLEMENT §11), so each straight leg of the route takes one \
                      (more when longer than the band) and the rest of a band is lost at a corner; terrain \
                      is not counted. Nil when there is no route. Costs a route search.",
                usage: "local n = ctx:move_actions(self, foe)\nif n and n < self.actions_left then return { move = foe } end",
            },
            Method {
                name: "can_shoot",
                params: &[
                    p("shooter", "ModelView", "The model that would shoot."),
                    p("target", "ModelView", "The enemy it would shoot."),
                ],
                returns: "boolean",
                doc: "Whether the shooter may shoot the target now (§3.5: Shooter, weapon, not Engaged, target \
                      not Engaged, sight, range, the closest-target rule, Stealth), checked as a shot would be \
                      (`g:shoot` says why not). Rolls nothing. Not in a spell's `cast`.",
                usage: "if ctx:can_shoot(self, foe) then return { shoot = foe } end",
            },
            Method {
                name: "spell",
                params: &[p("name", "string", "A spell's name (\"Transfix\").")],
                returns: "SpellInfo|nil",
                doc: "A spell as the rosters describe it (rosters/spells.toml): its kinds (\"attack\", \
                      \"resisted\", \"healing\", \"wall\"...), text, params; nil for an unknown name.",
                usage: "local s = ctx:spell(\"Fireball\"); local attack = s and s.kinds[1] == \"attack\"",
            },
            Method {
                name: "can_cast",
                params: &[
                    p("caster", "ModelView", "The Spell-caster."),
                    p("spell", "string", "A spell it knows (\"Fireball\")."),
                    p("power", "integer", "Power 1–3 (range Short, Medium, Long)."),
                    po("target", "ModelView", "The model it aims at (none for a Wall)."),
                ],
                returns: "boolean",
                doc: "Whether the caster may cast the spell at this Power and target now (§3.7: known, not \
                      out of power, not Engaged, range by Power, sight; an attack spell the ranged-attack \
                      rules, a healing spell a living target), checked as a cast would be. It does not ask \
                      whether the caster declared: `self.declared` says that. Rolls nothing. Not in a \
                      spell's `cast`.",
                usage: "if ctx:can_cast(self, \"Fireball\", 2, foe) then return { cast = \"Fireball\", power = 2, target = foe } end",
            },
            Method {
                name: "leader_group",
                params: &[p("leader", "ModelView", "A Leader (its scripts grant `lead`).")],
                returns: "ModelView[]",
                doc: "The friends that may activate with the Leader as a group now (§3.1): Active models of \
                      its side, in id order, each within Long of the Leader and of every one before it, up \
                      to five with the Leader. Empty for a model that is not a Leader. Not in a spell's \
                      `cast`.",
                usage: "local g = ctx:leader_group(self); if #g >= 2 then return { dice = 2, group = g } end",
            },
            Method {
                name: "engaged",
                params: &[p("m", "ModelView", "A model.")],
                returns: "ModelView[]",
                doc: "The enemies in base contact with a model, in id order.",
                usage: "local extra = #ctx:engaged(self) - 1",
            },
            Method {
                name: "touching_terrain",
                params: &[
                    p("m", "ModelView", "A model."),
                    p("kinds", "string[]", "Terrain kinds (\"wood\", \"wall\", \"hedge\", ...)."),
                ],
                returns: "boolean",
                doc: "Whether the model's base touches a terrain piece of one of these kinds.",
                usage: "local hidden = ctx:touching_terrain(self, { \"wood\", \"wall\", \"hedge\" })",
            },
            Method {
                name: "roll",
                params: &[
                    p("n", "integer", "How many D6 (1 to 6)."),
                    po("purpose", "string", "What the roll is for, in the log (default: the script)."),
                ],
                returns: "integer[]",
                doc: "Roll dice from the game's stream, logged as an event. Only in `on_result` and `on_charge`.",
                usage: "if ctx:roll(1)[1] >= 5 then ctx:worsen_quality(win.opponent, 1, \"Poison\") end",
            },
            Method {
                name: "worsen_quality",
                params: &[
                    p("m", "ModelView", "The model."),
                    p("amount", "integer", "By how much (Quality grows: worse)."),
                    po("reason", "string", "For the log."),
                ],
                returns: "",
                doc: "Ask the kernel to worsen a model's Quality after the hook (at the Tough limit it is Defeated). \
                      Only in `on_result` and `on_charge`.",
                usage: "ctx:worsen_quality(win.opponent, 1, \"Poison\")",
            },
            Method {
                name: "add_condition",
                params: &[
                    p("m", "ModelView", "The model."),
                    p("condition", "Condition", "The condition."),
                    po("holder", "ModelView", "The model holding it (an Entangle ends when it Recoils or falls)."),
                ],
                returns: "",
                doc: "Ask the kernel to give a model a condition after the hook. Only in `on_result` and `on_charge`.",
                usage: "ctx:add_condition(win.opponent, \"entangled\", self)",
            },
            Method {
                name: "transfix",
                params: &[
                    p("target", "ModelView|integer", "The model (in range and sight)."),
                    p("power", "integer", "The Power the spell was cast at."),
                ],
                returns: "boolean",
                doc: "Spell primitive (a Resisted spell): the target rolls one Quality die per Power; any failure \
                      Transfixes it, held by the caster. True when it took hold. Only in a spell's `cast`.",
                usage: "local held = ctx:transfix(target, power)",
            },
            Method {
                name: "spell_attack",
                params: &[
                    p("target", "ModelView|integer", "An enemy model (in range and sight, closest, not Engaged)."),
                    p("power", "integer", "The Power the spell was cast at: its Combat."),
                ],
                returns: "CombatResult",
                doc: "Spell primitive (an attack spell): a ranged attack with Combat equal to the Power, with both \
                      models' modifier hooks. Only in a spell's `cast`.",
                usage: "local r = ctx:spell_attack(target, power)",
            },
            Method {
                name: "heal",
                params: &[
                    p("target", "ModelView|integer", "A living model in range and sight."),
                    p("what", "\"wound\"|Condition", "A Wound, or the condition to clear."),
                ],
                returns: "string",
                doc: "Spell primitive (a healing spell): heal one Wound or clear one condition; an error on an \
                      Undead or Artificial model or when there is nothing of that kind. What was healed. In a \
                      spell's `cast`; in an item's `use` (a Potion) it is a reward the kernel applies after \
                      the script, to the hero using it only (returns what was asked).",
                usage: "ctx:heal(target, \"wound\")",
            },
            Method {
                name: "wall",
                params: &[
                    p("from", "Point", "Where the wall starts."),
                    p("to", "Point", "Which way it runs: it takes the spell's `wall.length`."),
                    p("power", "integer", "The Power the spell was cast at: both ends within its range."),
                ],
                returns: "integer",
                doc: "Spell primitive (a Wall spell): a linear obstacle with the roster's Integrity and Structure, \
                      held by the caster (it falls when the caster leaves). Its token id. Only in a spell's `cast`.",
                usage: "local token = ctx:wall(opts.from, opts.to, power)",
            },
            Method {
                name: "summon",
                params: &[
                    p("profile", "string", "A profile of the rosters (\"Skeleton Warrior\")."),
                    p("at", "Point", "Where its base stands: free ground."),
                    p("within", "\"short\"|\"medium\"|\"long\"", "How close to the caster it must stand."),
                ],
                returns: "ModelView",
                doc: "Spell primitive (a Summoning): a new model on the caster's side and in its Group, summoned by \
                      the caster so it vanishes when the caster leaves. Only in a spell's `cast`.",
                usage: "local sk = ctx:summon(ctx.params.profile, opts.at, ctx.params.within)",
            },
            Method {
                name: "dispel",
                params: &[p("target", "ModelView|integer", "A model in range and sight.")],
                returns: "string|nil",
                doc: "Spell primitive (a dispel): remove one Enchantment (a lasting effect of a spell of kind \
                      `enchantment`) from the model; what was removed, or nil. No supplied spell is an \
                      Enchantment and the kernel records none, so today it finds nothing. Only in a spell's `cast`.",
                usage: "local gone = ctx:dispel(target)",
            },
            Method {
                name: "add_supplies",
                params: &[p("n", "integer", "Supplies to add (1 or more).")],
                returns: "",
                doc: "Reward primitive: the village gains Supplies (logged `supplies_gained`, this script the \
                      source). Only in an Opportunity's `claim`/`wave_end` or an item's `use`; like every \
                      reward, applied by the kernel after the script returns, or not at all if one fails.",
                usage: "ctx:add_supplies(params.supplies)",
            },
            Method {
                name: "add_herbs",
                params: &[p("n", "integer", "Herb tokens to add (1 or more).")],
                returns: "",
                doc: "Reward primitive: the village gains Herb tokens (each heals 1 Wound in a Council Phase).",
                usage: "ctx:add_herbs(params.herbs)",
            },
            Method {
                name: "join",
                params: &[p("profile", "string", "A Village Defender profile (\"Village Archer\").")],
                returns: "",
                doc: "Reward primitive: a Village Defender of this profile joins at the next wave start.",
                usage: "ctx:join(params.profile)",
            },
            Method {
                name: "ambush",
                params: &[
                    p("profile", "string", "An enemy profile."),
                    p("count", "integer", "How many."),
                    p("behaviour", "string", "The Behaviour they play."),
                    p("within", "string", "How far from the token: \"short\", \"medium\" or \"long\"."),
                ],
                returns: "",
                doc: "Reward primitive: enemies deploy wholly within the measure of the claimed token, outside \
                      contact, as a new numbered Enemy Group joining the wave (nearest spots first; fewer when \
                      the ground is crowded). Only in an Opportunity's `claim`.",
                usage: "ctx:ambush(params.profile, params.count, params.behaviour, params.within)",
            },
            Method {
                name: "give",
                params: &[
                    p("m", "ModelView|integer", "A hero (not an Animal or a Village Defender)."),
                    p("item", "string", "The item's name (\"Relic Blade\")."),
                ],
                returns: "",
                doc: "Reward primitive: the hero gains an item carrying this script and its params: the \
                      script's model hooks (`melee_modifier`, ...) then act for the hero as a trait's do, and \
                      its `use`, if any, is what a `{ use = item }` order does.",
                usage: "ctx:give(hero, \"Relic Blade\")",
            },
            Method {
                name: "spent",
                params: &[p("key", "string", "A limited use: \"game:...\", \"wave:...\" or \"council:...\".")],
                returns: "boolean",
                doc: "Whether a limited use is already spent (game:... lasts the game, wave:... the wave, \
                      council:... the Council Phase).",
                usage: "if ctx:spent(\"game:Relic Blade:\" .. hero.name) then return end",
            },
            Method {
                name: "spend",
                params: &[p("key", "string", "A limited use: \"game:...\", \"wave:...\" or \"council:...\".")],
                returns: "",
                doc: "Reward primitive: spend a limited use (an error if it is already spent).",
                usage: "ctx:spend(\"game:Relic Blade:\" .. hero.name)",
            },
            Method {
                name: "why",
                params: &[
                    po("reason", "string", "Why, in a few words (\"the nearest hero\")."),
                    po(
                        "candidates",
                        "any[]",
                        "What was weighed: models, buildings, tokens, points or strings.",
                    ),
                    po(
                        "scores",
                        "number[]",
                        "The score each candidate was given, by position (a distance, a rank).",
                    ),
                ],
                returns: "",
                doc: "In a decision hook (a Behaviour's `target`, `objective`, `act`; a policy's `activate`, \
                      `act`, `council`) while `ctx.explaining`: says why the script chose what it \
                      returns, and what it weighed; the kernel keeps it with the decision (`decision` \
                      events in a written log, `:why` in the REPL, the viewer) with the line of the \
                      deciding script it was said from. Nothing otherwise: it never changes the game. A \
                      hook may also return its reason as a second value (`return target, \"why\"`), \
                      which costs nothing when no one is explaining.",
                usage: "if ctx.explaining then ctx:why(\"the nearest hero\", heroes, distances) end",
            },
            Method {
                name: "done_for_wave",
                params: &[],
                returns: "",
                doc: "In a hook the kernel calls for every script of a model (on_opponent_activation, \
                      on_activation_roll, on_friend_result, on_result, on_charge, on_defeat, \
                      on_structural, on_activation, on_wave_start, on_pass_token, on_council): this hook of this script has nothing more to do for this model this \
                      wave, so the kernel does not call it again until the next wave begins (a use \
                      spent for the wave, say). It saves the calls, and changes nothing else; an error in \
                      any other hook.",
                usage: "if key == nil then ctx:done_for_wave() return end",
            },
            Method {
                name: "hero",
                params: &[],
                returns: "ModelView|nil",
                doc: "The hero an Opportunity's or item's script acts for, if it is on the table (nil elsewhere).",
                usage: "local h = ctx:hero()",
            },
            Method {
                name: "peek",
                params: &[
                    p("model", "ModelView|integer", "Who looks: a model holding the `peek_opportunity` permission."),
                    p("token", "Token|integer", "An Opportunity token (from `ctx:tokens(\"opportunity\")`)."),
                ],
                returns: "string",
                doc: "See an Opportunity's result before claiming it (Wren's Pathfinder): the kernel rolls the \
                      token's Opportunity die now (logged, with a `rule_bent` event naming the script that \
                      grants `peek_opportunity`), keeps it on the token for whoever claims it, and returns the \
                      result's name; a token already peeked is read again without a roll. An error for a model \
                      without the permission, a token that is no Opportunity, or a read-only ctx.",
                usage: "if ctx:peek(self, token) ~= \"Ambush\" then return true end",
            },
            Method {
                name: "morale",
                params: &[
                    p("m", "ModelView", "The model."),
                    p("trigger", "string", "\"terror\", \"gruesome_kill\", \"leader_defeated\" or \"half_lost\"."),
                ],
                returns: "",
                doc: "Ask the kernel for a morale check after the hook. Only in `on_result` and `on_charge`.",
                usage: "for _, m in ipairs(charged) do ctx:morale(m, \"terror\") end",
            },
            Method {
                name: "rollouts",
                params: &[
                    p(
                        "candidates",
                        "RolloutCandidate[]",
                        "The decisions to weigh (1–32): nominations of an offered model, letting it wait, or \
                         orders for the model taking its actions.",
                    ),
                    po("options", "RolloutOptions", "Samples, depth, score and caps (all optional)."),
                ],
                returns: "Rollouts",
                doc: "What each candidate is worth, by playing the game on from here with it taken: `samples` \
                      playouts each, by the default policy (or `options.policy`) and the Behaviours, to \
                      `depth` (the rest of the activation, the turn, the round — the default — or the wave), \
                      scored by `score`. Sample k of every candidate rolls the same dice (common random \
                      numbers), seeded from the game's seed and the event the decision is made at: the same \
                      decision always gets the same estimates. Each roll in a playout comes from a position \
                      named by its wave, round, purpose and model, so a candidate that spends dice \
                      differently does not shift every later roll: the same model's same roll gets the same \
                      faces in every candidate's sample k. The game, its log, its dice and `math.random` \
                      are exactly as before the call. Only the hero policy may call it, in its `activate`, \
                      `act` or `plan`; a playout's own policy may not. The playouts' scripts spend a budget of \
                      their own, not the caller's: at most 100 M VM instructions and 250,000 events for all the \
                      calls of one decision (`instructions` and `events` may lower them); sampling stops \
                      where they run out (`capped`), every candidate keeping the same number of samples.",
                usage: "local r = ctx:rollouts({ { order = a }, { order = b } }, { samples = 8, depth = \"round\" })\nif r.estimates[2].mean > r.estimates[1].mean then return b end",
            },
            Method {
                name: "grant",
                params: &[p("effect", "GrantOptions", "Who gains what, against whom, for how long.")],
                returns: "",
                doc: "Ask the kernel to add a modifier to some models' melee and ranged rolls for a while \
                      (logged `effect_granted`). In hooks that may ask for changes.",
                usage: "ctx:grant({ models = ids, against = group_ids, value = 1, reason = \"Hold the Line\" })",
            },
            Method {
                name: "track",
                params: &[p("name", "string", "A track in play (rosters/tracks.toml).")],
                returns: "integer",
                doc: "The space the track's marker stands on. An error names the tracks in play when it is not one \
                      of them (a variant in force puts a track in play with `tracks = { \"name\" }`).",
                usage: "if ctx:track(\"threat\") <= 2 then return 1 end",
            },
            Method {
                name: "track_info",
                params: &[p("name", "string", "A track in play.")],
                returns: "TrackInfo",
                doc: "The track as rosters/tracks.toml has it (`min`, `max`, `start`, `loses_at`, `params`), with \
                      `value`, where its marker stands.",
                usage: "local advance_on = ctx:track_info(\"threat\").params.advance_on",
            },
            Method {
                name: "advance_track",
                params: &[
                    p("name", "string", "A track in play."),
                    p("by", "integer", "Spaces to move its marker: up when positive, down when negative."),
                    po("reason", "string", "Why, in words (the log's `reason`; default: the script)."),
                ],
                returns: "",
                doc: "Ask the kernel to move the track's marker, stopping at its bounds (logged `track_moved`). A \
                      marker that reaches the track's `loses_at` space ends the game (cause `threat_track`). In \
                      hooks that may ask for changes and in an action's `run`.",
                usage: "ctx:advance_track(\"threat\", -1, \"the threat grows\")",
            },
            Method {
                name: "vp",
                params: &[p("side", "string", "\"heroes\" or \"enemies\".")],
                returns: "integer",
                doc: "The Victory Points the side has scored in the scenario's battle (0 in a game without one).",
                usage: "if ctx:vp(\"heroes\") >= 6 then return \"win\", \"six VP\" end",
            },
            Method {
                name: "objectives",
                params: &[],
                returns: "BattleObjective[]",
                doc: "The scenario's objectives, each with who holds it now (`holder`: \"heroes\", \"enemies\" \
                      or nil), in the scenario's order; empty in a game without them.",
                usage: "for _, o in ipairs(ctx:objectives()) do print(o.name, o.holder) end",
            },
            Method {
                name: "award_vp",
                params: &[
                    p("side", "string", "\"heroes\" or \"enemies\"."),
                    p("points", "integer", "Victory Points to award, 0 or more."),
                    po("reason", "string", "Why, in words (the log's `reason`; default: the script)."),
                ],
                returns: "",
                doc: "Ask the kernel to award Victory Points (logged `vp_scored`). Only in a scenario's battle, \
                      in hooks that may ask for changes (a victory script's `on_victory_check`).",
                usage: "ctx:award_vp(\"heroes\", 1, \"the caravan moved on\")",
            },
            Method {
                name: "repair",
                params: &[
                    p("building", "BuildingView|string", "The building."),
                    p("amount", "integer", "Integrity to restore, up to its maximum."),
                ],
                returns: "",
                doc: "Ask the kernel to restore Integrity to an intact building (logged `repaired`). In hooks \
                      that may ask for changes and in an action's `run`.",
                usage: "ctx:repair(\"Forge\", 1)",
            },
            Method {
                name: "extinguish",
                params: &[p("building", "BuildingView|string", "The building.")],
                returns: "",
                doc: "Ask the kernel to remove a building's fire token (logged `fire` with this script).",
                usage: "ctx:extinguish(\"Temple\")",
            },
            Method {
                name: "ignite",
                params: &[p("building", "BuildingView|string", "The building.")],
                returns: "",
                doc: "Ask the kernel to put a fire token on an intact building that has none (logged `fire` \
                      with this script).",
                usage: "ctx:ignite(\"Stable\")",
            },
            Method {
                name: "attack",
                params: &[
                    p("attacker", "ModelView|integer", "Who attacks."),
                    p("target", "ModelView|integer", "Who is attacked."),
                    p("combat", "integer", "The attacker's Combat for this attack."),
                    p("reason", "string|nil", "For the log (default: the script's path)."),
                ],
                returns: "",
                doc: "Ask the kernel for an attack at this Combat, resolved as a ranged attack is (the target's \
                      roll only defends; no weapon, sight or closest-target check), its result applied. Only \
                      in a scripted action's `run` (the Young Dragon's Fire Breath).",
                usage: "ctx:attack(self, hero, ctx.params.combat, \"Fire Breath\")",
            },
            Method {
                name: "summon_near",
                params: &[
                    p("summoner", "ModelView|integer", "Whose side and Group it joins."),
                    p("profile", "string", "The profile to place."),
                    p("within", "number|\"short\"|\"medium\"|\"long\"", "How far from the summoner's base."),
                ],
                returns: "",
                doc: "Ask the kernel to place a model of `profile` at the nearest free spot within `within` of \
                      the summoner, on its side and in its Group; it vanishes if the summoner is Defeated \
                      (logged `summoned`). Only in a scripted action's `run` (the Lich's Raise Dead).",
                usage: "ctx:summon_near(self, \"Skeleton Warrior\", \"short\")",
            },
            Method {
                name: "usable",
                params: &[p("model", "ModelView|integer", "The model.")],
                returns: "UsableAction[]",
                doc: "The scripted actions the model may take now: each action of its scripts (by name) with \
                      each target its `targets` offers, kept when its `can` says true. Order one with \
                      `{ ability = u.name, target = u.target }`.",
                usage: "for _, u in ipairs(ctx:usable(self)) do return { ability = u.name, target = u.target } end",
            },
            Method {
                name: "remove_barricade",
                params: &[p("token", "Token|integer", "The Barricade (from `ctx:tokens(\"barricade\")`).")],
                returns: "",
                doc: "Ask the kernel to remove a Barricade (logged `barricade_damage` with this script).",
                usage: "ctx:remove_barricade(b)",
            },
        ],
    },
    Class {
        name: "ModelView",
        kind: ClassKind::Table,
        doc: "A model as a hook sees it (the fields of a `Model`), read-only. Lazy: a field is read from \
              the game the first time it is asked for, then kept; `pairs` lists them all. A view lives for \
              the hook call that handed it out: a field first read after that call is an error (keep ids, \
              not views). Before a ctx method changes the game, the call's views are filled in: they keep \
              showing the model as it was.",
        usage: "melee_modifier = function(ctx, self, roll) if self:has_trait(\"Savage\") then return 1 end end",
        fields: MODEL_FIELD_SPECS,
        methods: MODEL_METHODS,
    },
    Class {
        name: "BuildingView",
        kind: ClassKind::Table,
        doc: "A building as a hook sees it (the fields of a `Building`), read-only and lazy as a \
              `ModelView` is.",
        usage: "local th = ctx:building(\"Town Hall\")",
        fields: BUILDING_FIELD_SPECS,
        methods: &[],
    },
    Class {
        name: "Roll",
        kind: ClassKind::Table,
        doc: "What a modifier hook learns about the roll about to be made.",
        usage: "if roll.kind == \"melee\" and roll.role == \"attacker\" then return 1 end",
        fields: &[
            f("kind", "RollKind", "Which roll."),
            f("role", "Role", "The hook owner's role in it."),
            f("attacker", "ModelView", "The attacking model."),
            f("target", "ModelView|BuildingView", "The model or building attacked."),
            f("power_blow", "boolean", "The attack is a Power Blow."),
            f("aimed", "boolean", "The shot is aimed."),
            f("free_hack", "boolean", "The attack is a Free Hack."),
            opt("target_token", "integer", "The token attacked, when it is a Barricade."),
        ],
        methods: &[],
    },
    Class {
        name: "Win",
        kind: ClassKind::Table,
        doc: "A won roll as `win_rules` and `on_result` see it.",
        usage: "if win.role == \"winner\" and win.kind == \"melee\" then return { lethal = true } end",
        fields: &[
            f("kind", "RollKind", "Which roll."),
            f("result", "CombatOutcome", "The result so far (read from the table, or as a script replaced it)."),
            f(
                "role",
                "\"winner\"|\"loser\"|\"friend\"",
                "The hook owner's side of the win (\"friend\": a friend of the loser, in `on_friend_result`).",
            ),
            f("attacker_won", "boolean", "Whether the winner was the attacker."),
            f("winner_die", "integer", "The winner's natural die."),
            f("winner_total", "integer", "The winner's total."),
            f("loser_total", "integer", "The loser's total."),
            opt("opponent", "ModelView", "The other model."),
            opt("friend", "ModelView", "In `on_friend_result`: the friend that lost."),
            opt(
                "would_remove",
                "boolean",
                "In `on_friend_result`: the result as it stands takes the friend off the table (a Tough \
                 model's Wound does not).",
            ),
        ],
        methods: &[],
    },
    Class {
        name: "WinRules",
        kind: ClassKind::Table,
        doc: "What `win_rules` returns: how the owner's win is read.",
        usage: "return { lethal = \"Lethal\", gruesome_multiplier = 2 }",
        fields: &[
            opt("lethal", "boolean|string", "The win defeats on any loss (a string is the reason)."),
            opt("gruesome_multiplier", "integer", "A Gruesome Kill from this multiple (Savage: 2)."),
        ],
        methods: &[],
    },
    Class {
        name: "ResultChange",
        kind: ClassKind::Table,
        doc: "What `on_result` (and `on_friend_result`) may return: a result to apply instead, or a longer \
              Recoil.",
        usage: "return { result = \"none\", reason = \"Heavy Armor\" }",
        fields: &[
            opt("result", "CombatOutcome", "The result to apply instead."),
            opt(
                "recoil",
                "number|\"short\"|\"medium\"|\"long\"",
                "A Recoil moves the loser this far instead of one base width (inches or a measure).",
            ),
            opt("reason", "string", "For the log."),
        ],
        methods: &[],
    },
    Class {
        name: "MoveTraits",
        kind: ClassKind::Table,
        doc: "What `movement` returns: how its owner moves.",
        usage: "return { ignore_terrain = { \"wood\" } }",
        fields: &[
            opt("flying", "boolean", "Passes over terrain; no band lost."),
            opt("ignore_terrain", "string[]", "Terrain kinds that cost it nothing."),
            opt("free_disengage", "boolean|integer[]", "Leaves these enemies (ids; true: all) without a Free Hack."),
            opt("band", "\"short\"|\"medium\"|\"long\"", "Its movement band (default Medium)."),
            opt("one_move", "boolean", "Only one move action per activation (Slow)."),
        ],
        methods: &[],
    },
    Class {
        name: "MoraleAnswer",
        kind: ClassKind::Table,
        doc: "What `morale` returns for a check about to be rolled.",
        usage: "if trigger == \"terror\" then return { immune = \"Fearless\" } end",
        fields: &[
            opt("immune", "boolean|string", "Ignore this check (a string is the reason)."),
            opt("modifier", "integer", "Added to each morale die."),
            opt("reason", "string", "For the log."),
        ],
        methods: &[],
    },
    Class {
        name: "RolloutCandidate",
        kind: ClassKind::Table,
        doc: "One decision `ctx:rollouts` weighs: a nomination of an Active model of the heroes' side \
              (`model` with `dice`, `cast`, `group`, as `activate` answers), letting it wait (`model` with \
              `wait = true`: the turn's pass goes on without it), or orders for the model taking its actions \
              (`order`, or a plan's `orders`; the policy orders the rest of the activation).",
        usage: "local cands = { { model = self, dice = 3 }, { model = self, wait = true }, { order = { melee = foe } } }",
        fields: &[
            opt("model", "integer|ModelView", "The model nominated or left to wait."),
            opt("wait", "boolean", "Let the model wait instead of nominating it."),
            opt("dice", "integer", "Activation dice, 1–3 (default 2)."),
            opt("cast", "boolean", "Declare spellcasting before the roll."),
            opt("group", "integer[]|ModelView[]", "A Leader's group rolling with it."),
            opt("order", "BehaviourOrder", "One order for the model taking its actions."),
            opt("orders", "BehaviourOrder[]", "A plan: orders for the model taking its actions, in turn."),
        ],
        methods: &[],
    },
    Class {
        name: "RolloutOptions",
        kind: ClassKind::Table,
        doc: "How `ctx:rollouts` plays out: every key optional.",
        usage: "local r = ctx:rollouts(cands, { samples = 16, depth = \"wave\", score = \"integrity\" })",
        fields: &[
            opt("samples", "integer", "Playouts per candidate, 1–256 (default 8)."),
            opt(
                "depth",
                "\"activation\"|\"turn\"|\"round\"|\"wave\"",
                "How far each playout goes (default \"round\").",
            ),
            opt(
                "score",
                "\"result\"|\"integrity\"|\"waves\"",
                "What a playout's end is worth: the wave's result (1 won, 0 lost, ½ a battle's draw; \
                 before the wave ends, the position's worth between: 0.4 × the enemies' strength taken, \
                 0.3 × the heroes' side's kept, 0.3 × the village's Integrity kept), the Town Hall's \
                 Integrity, or waves won with the wave under way counted by its result (default \"result\").",
            ),
            opt("events", "integer", "The most events this call's playouts may log (default 100,000)."),
            opt("instructions", "integer", "The most VM instructions this call's playouts' scripts may spend."),
            opt("policy", "string", "The hero policy the playouts are played with (default \"default\")."),
        ],
        methods: &[],
    },
    Class {
        name: "Rollouts",
        kind: ClassKind::Table,
        doc: "What `ctx:rollouts` found: an estimate per candidate, in the order given.",
        usage: "for i, e in ipairs(r.estimates) do print(i, e.mean, e.low, e.high) end",
        fields: &[
            f("estimates", "RolloutEstimate[]", "One per candidate."),
            f("samples", "integer", "Samples played (each for every candidate)."),
            f("events", "integer", "Events the playouts logged (then undid)."),
            f("capped", "boolean", "Sampling stopped at a cap before the samples asked for."),
            f("instructions", "integer", "VM instructions the playouts' scripts spent."),
        ],
        methods: &[],
    },
    Class {
        name: "RolloutEstimate",
        kind: ClassKind::Table,
        doc: "One candidate's estimate.",
        usage: "if e.low > best.high then best = e end",
        fields: &[
            f("mean", "number", "The mean score of its playouts."),
            f("low", "number", "The low end of its 95% interval (mean − 1.96 standard errors)."),
            f("high", "number", "The high end."),
            f("playouts", "integer", "The playouts behind it."),
            f("scores", "number[]", "Each playout's score, by sample."),
            opt("refused", "string", "Why the rules refused the candidate (not played out)."),
        ],
        methods: &[],
    },
    Class {
        name: "GrantOptions",
        kind: ClassKind::Table,
        doc: "What `ctx:grant` is given: a modifier for some models' rolls, for a while.",
        usage: "ctx:grant({ models = { self.id }, against = { orc.id }, value = 1, ends = \"wave\" })",
        fields: &[
            f("models", "integer[]|ModelView[]", "The models whose rolls it modifies (ids or views)."),
            opt("against", "integer[]|ModelView[]", "Only in rolls against these (default: anyone)."),
            f("value", "integer", "Added to the model's own total."),
            opt("reason", "string", "For the log (default: the script's file name)."),
            opt(
                "ends",
                "\"activation\"|\"wave\"",
                "When it ends: with the activation being played (default) or the wave.",
            ),
        ],
        methods: &[],
    },
    Class {
        name: "OrderInfo",
        kind: ClassKind::Table,
        doc: "The order an `order_cost` hook is asked about.",
        usage: "if order.kind == \"aimed_shot\" then return { cost = 1 } end",
        fields: &[
            f(
                "kind",
                "string",
                "\"melee\", \"power_blow\", \"shoot\", \"aimed_shot\", \"structural\", \"ignite\", \"move\", \
                 \"approach\", \"leave\", \"claim\", \"use\", \"heal\" or \"ability\".",
            ),
            f("cost", "integer", "Actions it costs by the rulebook."),
            opt("target", "integer", "The model it aims at (an attack or a heal)."),
            opt("building", "string", "The building it aims at."),
            opt("name", "string", "A scripted action's name."),
        ],
        methods: &[],
    },
    Class {
        name: "CostAnswer",
        kind: ClassKind::Table,
        doc: "What `order_cost` may return: a lower cost, and the limited use it spends when the order is carried out.",
        usage: "return { cost = 1, spend = \"wave:Called Shot\", reason = \"Called Shot\" }",
        fields: &[
            f(
                "cost",
                "integer",
                "Actions (0 to 3); the lowest any script gives is used. A model takes at most three free \
                 orders (cost 0) an activation: past them the order costs the rulebook's.",
            ),
            opt("spend", "string", "A limited use (`game:`/`wave:`/`council:`) spent once the order is carried out."),
            opt("reason", "string", "For the log."),
        ],
        methods: &[],
    },
    Class {
        name: "ActivationRollInfo",
        kind: ClassKind::Table,
        doc: "An activation roll as `on_activation_roll` sees it, before any reroll.",
        usage: "if roll.side == \"heroes\" and #roll.dice > 0 then return { reroll = \"best\" } end",
        fields: &[
            f(
                "dice",
                "integer[]",
                "The faces, in the order rolled (a Hero's automatic success is not a die and is not here).",
            ),
            f("quality", "integer", "The Quality rolled against."),
            f("side", "Side", "The side activating."),
            f("models", "ModelView[]", "The models activating (a Group, or one model)."),
        ],
        methods: &[],
    },
    Class {
        name: "RerollAnswer",
        kind: ClassKind::Table,
        doc: "What `on_activation_roll` may return: dice to roll again (the first script that asks wins).",
        usage: "return { reroll = \"all\", spend = \"wave:Warcry:\" .. self.id, reason = \"Warcry\" }",
        fields: &[
            f("reroll", "\"all\"|\"best\"", "Every die, or the best (highest) one."),
            opt("spend", "string", "A limited use spent by the reroll."),
            opt("reason", "string", "For the log."),
        ],
        methods: &[],
    },
    Class {
        name: "UsableAction",
        kind: ClassKind::Table,
        doc: "A scripted action a model may take now, as `ctx:usable` lists it.",
        usage: "local u = ctx:usable(self)[1]",
        fields: &[
            f("name", "string", "The action's name."),
            opt("target", "any", "What it would aim at (a building, model, token or point)."),
            f("source", "string", "The script that defines it."),
        ],
        methods: &[],
    },
    Class {
        name: "StructuralInfo",
        kind: ClassKind::Table,
        doc: "A structural attack as `on_structural` sees it, after its damage.",
        usage: "if attack.won then ctx:remove_barricade(b) end",
        fields: &[
            f("building", "string", "The building attacked."),
            f("won", "boolean", "Whether the attacker won the roll."),
        ],
        methods: &[],
    },
    Class {
        name: "ActionSpec",
        kind: ClassKind::Table,
        doc: "One entry of a script's `actions` table: an extra action its owner may order with \
              `{ ability = name, target = ... }`.",
        usage: "actions = { [\"Smother\"] = { can = function(ctx, self, b) return true end, run = function(ctx, self, b) ctx:extinguish(b) end } }",
        fields: &[
            opt(
                "task",
                "integer|fun(ctx: Ctx): integer",
                "A Task of this many actions (each order adds one); `run` runs once complete.",
            ),
            opt(
                "attack",
                "boolean",
                "It is its model's one melee or ranged attack of the turn (core §3.2): refused after one, \
                 counted as one.",
            ),
            opt(
                "targets",
                "fun(ctx: Ctx, self: ModelView): any[]",
                "The targets worth offering now (for `ctx:usable`); without it the action takes no target.",
            ),
            opt(
                "can",
                "fun(ctx: Ctx, self: ModelView, target: any): boolean|string",
                "true when it may be used now; false or a string saying why not refuses the order.",
            ),
            f(
                "run",
                "fun(ctx: Ctx, self: ModelView, target: any)",
                "Its effect: ask for changes through `ctx` (`ctx:repair`, `ctx:extinguish`, `ctx:spend`, ...).",
            ),
        ],
        methods: &[],
    },
    Class {
        name: "Modifier",
        kind: ClassKind::Table,
        doc: "A modifier a hook returns (a bare whole number means `{ value = n }`).",
        usage: "return { value = -1, to = \"opponent\", reason = \"terrifying\" }",
        fields: &[
            f("value", "integer", "A whole number to add to the total."),
            opt(
                "to",
                "\"self\"|\"opponent\"|\"attacker\"|\"defender\"",
                "Whose total (default \"self\", the hook's owner).",
            ),
            opt("reason", "string", "For the log (default: the script's file name)."),
        ],
        methods: &[],
    },
    Class {
        name: "BehaviourInfo",
        kind: ClassKind::Table,
        doc: "A Behaviour of rosters/behaviours.toml (§6.2–6.3), as `ctx:behaviour` reads it.",
        usage: "local b = ctx:behaviour(\"Guardian\")",
        fields: &[
            f("name", "string", "The Behaviour's name."),
            f("order", "integer", "Its place in the enemy turn's play order (lower first)."),
            f("max_actions", "integer", "Most actions a Group of it takes per activation."),
            f("turnover", "boolean", "Whether two failures end the enemy turn."),
            f(
                "ranged_attacks",
                "boolean",
                "Whether it makes ranged and spell attacks (the kernel refuses them otherwise).",
            ),
            f(
                "voluntary_disengage",
                "boolean",
                "Whether it moves while Engaged (the kernel refuses it otherwise).",
            ),
            opt(
                "ignores_terror_and_gruesome",
                "boolean",
                "It makes no morale checks for Terror or Gruesome Kills.",
            ),
            opt("guard_radius", "number", "How near its objective it stays (Guardian), inches."),
            opt("fallback_behaviour", "string", "The Behaviour it falls back on."),
            f("target", "string", "The rulebook's words: its target."),
            f("melee", "string", "The rulebook's words: in melee."),
            f("fallback", "string", "The rulebook's words: its fallback."),
            opt("limits", "string", "The rulebook's words: its limits."),
            opt("script", "string", "Its script, relative to scripts/."),
            opt("params", "table", "Plain data for its script."),
        ],
        methods: &[],
    },
    Class {
        name: "SpellInfo",
        kind: ClassKind::Table,
        doc: "A spell of rosters/spells.toml, as `ctx:spell` reads it.",
        usage: "local s = ctx:spell(\"Thorn Wall\")",
        fields: &[
            f("name", "string", "The spell's name."),
            f(
                "kinds",
                "string[]",
                "Its kinds (§3.7): \"attack\", \"resisted\", \"enchantment\", \"summoning\", \"wall\", \
                 \"ritual\", \"healing\", \"dispel\".",
            ),
            f("text", "string", "What it does, for people."),
            opt("living_only", "boolean", "No effect on Undead or Artificial models."),
            opt("ritual_actions", "integer", "A Ritual's Task size."),
            opt("wall", "table", "A Wall's `{ length, integrity, structure }`."),
            opt("script", "string", "The script that resolves it."),
            opt("params", "table", "Plain data for its script."),
        ],
        methods: &[],
    },
];
