//! The REPL driven through piped stdin, as another program would: completion candidates, multi-line
//! input, errors that leave the session alive (and the exit status), `:reload` after a file edit, the
//! map, and save → load → continue giving the same game as an uninterrupted one.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::Stdio;

mod support;
use support::command as village;

/// Run the REPL with `args` on `input`; its stdout and whether it exited successfully.
fn session(args: &[&str], input: &str) -> (String, bool) {
    let mut cmd = village();
    cmd.args(args);
    let out = support::piped(cmd, input);
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        out.status.success(),
    )
}

/// A REPL kept running while the test edits files between commands.
struct Live {
    child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    lines: std::io::Lines<BufReader<std::process::ChildStdout>>,
    /// Lines the last marker command printed before its answer (see `ask`).
    pending: Vec<String>,
}

impl Live {
    fn open(args: &[&str]) -> Live {
        let mut child = village()
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take();
        let lines = BufReader::new(child.stdout.take().unwrap()).lines();
        Live {
            child,
            stdin,
            lines,
            pending: Vec::new(),
        }
    }

    /// What `cmd` printed (its echo included): the lines up to the echo of a marker command. What
    /// the marker prints before its answer — a hot-reload notice the watcher delivered late, on a
    /// loaded machine — is kept and shown first in the next answer, so `cmd`'s own output still ends
    /// its answer and no notice is lost.
    fn ask(&mut self, cmd: &str) -> String {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{cmd}").unwrap();
        writeln!(stdin, "return '--'").unwrap();
        let mut got = std::mem::take(&mut self.pending);
        let mut in_marker = false;
        for l in self.lines.by_ref() {
            let l = l.unwrap();
            if l == "> return '--'" {
                in_marker = true;
            } else if in_marker && l == "\"--\"" {
                break;
            } else if in_marker {
                self.pending.push(l);
            } else {
                got.push(l);
            }
        }
        got.join("\n")
    }

    fn close(mut self) {
        drop(self.stdin.take());
        self.child.wait().unwrap();
    }
}

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("village-repl-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn village_alone_opens_the_repl_on_a_standard_game() {
    let (out, ok) = session(
        &[],
        "return game:rules().length or 'standard'\n#game:models()\n",
    );
    assert!(ok, "{out}");
    assert!(out.contains("> #game:models()\n4\n"), "{out}");
}

