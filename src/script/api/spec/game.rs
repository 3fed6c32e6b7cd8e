//! The API classes of the `village` global and the game handle (its methods are what scenarios,
//! the REPL and `village run` call).

use super::*;

/// The `village` global's and the game's classes, in output order.
pub(super) const CLASSES: &[Class] = &[
    Class {
        name: "village",
        kind: ClassKind::Global,
        doc: "The `village` global: start games and look at the rosters.",
        usage: "local g = village.new_game({ seed = 7, table = \"empty\" })",
        fields: &[f("version", "string", "The version of the village engine.")],
        methods: &[
            Method {
                name: "new_game",
                params: &[po("opts", "NewGameOptions", "Seed, length, heroes, table, preset, variants.")],
                returns: "Game",
                doc: "A new game from the rosters: buildings at Level I and the named heroes south of the Town Hall.",
                usage: "local g = village.new_game({ seed = 7, heroes = { \"Captain Maren\" }, table = \"empty\" })",
            },
            Method {
                name: "profiles",
                params: &[],
                returns: "string[]",
                doc: "The names of every profile in the rosters (heroes, enemies, Village Defenders).",
                usage: "for _, name in ipairs(village.profiles()) do print(name) end",
            },
            Method {
                name: "profile",
                params: &[p("name", "string", "A profile (part of the name will do: \"maren\").")],
                returns: "ProfileCard",
                doc: "A profile's card, as `village show --json` prints it: its parts with their rule text, \
                      scripts and where each comes from (an error names the closest profile).",
                usage: "print(village.profile(\"Captain Maren\").signature.name)",
            },
        ],
    },
    Class {
        name: "NewGameOptions",
        kind: ClassKind::Table,
        doc: "Options of `village.new_game`; an unknown key is an error.",
        usage: "village.new_game({ seed = 1, length = \"standard\", heroes = { \"Captain Maren\", \"Tobin the Marksman\" } })",
        fields: &[
            opt("seed", "integer", "Seed of the dice (default: the session's `--seed`)."),
            opt("length", "string", "Game length as named in the rosters (default \"standard\")."),
            opt("heroes", "string[]", "Heroes to deploy in a row south of the Town Hall."),
            opt("table", "\"empty\"|\"generated\"", "The standard layout, or a generated table (default)."),
            opt(
                "preset",
                "string",
                "A difficulty preset of rosters/presets.toml (default \"rulebook\": exactly the rules).",
            ),
            opt(
                "scenario",
                "string",
                "A scenario: the name of a scenarios/NAME.toml, or a .toml file (default \"rulebook\": the \
                 rulebook's game). Its table and buildings replace the generated ones.",
            ),
            opt(
                "variants",
                "string[]",
                "Rule variants (scripts/variants/NAME.lua), applied in order after the preset's.",
            ),
            opt(
                "policy",
                "string",
                "The hero policy (scripts/policies/NAME.lua) that plays the heroes' side (default \"default\").",
            ),
            opt(
                "decisions",
                "boolean",
                "Keep the scripts' decisions with their reasons (`g:why`, the REPL's `:why`; default true). \
                 false plays the same game without them, as `sim` does.",
            ),
        ],
        methods: &[],
    },
    Class {
        name: "Game",
        kind: ClassKind::Handle,
        doc: "A game on the table. Each method resolves a rule at once as a what-if: it checks geometry \
              (contact, sight, range) but not whose turn it is.",
        usage: "local g = village.new_game({ seed = 7, table = \"empty\" })",
        fields: &[
            f("seed", "integer", "The seed of the game's dice."),
            f("round", "integer", "The current round."),
            f("wave", "integer", "The current wave."),
            f("supplies", "integer", "The village's Supplies."),
            f("herbs", "integer", "Herb tokens the village holds (each heals 1 Wound in a Council Phase)."),
            f(
                "joining",
                "string[]",
                "Village Defender profiles that join at the next wave start (Lost Villagers).",
            ),
            f("length", "string", "The game length's name."),
            f("preset", "string", "The difficulty preset (rosters/presets.toml) the game was made with."),
            f("scenario", "string", "The scenario (scenarios/NAME.toml, or the file's name) the game was made of."),
            f(
                "tracks",
                "table<string, integer>",
                "The tracks in play (rosters/tracks.toml, put in play by a variant's `tracks`): where each marker stands.",
            ),
            f("variants", "string[]", "The rule variants in force, in order: the preset's, then those asked for."),
        ],
        methods: &[
            Method {
                name: "place",
                params: &[
                    p("name", "string", "A profile name from the rosters."),
                    p("pos", "Point", "Centre of the base."),
                    po("opts", "PlaceOptions", "`behaviour` (one of the profile's), `group` (its number)."),
                ],
                returns: "Model",
                doc: "Put a model on the table; an error if its base would hang off the table or overlap anything.",
                usage: "local orc = g:place(\"Orc Warrior\", { x = 3, y = 3 })",
            },
            Method {
                name: "force_dice",
                params: &[p("faces", "integer[]", "D6 faces (1 to 6) the next rolls will show, in order.")],
                returns: "",
                doc: "Queue the faces the next dice will show (scenarios and tests).",
                usage: "g:force_dice({ 6, 1 })",
            },
            Method {
                name: "begin_turn",
                params: &[p("side", "Side", "Whose turn begins: `heroes` or `enemies`.")],
                returns: "",
                doc: "Begin a side's turn (§3.1): its models become Active, and their one attack of the turn (§3.2) and activation counts start afresh. `g:hero_turn` and `g:enemy_turn` begin their own turn.",
                usage: "g:begin_turn(\"heroes\")",
            },
            Method {
                name: "activate",
                params: &[
                    p("model", "ModelArg", "The model to activate."),
                    p("dice", "integer", "How many dice to roll (1 to 3)."),
                    po("opts", "ActivateOptions", "`cast` declares spellcasting before the roll."),
                ],
                returns: "ActivationResult",
                doc: "Roll an activation (§3.1): successes are actions, two or more failures a turnover. It \
                      starts the model's activation (its moves afresh); its attack of the turn stays spent \
                      until `g:begin_turn`.",
                usage: "local r = g:activate(orc, 2)",
            },
            Method {
                name: "move",
                params: &[
                    p("model", "ModelArg", "The model to move."),
                    p("to", "Point", "Where to go, in a straight line."),
                    po("opts", "MoveOptions", "`distance`: at most this far (default: a Medium move)."),
                ],
                returns: "MoveResult",
                doc: "Move straight toward a point on the table; stops at contact with an enemy, a building, \
                      impassable terrain or the table edge. A point that is NaN, infinite or off the table, or a \
                      `distance` that is not a finite number of inches 0 or more, is an error and nothing moves.",
                usage: "local m = g:move(orc, { x = 12, y = 3 })",
            },
            Method {
                name: "melee",
                params: &[
                    p("attacker", "ModelArg", "The attacking model."),
                    p("defender", "ModelArg", "The model attacked; must be in contact."),
                    po("opts", "MeleeOptions", "Power Blow, Free Hack, Lethal, Ambush."),
                ],
                returns: "CombatResult",
                doc: "Resolve a melee attack (SUPPLEMENT §4) with the modifier hooks of both models.",
                usage: "local r = g:melee(orc, bram, { power_blow = true })",
            },
            Method {
                name: "shoot",
                params: &[
                    p("shooter", "ModelArg", "The model shooting."),
                    p("target", "ModelArg", "The model shot at; must be in sight and range."),
                    po("opts", "ShotOptions", "`aimed`."),
                ],
                returns: "CombatResult",
                doc: "Resolve a ranged attack (range bands, Cover, weapon break) with the modifier hooks.",
                usage: "local r = g:shoot(tobin, orc, { aimed = true })",
            },
            Method {
                name: "structural",
                params: &[
                    p("attacker", "ModelArg", "The model attacking the building; must be in contact."),
                    p("building", "Building|string", "The building or its name."),
                    po("opts", "StructuralOptions", "`power_blow`."),
                ],
                returns: "StructuralResult",
                doc: "Resolve a structural attack on a building.",
                usage: "local r = g:structural(orc, \"Town Hall\")",
            },
            Method {
                name: "building",
                params: &[p("name", "string", "The building's name.")],
                returns: "Building",
                doc: "A building by name; an error if there is none.",
                usage: "local th = g:building(\"Town Hall\")",
            },
            Method {
                name: "buildings",
                params: &[],
                returns: "Building[]",
                doc: "Every building, in table order.",
                usage: "for _, b in ipairs(g:buildings()) do print(b.name, b.integrity) end",
            },
            Method {
                name: "models",
                params: &[po("opts", "ModelFilter", "`side`: only this side.")],
                returns: "Model[]",
                doc: "The models on the table, in id order.",
                usage: "local heroes = g:models({ side = \"heroes\" })",
            },
            Method {
                name: "model",
                params: &[p("id", "integer", "A model id.")],
                returns: "Model|nil",
                doc: "The model with this id, or nil if it is not on the table.",
                usage: "local m = g:model(1)",
            },
            Method {
                name: "remove",
                params: &[
                    p("model", "ModelArg", "The model to take off the table."),
                    po("reason", "string", "Why, for the log (default \"removed\"; \"fled\" is not a defeat)."),
                ],
                returns: "",
                doc: "Take a model off the table.",
                usage: "g:remove(orc, \"fled\")",
            },
            Method {
                name: "log",
                params: &[po("last", "integer", "Only the last N events.")],
                returns: "LogEvent[]",
                doc: "The event log: every roll and result, oldest first.",
                usage: "local last = g:log(1)[1]",
            },
            Method {
                name: "why",
                params: &[po("seq", "integer", "An event's number (default: the latest event but a `round` or `turn` mark).")],
                returns: "Decision[]",
                doc: "The scripts' decisions behind event `seq`: who chose what, what it weighed, why and \
                      where (`:why` in the REPL). Empty when no script decided it (the rules' own events) \
                      or the game keeps no decisions (`village.new_game{ decisions = false }`).",
                usage: "for _, d in ipairs(g:why()) do print(d.by, d.chose, d.reason) end",
            },
            Method {
                name: "log_json",
                params: &[],
                returns: "string",
                doc: "The whole event log as JSON (byte-identical for the same seed and inputs).",
                usage: "print(g:log_json())",
            },
            Method {
                name: "rules",
                params: &[],
                returns: "table<string, table<string, any>>",
                doc: "The rule constants in force (the rosters' with the preset's and the variants' overrides applied), by section.",
                usage: "local pb = g:rules().melee.power_blow",
            },
            Method {
                name: "add_terrain",
                params: &[
                    p("kind", "string", "wood, hill, rocks, pond, field (an area), wall or hedge (a line)."),
                    p("points", "Point[]", "The area's corners (its convex hull), or a line's two ends."),
                ],
                returns: "",
                doc: "Add a piece of terrain (SUPPLEMENT §2) to the table, for scenarios.",
                usage: "g:add_terrain(\"wood\", { { 14, 29 }, { 16, 29 }, { 16, 31 }, { 14, 31 } })",
            },
            Method {
                name: "morale",
                params: &[
                    p("model", "ModelArg", "The model testing."),
                    p("trigger", "string", "\"terror\", \"gruesome_kill\", \"leader_defeated\" or \"half_lost\"."),
                ],
                returns: "MoraleCheck",
                doc: "A morale check (§3.6) with the model's morale hooks, applied.",
                usage: "local r = g:morale(orc, \"terror\")",
            },
            Method {
                name: "ignite",
                params: &[
                    p("model", "ModelArg", "An Igniter adjacent to the building."),
                    p("building", "Building|string", "An intact building."),
                ],
                returns: "",
                doc: "Place a fire token on an intact building (§6.4); a building holds one.",
                usage: "g:ignite(goblin, \"Forge\")",
            },
            Method {
                name: "barricade",
                params: &[p("a", "Point", "One end."), p("b", "Point", "The other end.")],
                returns: "integer",
                doc: "Place a Barricade (the roster's Integrity and Structure) between two points; its token id.",
                usage: "local b = g:barricade({ 10, 10 }, { 13, 10 })",
            },
            Method {
                name: "trap",
                params: &[
                    p("at", "Point", "Where the Trap lies."),
                    po("opts", "TrapOptions", "`entangle`: a snare that Entangles instead of attacking."),
                ],
                returns: "integer",
                doc: "Place a face-down Trap (§6.5); its token id.",
                usage: "g:trap({ 10, 30 })",
            },
            Method {
                name: "attack_barricade",
                params: &[
                    p("attacker", "ModelArg", "A model adjacent to the Barricade."),
                    p("token", "integer", "The Barricade's token id."),
                    po("opts", "StructuralOptions", "`power_blow`."),
                ],
                returns: "StructuralResult",
                doc: "A structural attack on a Barricade (its own Structure); removed at 0 Integrity.",
                usage: "g:attack_barricade(orc, b)",
            },
            Method {
                name: "activate_group",
                params: &[
                    p("leader", "ModelArg|nil", "The Leader, or nil for an Enemy Group."),
                    p("members", "ModelArg[]", "The other members."),
                    p("dice", "integer", "1 to 3."),
                ],
                returns: "ActivationResult",
                doc: "Group activation (§3.1): one roll at the worst Quality for up to five models.",
                usage: "g:activate_group(maren, { archer, rider }, 2)",
            },
            Method {
                name: "task",
                params: &[
                    p("model", "ModelArg", "The model working."),
                    p("name", "string", "The Task."),
                    p("needed", "integer", "Actions it takes in all."),
                    p("actions", "integer", "Actions spent now."),
                ],
                returns: "TaskProgress",
                doc: "Spend actions on a Task (§3.1); they accumulate until it completes or is lost.",
                usage: "local t = g:task(bram, \"break free\", 2, 1)",
            },
            Method {
                name: "concentrated",
                params: &[
                    p("shooters", "ModelArg[]", "Two or more Active shooters."),
                    p("target", "ModelArg", "The target all of them can shoot."),
                    po("opts", "ShotOptions", "`aimed`."),
                ],
                returns: "CombatResult",
                doc: "Concentrated Shooting (§3.5): the best shooter rolls, the target at −1 per extra shooter.",
                usage: "g:concentrated({ archer1, archer2 }, orc)",
            },
            Method {
                name: "damage",
                params: &[
                    p("building", "Building|string", "The building."),
                    p("amount", "integer", "Integrity to remove."),
                ],
                returns: "integer",
                doc: "Remove Integrity from a building (Destroyed at 0, its fire removed), for scenarios; the \
                      Integrity left.",
                usage: "g:damage(\"Forge\", 5)",
            },
            Method {
                name: "opportunity",
                params: &[p("at", "Point", "Where the token lies.")],
                returns: "integer",
                doc: "Place a face-down Opportunity token, for scenarios; its token id.",
                usage: "g:opportunity({ 30, 30 })",
            },
            Method {
                name: "council_info",
                params: &[],
                returns: "CouncilInfo",
                doc: "What a hero policy's `council(ctx, info)` is told now (§7.2): Supplies, Herb tokens, \
                      upgrade costs, the Council abilities in force, the Defeated heroes.",
                usage: "local info = g:council_info()",
            },
            Method {
                name: "council",
                params: &[po(
                    "orders",
                    "CouncilOrder[]",
                    "The orders, tried in turn; without them the game's hero policy decides.",
                )],
                returns: "CouncilReport[]",
                doc: "Hold a Council Phase (§7.2–7.3): once-per-Council uses start afresh, each order is \
                      validated, applied and logged (`council` event) or refused with its reason. A \
                      malformed order is an error.",
                usage: "local done = g:council({ { upgrade = \"Forge\" }, { repair = \"Town Hall\", supplies = 2 } })",
            },
            Method {
                name: "ended",
                params: &[],
                returns: "string|nil",
                doc: "Whether play stops now, and why (SUPPLEMENT §10): \"town_hall_destroyed\",                       \"overrun\" (no model of the heroes' side on the table while an enemy remains),                       \"party_defeated\" (the optional rule) or \"no_enemy\" (the wave is won); nil while                       play goes on. The turn engine resolves nothing after the event that ends it.",
                usage: "g:enemy_turn(); if g:ended() == \"overrun\" then print(\"the village is lost\") end",
            },
            Method {
                name: "start_wave",
                params: &[],
                returns: "WavePlan",
                doc: "Start the next wave of the game's length (§5.1–5.3): build it with the default wave \
                      builder, deploy the heroes around the Town Hall and each Group along its edge.",
                usage: "local plan = g:start_wave()",
            },
            Method {
                name: "hero_turn",
                params: &[],
                returns: "HeroTurn[]",
                doc: "Play one hero turn (§6.1): heroes and Village Defenders in id order, dice and actions \
                      from the hero policy script; a turnover ends it.",
                usage: "for _, h in ipairs(g:hero_turn()) do print(h.model.name, h.actions) end",
            },
            Method {
                name: "enemy_turn",
                params: &[],
                returns: "GroupTurn[]",
                doc: "Play one enemy turn (§6.2): Groups in Behaviour play order, one roll each, every action \
                      ordered by the Behaviour scripts; a turnover ends it.",
                usage: "for _, t in ipairs(g:enemy_turn()) do print(t.behaviour, t.actions) end",
            },
            Method {
                name: "act",
                params: &[p("model", "ModelArg", "An enemy with a Behaviour.")],
                returns: "EnemyAction",
                doc: "One action of an enemy as its Behaviour orders it (§6.2): its script's `target` and `act`, \
                      executed by the kernel.",
                usage: "local a = g:act(orc)",
            },
            Method {
                name: "order",
                params: &[
                    p("model", "ModelArg", "The model that acts."),
                    p("order", "BehaviourOrder", "One order, as a Behaviour or the hero policy returns it."),
                ],
                returns: "EnemyAction",
                doc: "Execute one order for a model as the turn engine would (one action): the kernel \
                      validates it and errors with the reason when the rules refuse it (nothing applied).",
                usage: "local a = g:order(bram, { claim = g:opportunity({ 30, 30 }) })",
            },
            Method {
                name: "orders",
                params: &[
                    p("model", "ModelArg", "The model that acts."),
                    p("actions", "integer", "Actions it has (its activation's successes)."),
                    p("orders", "BehaviourOrder[]", "The orders it takes, in turn."),
                ],
                returns: "EnemyAction[]",
                doc: "Spend `actions` on `orders` as the turn engine does: each order costs what the rules and \
                      its scripts' `order_cost` say (a Power Blow two, a Called Shot one); an order needing \
                      more actions than are left, or one the rules refuse, loses an action with the reason; \
                      a Defenseless model not Engaged stands up first.",
                usage: "local done = g:orders(tobin, 2, { { shoot = orc, aimed = true }, { shoot = orc } })",
            },
            Method {
                name: "play_wave",
                params: &[],
                returns: "WaveSummary",
                doc: "Play the next wave of the game's length to its end, as `village play --auto` does: start \
                      it, hero turns by the hero policy and enemy turns by the Behaviours, then the End \
                      Sequence if it was won.",
                usage: "local s = g:play_wave(); print(s.outcome, s.rounds)",
            },
            Method {
                name: "end_wave",
                params: &[],
                returns: "",
                doc: "The End Sequence as far as it exists (§7.1): extinguish, fire damage, Supplies, Rewards \
                      (the wave-end Opportunity results).",
                usage: "g:end_wave()",
            },
            Method {
                name: "target",
                params: &[p("model", "ModelArg", "An enemy with a Behaviour.")],
                returns: "Model|Building|Position|string|nil",
                doc: "The target its Behaviour's script picks for it now (§6.3): a model, a building, a point, \
                      \"edge\", or nil.",
                usage: "local t = g:target(orc)",
            },
            Method {
                name: "heal",
                params: &[
                    p("healer", "ModelArg", "A Healer."),
                    p("target", "ModelArg", "An adjacent friend."),
                    p("what", "string", "\"wound\", or the condition to clear."),
                ],
                returns: "integer",
                doc: "A Healer's action (SUPPLEMENT §9) on an adjacent friend; returns the actions it costs.",
                usage: "local cost = g:heal(ilse, bram, \"wound\")",
            },
            Method {
                name: "add_condition",
                params: &[p("model", "ModelArg", "The model."), p("condition", "Condition", "The condition.")],
                returns: "",
                doc: "Give a model a condition, for scenarios.",
                usage: "g:add_condition(orc, \"defenseless\")",
            },
            Method {
                name: "cast",
                params: &[
                    p("caster", "ModelArg", "A Spell-caster that knows the spell."),
                    p("spell", "string", "The spell's name in rosters/spells.toml (\"Transfix\")."),
                    p(
                        "power",
                        "integer",
                        "Power 1 to 3 (the actions spent; Short/Medium/Long range). For a Ritual, the \
                         actions spent on its Task now.",
                    ),
                    p("target", "ModelArg|nil", "The model targeted, or nil (a Wall, a Summoning)."),
                    po("opts", "CastOptions", "What the spell's script needs: `what` to heal, a wall's `from`/`to`, `at`."),
                ],
                returns: "CastResult",
                doc: "Cast a spell (§3.7): the kernel checks that the caster knows it, is not out of power nor \
                      Engaged, and sees the target within the Power's range; a Ritual's actions go to its Task \
                      first. Then the spell's script (its `script` in rosters/spells.toml) runs \
                      `cast(ctx, caster, power, target, opts)` with the spell primitives on `ctx`. An illegal \
                      cast or a failing script is an error, and the game is left as it was.",
                usage: "local r = g:cast(ilse, \"Transfix\", 2, orc)",
            },
            Method {
                name: "distance",
                params: &[p("a", "ModelArg", "A model."), p("b", "ModelArg", "Another model.")],
                returns: "number",
                doc: "The gap between two bases, edge to edge, in inches (0 in contact).",
                usage: "if g:distance(orc, bram) <= 0.05 then g:melee(orc, bram) end",
            },
        ],
    },
];