#[test]
fn completion_lists_the_game_handle_methods_and_globals() {
    let (out, ok) = session(
        &["repl"],
        ":complete game:\n:complete game:pla\n:complete vill\n",
    );
    assert!(ok, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    let all: Vec<&str> = lines[1].split(' ').collect();
    for m in ["models", "play_wave", "melee", "order", "log"] {
        assert!(all.contains(&m), "{m} missing from {all:?}");
    }
    // Methods only after ':' (no fields such as `wave`), sorted.
    assert!(!all.contains(&"wave") && !all.contains(&"round"), "{all:?}");
    let mut sorted = all.clone();
    sorted.sort();
    assert_eq!(all, sorted);
    assert_eq!(lines[3], "place play_wave");
    assert_eq!(lines[5], "village");
}

#[test]
fn a_multi_line_function_is_one_chunk() {
    let (out, ok) = session(
        &["repl"],
        "function twice(n)\n  local m = n * 2\n  return m\nend\ntwice(21)\n",
    );
    assert!(ok, "{out}");
    assert!(
        out.contains(">>   local m = n * 2\n>>   return m\n>> end\n> twice(21)\n42\n"),
        "{out}"
    );
}

#[test]
fn an_error_leaves_the_session_alive_and_fails_the_exit_status() {
    let (out, ok) = session(
        &["repl"],
        "error('boom')\nlocal x = \nreturn 6 * 7\n:nonsense\nreturn 'still here'\n",
    );
    assert!(!ok, "a failed command makes the exit status non-zero");
    assert!(out.contains("error: stdin:1: boom"), "{out}");
    // The unfinished `local x =` took the next line with it (a valid chunk `local x = return ...` is
    // not): the error names the line, and the session goes on.
    assert!(out.contains("unknown command :nonsense"), "{out}");
    assert!(
        out.ends_with("> return 'still here'\n\"still here\"\n"),
        "{out}"
    );
}

#[test]
fn tables_print_in_a_stable_order_and_cycles_do_not_hang() {
    let (out, ok) = session(
        &["repl"],
        "t = { zeta = 1, alpha = 2, 10, 20 }\nt.self = t\nt\n",
    );
    assert!(ok, "{out}");
    assert!(
        out.contains("{\n  10,\n  20,\n  alpha = 2,\n  self = <cycle>,\n  zeta = 1,\n}"),
        "{out}"
    );
}

#[test]
fn reload_picks_up_an_edited_script_and_keeps_the_last_good_one_on_error() {
    let dir = temp("reload");
    // A variant's rule constant, read from a new game: what a designer live-tests.
    let variants = dir.join("scripts/variants");
    std::fs::create_dir_all(&variants).unwrap();
    let file = variants.join("answer.lua");
    let write = |n: i32| {
        std::fs::write(
            &file,
            format!("return {{ rules = {{ melee = {{ power_blow = {n} }} }} }}\n"),
        )
        .unwrap()
    };
    write(-1);
    let mut live = Live::open(&["repl", "--mod", dir.to_str().unwrap()]);
    let mut ask = |cmd: &str| live.ask(cmd);
    let value = "return village.new_game({ variants = { 'answer' } }):rules().melee.power_blow";
    assert!(ask(value).ends_with("\n-1"), "{}", ask(value));
    write(-2);
    let r = ask(":reload");
    assert!(r.contains("reloaded:"), "{r}");
    assert!(ask(value).ends_with("\n-2"));
    std::fs::write(&file, "return { rules = \n").unwrap();
    let r = ask(":reload");
    assert!(
        r.contains("kept the last good version") && r.contains("answer.lua"),
        "{r}"
    );
    assert!(
        ask(value).ends_with("\n-2"),
        "the last good version is kept"
    );
    live.close();
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_map_shows_every_building_and_hero() {
    let (out, ok) = session(&["repl"], ":map\n");
    assert!(ok, "{out}");
    for b in ["Town Hall", "Forge", "Temple", "Watchtower", "Stable"] {
        assert!(out.contains(b), "{b} missing:\n{out}");
    }
    for h in [
        "Captain Maren",
        "Tobin the Marksman",
        "Sister Ilse",
        "Bram the Smith",
    ] {
        assert!(out.contains(h), "{h} missing:\n{out}");
    }
    // The table drawn in a frame: a border line, then rows between bars.
    assert!(
        out.lines()
            .any(|l| l.starts_with("+-") && l.ends_with("-+")),
        "{out}"
    );
    assert!(
        out.lines()
            .filter(|l| l.starts_with('|') && l.ends_with('|'))
            .count()
            >= 10,
        "{out}"
    );
}

#[test]
fn save_load_and_continue_gives_the_uninterrupted_game() {
    let dir = temp("save");
    let (mid, a, b) = (dir.join("mid.json"), dir.join("a.json"), dir.join("b.json"));
    let (out, ok) = session(
        &["repl", "--seed", "4"],
        &format!(
            "return game:play_wave().outcome\n:save {}\nreturn game:play_wave().outcome\n:save {}\n",
            mid.display(),
            a.display()
        ),
    );
    assert!(ok, "{out}");
    // Another session (another seed for its own new game) loads the middle and plays on.
    let (out, ok) = session(
        &["repl", "--seed", "99"],
        &format!(
            ":load {}\nreturn game:play_wave().outcome\n:save {}\n",
            mid.display(),
            b.display()
        ),
    );
    assert!(ok, "{out}");
    let read = |p: &PathBuf| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
    };
    let (va, vb) = (read(&a), read(&b));
    let log = va["game"]["log"].as_array().unwrap();
    assert!(log.len() > read(&mid)["game"]["log"].as_array().unwrap().len());
    assert_eq!(va, vb, "the loaded game continued exactly as the original");
    // A file that is not a saved game is refused and the session goes on.
    std::fs::write(dir.join("junk.json"), "{}").unwrap();
    let (out, ok) = session(
        &["repl"],
        &format!(":load {}\nreturn 1\n", dir.join("junk.json").display()),
    );
    assert!(
        !ok && out.contains("not a saved game") && out.ends_with("1\n"),
        "{out}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_svg_of_a_generated_table_is_xml_with_every_building_and_model() {
    let dir = temp("svg");
    let file = dir.join("table.svg");
    let out = village()
        .args(["render", "--svg", file.to_str().unwrap(), "--seed", "3"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // After a wave, from the REPL, with enemies, tokens and damage on the table.
    let live = dir.join("live.svg");
    let (text, ok) = session(
        &["repl", "--seed", "5"],
        &format!("game:start_wave()\n:render {}\n", live.display()),
    );
    assert!(ok, "{text}");
    for (path, names) in [
        (&file, vec!["Captain Maren", "Bram the Smith"]),
        (&live, vec!["Tobin the Marksman", "Sister Ilse"]),
    ] {
        let svg = std::fs::read_to_string(path).unwrap();
        let doc = roxmltree::Document::parse(&svg).expect("the SVG parses as XML");
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "svg");
        assert_eq!(
            root.tag_name().namespace(),
            Some("http://www.w3.org/2000/svg")
        );
        let titles: Vec<String> = doc
            .descendants()
            .filter(|n| n.has_tag_name("title"))
            .filter_map(|n| n.text().map(str::to_string))
            .collect();
        for b in ["Town Hall", "Forge", "Temple", "Watchtower", "Stable"] {
            assert!(titles.iter().any(|t| t.starts_with(b)), "{b} missing");
        }
        for m in names {
            assert!(titles.iter().any(|t| t.starts_with(m)), "{m} missing");
        }
        let models = doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("model"))
            .count();
        assert!(models >= 4, "{models} models drawn");
    }
    let live_text = std::fs::read_to_string(&live).unwrap();
    let enemies = roxmltree::Document::parse(&live_text)
        .unwrap()
        .descendants()
        .filter(|n| n.attribute("class") == Some("model"))
        .count();
    assert!(enemies > 4, "the wave's enemies are drawn too: {enemies}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn log_and_explain_put_events_in_words() {
    let (out, ok) = session(
        &["repl", "--seed", "1"],
        "game:play_wave()\n:log 3\n:explain\n:explain #2\n:explain banana\n",
    );
    assert!(!ok, "the last :explain is refused");
    // The latest combat: both dice and totals, the result, the modifiers, the roll it came from.
    let explain = out
        .split("> :explain\n")
        .nth(1)
        .and_then(|s| s.split("> :explain #2").next())
        .unwrap();
    let first = explain.lines().next().unwrap();
    assert!(first.contains(" vs ") && first.contains(" = "), "{first}");
    assert!(
        explain.contains("  after:\n") && explain.contains("rolls ["),
        "{explain}"
    );
    assert!(out.contains("Council: "), "{out}");
    assert!(out.contains(":explain takes an event number"), "{out}");
}

/// The failed dice of an activation line, "NAME (N) activates: rolls [6, 2] and 1 automatic success
/// (Hero), 2 actions": dice rolled less the actions they gave (a turnover counts as two, ending the turn).
fn failures_of(line: &str) -> usize {
    let dice = line
        .split('[')
        .nth(1)
        .and_then(|s| s.split(']').next())
        .map_or(0, |s| s.split(',').count());
    let automatic = usize::from(line.contains("1 automatic success"));
    let actions: usize = line
        .rsplit(", ")
        .next()
        .and_then(|s| s.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    if line.contains("turnover") {
        return 2;
    }
    dice - (actions - automatic)
}

#[test]
fn a_whole_wave_is_played_by_piped_commands_and_reads_as_words() {
    let script = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/repl/play_wave.txt"),
    )
    .unwrap();
    let args = [
        "repl",
        "--length",
        "intro",
        "--seed",
        "22",
        "--heroes",
        "Captain Maren,Bram the Smith",
    ];
    let (out, ok) = session(&args, &script);
    assert!(ok, "{out}");
    assert!(out.contains("No enemy is left: the wave is won."), "{out}");
    // The Council the player holds: what it can buy, and a Trap bought.
    assert!(out.contains("Council after wave 1: 1 Supply"), "{out}");
    assert!(out.contains("Council: trap for 1 Supply"), "{out}");
    // Every event is told in words: no raw JSON in the transcript.
    assert!(!out.contains("{\"seq\""), "{out}");
    let combats: Vec<&str> = out.lines().filter(|l| l.contains(" melee ")).collect();
    assert!(!combats.is_empty(), "{out}");
    for c in combats {
        assert!(c.contains(" vs ") && c.contains(" = "), "{c}");
    }
    // A hero activates again in a round, by hand or by the policy's `:heroes`, only when its last roll
    // failed exactly one die without a turnover (§3.1: still Active).
    let mut renominated = 0;
    for round in out.split("> :enemies\n") {
        for hero in [
            "Captain Maren (1) activates: ",
            "Bram the Smith (2) activates: ",
        ] {
            let mut last_failures: Option<usize> = None;
            for line in round.lines().filter(|l| l.contains(hero)) {
                if let Some(f) = last_failures {
                    assert_eq!(f, 1, "{hero} again after {f} failures:\n{round}");
                    renominated += 1;
                }
                last_failures = Some(failures_of(line));
            }
        }
    }
    assert!(
        renominated > 0,
        "a re-nomination happens in this wave:\n{out}"
    );
    // The same commands give the same transcript.
    let (again, _) = session(&args, &script);
    assert_eq!(out, again);
}

#[test]
fn an_impossible_order_is_refused_with_a_reason_and_costs_nothing() {
    let (out, ok) = session(
        &[
            "repl",
            "--length",
            "intro",
            "--seed",
            "7",
            "--heroes",
            "Captain Maren,Bram the Smith",
        ],
        ":attack 3\n:buy trap 1 1\n:wave\n:activate Maren\n:attack 3\n:move Nowhere\n:status\n:enemies\n",
    );
    assert!(!ok);
    // Before any wave a turn order is refused as such (issue 16), not as "no hero is active".
    assert!(
        out.contains("error: no wave has started: use :wave"),
        "{out}"
    );
    assert!(out.contains("error: no Council is open"), "{out}");
    assert!(
        out.contains("is not in contact with Infernal Imp (3)"),
        "{out}"
    );
    assert!(out.contains("no model called \"Nowhere\""), "{out}");
    let status = out.split("> :status\n").nth(1).unwrap();
    assert!(
        status.starts_with("Captain Maren (1) has 2 actions left."),
        "{status}"
    );
    assert!(out.contains("error: a hero is still active"), "{out}");
}

#[test]
fn a_saved_script_applies_at_the_next_command_with_a_notice() {
    let dir = temp("hot");
    let variants = dir.join("scripts/variants");
    std::fs::create_dir_all(&variants).unwrap();
    let file = variants.join("hot.lua");
    let write = |src: &str| std::fs::write(&file, src).unwrap();
    write("return { rules = { melee = { power_blow = -1 } } }\n");
    let mut live = Live::open(&["repl", "--mod", dir.to_str().unwrap()]);
    let mut ask = |cmd: &str| live.ask(cmd);
    let value = "return village.new_game({ variants = { 'hot' } }):rules().melee.power_blow";
    assert!(ask(value).ends_with("\n-1"));
    write("return { rules = { melee = { power_blow = -3 } } }\n");
    // The watcher debounces (about 50 ms); the next command after that sees the new version.
    let mut got = String::new();
    for _ in 0..40 {
        std::thread::sleep(std::time::Duration::from_millis(100));
        got = ask(value);
        if got.ends_with("\n-3") {
            break;
        }
    }
    assert!(got.contains("reloaded") && got.ends_with("\n-3"), "{got}");
    write("return { rules = \n");
    let mut got = String::new();
    for _ in 0..40 {
        std::thread::sleep(std::time::Duration::from_millis(100));
        got = ask(value);
        if got.contains("kept the last good version") {
            break;
        }
    }
    assert!(
        got.contains("kept the last good version") && got.contains("hot.lua"),
        "{got}"
    );
    assert!(
        got.ends_with("\n-3"),
        "the last good version is kept: {got}"
    );
    live.close();
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_spell_is_cast_from_the_repl_and_a_refused_one_costs_nothing() {
    let (out, _) = session(
        &[
            "repl",
            "--length",
            "intro",
            "--seed",
            "2",
            "--heroes",
            "Sister Ilse,Bram the Smith",
        ],
        ":wave\n:cast Ilse\n:activate Ilse 3\n:cast Transfix 1 3\n:status\n:cast Transfix 3 3\n",
    );
    assert!(out.contains("Power 1 reaches"), "{out}");
    let status = out.split("> :status\n").nth(1).unwrap();
    assert!(
        status.starts_with("Sister Ilse (1) has 2 actions left."),
        "{status}"
    );
    assert!(
        out.contains("Power 3 needs 3 actions and 2 are left"),
        "{out}"
    );
    // Declared before the roll (§3.7), by `:cast NAME` before `:activate`.
    assert!(
        out.contains("Sister Ilse (1) declares spellcasting before rolling"),
        "{out}"
    );
}

#[test]
fn a_spell_needs_its_declaration_before_the_roll() {
    let (out, _) = session(
        &[
            "repl",
            "--length",
            "intro",
            "--seed",
            "2",
            "--heroes",
            "Sister Ilse,Bram the Smith",
        ],
        ":wave\n:activate Ilse 3\n:cast Heal 1 Ilse\n",
    );
    assert!(out.contains("did not declare spellcasting"), "{out}");
}

/// An Intro game of seed 11 with Maren, Tobin and Hedda (the whole-turn REPL tests): its first wave
/// has four enemies, so the models the tests place are 8 and on.
const MAREN_TOBIN_HEDDA: [&str; 7] = [
    "repl",
    "--length",
    "intro",
    "--seed",
    "11",
    "--heroes",
    "Captain Maren,Tobin the Marksman,Hedda the Hedge Witch",
];

/// §3.1 and §3.7 by hand: a Leader's group (`:activate Maren group`), a model that failed one die
/// nominated again, breaking free (`:breakfree`, a two-action Task), and a Wall cast between two points
/// after declaring with `:cast NAME`. The dice are forced from Lua, so the transcript is fixed.
#[test]
fn a_group_a_second_nomination_breaking_free_and_a_wall_from_the_repl() {
    let script = "\
:wave
local m = game:models({side = \"heroes\"})[1]; game:place(\"Sir Roland\", {x = m.pos.x + 2, y = m.pos.y}); game:place(\"Bram the Smith\", {x = m.pos.x, y = m.pos.y + 2})
game:force_dice({6, 6, 6})
:activate Maren group 3
:done
:done
:done
game:add_condition(game:model(2), \"entangled\")
game:force_dice({6, 6, 1})
:activate Tobin 3
:move 5
:breakfree
:breakfree
game:force_dice({6})
:activate Tobin 2
:done
:cast Hedda
game:force_dice({6, 6, 6})
:activate Hedda 3
:cast Thorn Wall 1 12.5 25.5 15.5 25.5
:status
:step 14 18
";
    let (out, _) = session(&MAREN_TOBIN_HEDDA, script);
    for said in [
        // One roll for the group; each member then takes the actions.
        "Group of Captain Maren (1), Sir Roland (8), Bram the Smith (9) activates",
        "Sir Roland (8) of the group takes its 3 actions.",
        "Bram the Smith (9) of the group takes its 3 actions.",
        // Entangled: it cannot move, and breaks free with two actions.
        "cannot move: it is Entangled",
        "break free of entangled: 2 of 2 actions",
        "Tobin the Marksman (2) is no longer entangled",
        // It failed one die: nominated again in the same turn.
        "still Active, it may be nominated again",
        // The Wall between the two points given, after the declaration.
        "Hedda the Hedge Witch (3) declares spellcasting",
        "Hedda the Hedge Witch (3) casts Thorn Wall at Power 1",
        // Where it stands: from the first point toward the second, with its Integrity.
        "Thorn Wall rises from (12.5, 25.5) to (",
    ] {
        assert!(out.contains(said), "{said:?} missing:\n{out}");
    }
    let again = out.split("> :activate Tobin 2\n").nth(1).unwrap();
    assert!(
        again.starts_with("#") && again.contains("Tobin the Marksman (2) activates"),
        "{again}"
    );
    let status = out.split("> :status\n").nth(1).unwrap();
    assert!(
        status.starts_with("Hedda the Hedge Witch (3) has 2 actions left."),
        "{status}"
    );
    // A one-base-width step for one action (§3.3).
    let step = out.split("> :step 14 18\n").nth(1).unwrap();
    assert!(
        step.contains("Hedda the Hedge Witch (3) steps 1.0\""),
        "{step}"
    );
    assert!(step.contains("has 1 action left."), "{step}");
}

/// Concentrated Shooting from the REPL (§3.5): `:shoot TARGET with A` fires Tobin and a Village Archer as
/// one attack, the target at −1 for the second shooter; each has shot for the turn.
#[test]
fn concentrated_shooting_from_the_repl() {
    let script = "\
:wave
local t = game:model(2); game:place(\"Village Archer\", {x = t.pos.x - 1.2, y = t.pos.y}); game:place(\"Ogre Brute\", {x = t.pos.x - 2, y = t.pos.y - 5})
game:force_dice({6, 6, 6, 5, 2})
:activate Tobin 3
:shoot Ogre with Archer
return game:model(8).attacks
";
    let (out, _) = session(&MAREN_TOBIN_HEDDA, script);
    assert!(
        out.contains("-1 Concentrated Shooting (2 shooters) (defender)"),
        "{out}"
    );
    let archer = out
        .split("> return game:model(8).attacks\n")
        .nth(1)
        .unwrap();
    assert!(
        archer.starts_with('1'),
        "the Archer has shot for the turn: {archer}"
    );
}

/// Every `:command` the dispatcher accepts (the one table, `repl::commands::COMMANDS`) is run by it and
/// explained by `:help`, aliases included.
#[test]
fn help_lists_every_command_the_repl_accepts() {
    use village::repl::commands::COMMANDS;
    let mut input = String::from(":help\n");
    for c in COMMANDS {
        // Every other command once (:help is the first line already).
        if c.name != "quit" && c.name != "help" {
            input.push_str(&format!(":{}\n", c.name));
        }
    }
    let (out, _) = session(&["repl", "--length", "intro", "--seed", "2"], &input);
    let help = out.split("> :help\n").nth(1).unwrap();
    let help = &help[..help.find("\n> ").unwrap()];
    for c in COMMANDS {
        for name in std::iter::once(&c.name).chain(c.aliases) {
            let typed = format!(":{name}");
            assert!(
                help.split(|ch: char| ch.is_whitespace() || ch == ',')
                    .any(|w| w == typed),
                "{typed} is not in :help:\n{help}"
            );
        }
        // The dispatcher knows it (whatever it answers at this moment).
        assert!(
            !out.contains(&format!("unknown command :{}", c.name)),
            ":{} is in the table but not run\n{out}",
            c.name
        );
    }
    // :endwave's line says what it does: the End Sequence, the Opportunity token, the Council.
    let endwave = &help[help.find(":endwave").unwrap()..help.find("\n  :buy").unwrap()];
    for words in [
        "End Sequence",
        "Opportunity token",
        "Council opens",
        "final wave",
    ] {
        assert!(endwave.contains(words), "{words:?} missing: {endwave}");
    }
}

/// Tab completion of `:commands` and of their arguments, through `:complete`.
#[test]
fn colon_commands_and_their_arguments_complete() {
    let (out, ok) = session(
        &["repl", "--length", "intro", "--seed", "2"],
        ":complete :\n:complete :ma\n:complete :activate Ma\n:complete :activate bra\n:wave\n\
         :complete :attack \n:complete :move For\n:complete :buy \n:complete :buy upgrade T\n\
         :complete :council \n:complete :load Cargo.t\n:complete :help x\n",
    );
    assert!(ok, "{out}");
    let answer = |cmd: &str| {
        out.split(&format!("> {cmd}\n"))
            .nth(1)
            .unwrap_or_else(|| panic!("{cmd} ran:\n{out}"))
            .lines()
            .next()
            .unwrap_or_default()
            .to_string()
    };
    let all = answer(":complete :");
    for c in village::repl::commands::COMMANDS {
        assert!(
            all.split(' ').any(|w| w == format!(":{}", c.name)),
            ":{} does not complete: {all}",
            c.name
        );
    }
    assert_eq!(answer(":complete :ma"), ":map");
    assert_eq!(
        answer(":complete :activate Ma"),
        "\"Captain Maren\" \"Tobin the Marksman\""
    );
    assert_eq!(answer(":complete :activate bra"), "\"Bram the Smith\"");
    // The enemies of the wave just deployed, each name once.
    let enemies = answer(":complete :attack ");
    assert!(
        !enemies.is_empty() && !enemies.contains("Maren"),
        "{enemies}"
    );
    assert_eq!(answer(":complete :move For"), "Forge");
    assert_eq!(
        answer(":complete :buy "),
        "barricade heal herb repair resurrect trap upgrade"
    );
    assert_eq!(answer(":complete :buy upgrade T"), "Temple \"Town Hall\"");
    assert_eq!(answer(":complete :council "), "auto");
    assert_eq!(answer(":complete :load Cargo.t"), "Cargo.toml");
    assert_eq!(answer(":complete :help x"), "");
}

/// A model or building handle shown by the REPL lists its fields; `pairs(handle)` gives them in the
/// handle's own order (`MODEL_FIELDS`), the same on every call; `tostring` stays the name.
#[test]
fn a_handle_shows_its_fields_and_pairs_iterates_them() {
    use village::script::api::handles::{BUILDING_FIELDS, MODEL_FIELDS};
    let keys = "local t = {} for k in pairs(X) do t[#t + 1] = k end return table.concat(t, ' ')";
    let model_keys = keys.replace('X', "game:models()[1]");
    let building_keys = keys.replace('X', "game:building('Town Hall')");
    let input = format!(
        "game:models()[1]\ngame:building('Town Hall')\ntostring(game:models()[1])\n\
         tostring(game:building('Town Hall'))\n{model_keys}\n{model_keys}\n{building_keys}\n\
         local n = 0 for k, v in pairs(game:models()[1]) do if game:models()[1][k] ~= v and type(v) ~= 'table' then n = n + 1 end end return n\n"
    );
    let (out, ok) = session(&["repl", "--length", "intro", "--seed", "2"], &input);
    assert!(ok, "{out}");
    let answer = |cmd: &str| {
        let rest = out.split(&format!("> {cmd}\n")).nth(1).unwrap();
        rest[..rest.find("\n> ").unwrap_or(rest.len())]
            .trim_end()
            .to_string()
    };
    let model = answer("game:models()[1]");
    assert!(model.starts_with("Captain Maren (1) {\n"), "{model}");
    for line in [
        "  name = \"Captain Maren\",",
        "  kind = \"hero\",",
        "  wounds = 0,",
        "  conditions = {},",
        "  pos = {",
    ] {
        assert!(model.contains(line), "{line:?} missing:\n{model}");
    }
    let building = answer("game:building('Town Hall')");
    assert!(building.starts_with("Town Hall {\n"), "{building}");
    assert!(building.contains("  integrity = "), "{building}");
    assert_eq!(
        answer("tostring(game:models()[1])"),
        "\"Captain Maren (1)\""
    );
    assert_eq!(
        answer("tostring(game:building('Town Hall'))"),
        "\"Town Hall\""
    );
    // The order is the field list's, its nil fields (no ranged weapon) left out, and stable.
    let listed = answer(&model_keys);
    let listed: Vec<&str> = listed.trim_matches('"').split(' ').collect();
    let expected: Vec<&str> = MODEL_FIELDS
        .iter()
        .copied()
        .filter(|f| listed.contains(f))
        .collect();
    assert_eq!(listed, expected);
    // The fields left out are the nil ones.
    let missing: Vec<&str> = MODEL_FIELDS
        .iter()
        .copied()
        .filter(|f| !listed.contains(f))
        .collect();
    let (nils, ok) = session(
        &["repl", "--length", "intro", "--seed", "2"],
        &missing
            .iter()
            .map(|f| format!("game:models()[1].{f} == nil\n"))
            .collect::<String>(),
    );
    assert!(
        ok && nils.matches("\ntrue\n").count() == missing.len() && missing.len() < 8,
        "{nils}"
    );
    assert_eq!(
        out.matches(&format!("> {model_keys}\n\"{}\"", listed.join(" ")))
            .count(),
        2,
        "the same order twice"
    );
    let building_listed = answer(&building_keys);
    assert_eq!(
        building_listed.trim_matches('"'),
        BUILDING_FIELDS.join(" "),
        "every building field, in order"
    );
    // Each value pairs gives is the field's value.
    assert!(out.ends_with("return n\n0\n"), "{out}");
}

/// `:explain` lists under "which led to" what the event caused, by the log's `cause` links: a melee that
/// makes its loser Recoil shows the Recoil, and an Opportunity claimed right after (its own roll) is
/// not listed; the Recoil names the melee as its cause.
#[test]
fn explain_shows_what_a_melee_caused_and_nothing_that_merely_followed() {
    let script = "\
:wave
local m = game:model(1); game:place(\"Orc Warrior\", {x = m.pos.x + 1, y = m.pos.y}); game:opportunity({x = m.pos.x - 0.5, y = m.pos.y})
game:force_dice({6, 5, 4})
:activate Maren
:attack Orc
:claim
:explain
";
    let (out, ok) = session(&["repl", "--length", "intro", "--seed", "1"], script);
    assert!(ok, "{out}");
    let attack = out.split("> :attack Orc\n").nth(1).unwrap();
    let melee = attack
        .lines()
        .find(|l| l.contains(" melee Orc Warrior"))
        .expect("the melee");
    assert!(melee.ends_with(": recoil"), "{melee}");
    let recoil = attack
        .lines()
        .find(|l| l.ends_with(" Recoils"))
        .expect("the Recoil");
    let claim = out.split("> :claim\n").nth(1).unwrap();
    let opportunity = claim
        .lines()
        .find(|l| l.contains("for opportunity"))
        .expect("the Opportunity roll");
    let explained = out.split("> :explain\n").nth(1).unwrap();
    assert!(explained.starts_with(melee), "{explained}");
    let led_to = explained
        .split("  which led to:\n")
        .nth(1)
        .unwrap_or_else(|| panic!("nothing under 'which led to':\n{explained}"));
    assert!(led_to.contains(recoil), "{explained}");
    assert!(led_to.contains(" recoils 1.0\""), "{explained}");
    assert!(!led_to.contains(opportunity), "{explained}");
    assert!(!led_to.contains("claims"), "{explained}");
    // From the other end: the Recoil was caused by the melee.
    let number = |line: &str| line.split(' ').next().unwrap().to_string();
    let (again, _) = session(
        &["repl", "--length", "intro", "--seed", "1"],
        &format!("{script}:explain {}\n", number(recoil)),
    );
    let why = again.rsplit("> :explain ").next().unwrap();
    assert!(why.contains(&format!("  caused by:\n    {melee}")), "{why}");
}

/// The lines a command printed after its echo (`Live::ask` gives the echo first).
fn answer(text: &str) -> Vec<&str> {
    text.lines().skip(1).collect()
}

/// An order that cannot do what it asks costs nothing (issue 35): a move toward what the hero already
/// touches, to where it stands, toward itself or into a building, and a step into a building or a
/// friend's base, are refused with the reason — the actions, the position and the log as they were —
/// while a move that can go still goes and spends its action.
#[test]
fn a_move_or_step_that_would_go_nowhere_is_refused_and_costs_nothing() {
    let mut live = Live::open(&[
        "repl",
        "--length",
        "intro",
        "--seed",
        "2",
        "--heroes",
        "Captain Maren,Bram the Smith",
    ]);
    live.ask(":wave");
    live.ask("game:force_dice({6, 6, 6})");
    live.ask(":activate Maren 3");
    let first = live.ask(":move Town Hall");
    assert!(
        first.contains("Captain Maren (1) moves ")
            && first.contains("stopped by the Town Hall")
            && first.ends_with("Captain Maren (1) has 2 actions left."),
        "{first}"
    );
    // A friend's base touching her on the side away from the Town Hall.
    let placed = live.ask(
        "local m = game:model(1) \
         return game:place('Sir Roland', { x = m.pos.x + m.base, y = m.pos.y }).id",
    );
    let roland = answer(&placed)[0].to_string();
    let numbers = |text: &str| -> Vec<f64> {
        answer(text)
            .iter()
            .map(|n| n.parse().unwrap_or_else(|_| panic!("{text}")))
            .collect()
    };
    let state = "return #game:log(), game:model(1).pos.x, game:model(1).pos.y";
    let before = numbers(&live.ask(state));
    let (x, y) = (before[1], before[2]);
    let hall = numbers(&live.ask("local b = game:building('Town Hall') return b.pos.x, b.pos.y"));
    let maren = "Captain Maren (1)";
    for (order, refusal) in [
        (
            ":move Town Hall".to_string(),
            format!("{maren} would move 0\" toward the Town Hall: it is already in base contact"),
        ),
        (
            format!(":move {x} {y}"),
            format!("{maren} would move 0\" toward ({x:.1}, {y:.1}): it is already there"),
        ),
        (
            ":move Maren".to_string(),
            format!("{maren} would move 0\" toward {maren}: a model cannot move toward itself"),
        ),
        // Inside the Town Hall: no route reaches it, and the straight line is blocked at once.
        (
            format!(":move {} {}", hall[0], hall[1]),
            format!(
                "{maren} would move 0\" toward ({:.1}, {:.1}): the Town Hall is in the way",
                hall[0], hall[1]
            ),
        ),
        (
            ":step Town Hall".to_string(),
            format!("{maren} would step 0\" toward the Town Hall: the Town Hall is in the way"),
        ),
        (
            format!(":step {} {y}", x + 5.0),
            format!(
                "{maren} would step 0\" toward ({:.1}, {y:.1}): Sir Roland ({roland})'s base is in \
                 the way",
                x + 5.0
            ),
        ),
    ] {
        let got = live.ask(&order);
        assert_eq!(
            answer(&got),
            [format!("error: {refusal}")],
            "{order}: {got}"
        );
    }
    let status = live.ask(":status");
    assert_eq!(answer(&status), [format!("{maren} has 2 actions left.")]);
    assert_eq!(
        numbers(&live.ask(state)),
        before,
        "no event, and she stands where she stood"
    );
    // An order that can move her still does, for its action.
    let moved = live.ask(":move Forge");
    assert!(
        moved.contains(&format!("{maren} moves ")) && moved.ends_with("has 1 action left."),
        "{moved}"
    );
    live.close();
}

/// `:new` starts a new game in the same session (issue 35): the options are `village repl`'s, read by
/// the same definitions, so `:new OPTIONS` plays exactly as a session opened with OPTIONS; globals stay,
/// play by hand starts over; a bad option or party is refused and the game kept, and the game played
/// on is the one a session without the refused `:new`s plays.
#[test]
fn new_starts_a_game_as_the_options_say_and_a_refused_one_keeps_the_game() {
    let options = [
        "--seed",
        "5",
        "--length",
        "intro",
        "--heroes",
        "maren, Bram the Smith",
    ];
    let play = ":wave\n:activate Bram\n:heroes\n:enemies\n:log 4\n";
    let mut fresh_args = vec!["repl"];
    fresh_args.extend(options);
    let (fresh, ok) = session(&fresh_args, play);
    assert!(ok, "{fresh}");
    let input = format!(
        "x = 42\n:wave\n:activate Maren\n\
         :new --seed 5 --length intro --heroes \"maren, Bram the Smith\"\n\
         return x\n:status\n{play}"
    );
    let (out, ok) = session(&["repl", "--seed", "2"], &input);
    assert!(ok, "{out}");
    let (_, after) = out
        .split_once("> :new --seed 5 --length intro --heroes \"maren, Bram the Smith\"\n")
        .unwrap();
    let after = after
        .strip_prefix(
            "`game` is a new intro game (seed 5): Captain Maren, Bram the Smith. :wave starts its \
             first wave.\n",
        )
        .unwrap_or_else(|| panic!("{out}"));
    // Globals stay; nobody is active any more; then the same game as a session opened so.
    let after = after
        .strip_prefix("> return x\n42\n> :status\nNo hero is active.\n")
        .unwrap_or_else(|| panic!("{after}"));
    assert_eq!(after, fresh);

    // No options: `village repl`'s defaults, not the current game's.
    let (out, ok) = session(&["repl", "--seed", "2", "--length", "intro"], ":new\n");
    assert!(ok, "{out}");
    assert!(
        out.contains(
            "`game` is a new standard game (seed 1): Captain Maren, Tobin the Marksman, Sister \
             Ilse, Bram the Smith."
        ),
        "{out}"
    );
    let (default, _) = session(&[], ":map\n");
    let (renewed, _) = session(
        &["repl", "--seed", "2", "--length", "intro"],
        ":new\n:map\n",
    );
    assert!(renewed.ends_with(&default), "{renewed}\n---\n{default}");

    // Refused: the reason, and the game played on as if nothing had been typed.
    let refused = [
        (
            ":new --seed nope",
            "invalid value 'nope' for '--seed <SEED>'",
        ),
        (":new --heroes maren", "a party has 2 to 4 heroes, not 1"),
        (
            ":new --heroes maren,tobin,ilse,bram,hedda",
            "a party has 2 to 4 heroes, not 5",
        ),
        (":new --length bogus", "unknown length \"bogus\""),
        (":new --variant nope", "unknown variant \"nope\""),
        (":new --frob", "unexpected argument '--frob'"),
        (":new --heroes \"maren", "a \" is not closed"),
    ];
    let base = format!("x = 1\n{}", play);
    let mut with_refusals = String::from("x = 1\n:wave\n:activate Bram\n");
    for (cmd, _) in refused {
        with_refusals.push_str(cmd);
        with_refusals.push('\n');
    }
    with_refusals.push_str(":heroes\n:enemies\n:log 4\n");
    let (plain, ok) = session(&fresh_args, &base);
    assert!(ok, "{plain}");
    let (out, ok) = session(&fresh_args, &with_refusals);
    assert!(!ok, "a refused :new fails the exit status");
    let mut kept = out.clone();
    for (cmd, want) in refused {
        let (_, rest) = out
            .split_once(&format!("> {cmd}\n"))
            .unwrap_or_else(|| panic!("{cmd}: {out}"));
        let line = rest.lines().next().unwrap();
        assert!(
            line.starts_with("error: :new: ") && line.contains(want),
            "{cmd}: {line}"
        );
        kept = kept.replace(&format!("> {cmd}\n{line}\n"), "");
    }
    assert_eq!(kept, plain);
}

/// `:new` and its options complete; `--length`, `--variant` and `--policy` complete to what there is.
#[test]
fn new_and_its_options_complete() {
    let (out, ok) = session(
        &["repl", "--length", "intro", "--seed", "2"],
        ":complete :ne\n:complete :new \n:complete :new --l\n:complete :new --length \n\
         :complete :new --seed 3 --variant sin\n:complete :new --policy \n",
    );
    assert!(ok, "{out}");
    let answer = |cmd: &str| {
        out.split(&format!("> {cmd}\n"))
            .nth(1)
            .unwrap_or_else(|| panic!("{cmd} ran:\n{out}"))
            .lines()
            .next()
            .unwrap_or_default()
            .to_string()
    };
    assert_eq!(answer(":complete :ne"), ":new");
    assert_eq!(
        answer(":complete :new "),
        "--heroes --length --policy --preset --scenario --seed --variant"
    );
    assert_eq!(answer(":complete :new --l"), "--length");
    assert_eq!(
        answer(":complete :new --length "),
        "endless intro siege standard"
    );
    assert_eq!(
        answer(":complete :new --seed 3 --variant sin"),
        "single_horde"
    );
    assert_eq!(
        answer(":complete :new --policy "),
        "default planner random rush"
    );
}

/// `village new-scenario DIR NAME`, edited by hand, plays in the REPL; editing its victory script
/// while the session is open changes the next game's ending, with no `:reload`.
#[test]
fn a_new_scenario_edited_by_hand_plays_and_its_victory_script_hot_reloads() {
    let dir = temp("new-scenario");
    let m = dir.join("mod");
    let out = village()
        .args(["new-scenario", m.to_str().unwrap(), "well"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Edited by hand: a shorter battle, described anew.
    let toml = m.join("scenarios/well.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    let edited = text
        .replace("rounds = 8", "rounds = 5")
        .replace("hold it for eight rounds", "hold it for five rounds");
    assert_ne!(text, edited, "the scaffold has the keys edited");
    std::fs::write(&toml, edited).unwrap();
    let mut live = Live::open(&["repl", "--mod", m.to_str().unwrap(), "--scenario", "well"]);
    let shown = live.ask(":scenario");
    assert!(
        shown.contains("well") && shown.contains("hold it for five rounds"),
        "{shown}"
    );
    let played = live.ask("local s = game:play_wave() return s.outcome .. ' ' .. s.rounds");
    let last = played
        .lines()
        .last()
        .unwrap_or_default()
        .trim_matches('"')
        .to_string();
    let (outcome, rounds) = last.split_once(' ').unwrap_or_default();
    assert!(["win", "loss", "draw"].contains(&outcome), "{played}");
    assert!(rounds.parse::<u32>().unwrap() <= 5, "{played}");
    // The victory script edited: a draw at the first check.
    std::fs::write(
        m.join("scripts/victory/well.lua"),
        "return {\n\ton_victory_check = function(ctx, check)\n\t\treturn \"draw\", \"edited by hand\"\n\tend,\n}\n",
    )
    .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(15);
    let mut seen = String::new();
    while std::time::Instant::now() < deadline {
        live.ask(":new --scenario well");
        seen = live.ask("return game:play_wave().cause");
        if seen.contains("victory_script") {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(300));
    }
    assert!(
        seen.contains("victory_script"),
        "the edit took effect: {seen}"
    );
    live.close();
    std::fs::remove_dir_all(&dir).ok();
}
