//! The REPL's `:map` on a crowded Siege table, read back as a person would: every symbol of the key
//! means one thing, every symbol drawn is in the key, and every model of the game is on the map — by
//! its own symbol, or in a shared cell the key lists.

use std::collections::{BTreeMap, BTreeSet};

mod support;

/// The REPL's stdout for `input`, with the terminal size a piped session reads from the environment.
fn session(args: &[&str], input: &str, cols: usize, rows: usize) -> String {
    let mut cmd = support::command();
    cmd.args(args)
        .env("COLUMNS", cols.to_string())
        .env("LINES", rows.to_string());
    String::from_utf8_lossy(&support::piped(cmd, input).stdout).into_owned()
}

/// A map as printed: its grid rows, its key (symbol → every meaning given to it), the symbol each model
/// id was given, and the shared cells (row, column from 1) with the model ids listed in each.
struct Map {
    grid: Vec<Vec<char>>,
    key: BTreeMap<char, Vec<String>>,
    model_symbol: BTreeMap<u32, char>,
    shared: Vec<((usize, usize), Vec<u32>)>,
}

/// The id in a "Name (id)" text: the number in the first parentheses holding only digits.
fn ids_in(text: &str) -> Vec<u32> {
    text.split('(')
        .skip(1)
        .filter_map(|p| p.split(')').next()?.parse().ok())
        .collect()
}

fn parse(out: &str) -> Map {
    let map_part = out.split("> :map\n").nth(1).expect("the map was printed");
    let lines: Vec<&str> = map_part.lines().collect();
    let top = lines
        .iter()
        .position(|l| l.starts_with("+-"))
        .expect("a top border");
    let bottom = top
        + 1
        + lines[top + 1..]
            .iter()
            .position(|l| l.starts_with("+-"))
            .expect("a bottom border");
    let grid: Vec<Vec<char>> = lines[top + 1..bottom]
        .iter()
        .map(|l| {
            let cs: Vec<char> = l.chars().collect();
            assert!(cs.first() == Some(&'|') && cs.last() == Some(&'|'), "{l}");
            cs[1..cs.len() - 1].to_vec()
        })
        .collect();
    assert_eq!(lines[bottom + 1], "Key:", "{map_part}");
    let mut key: BTreeMap<char, Vec<String>> = BTreeMap::new();
    let mut model_symbol = BTreeMap::new();
    let mut shared = Vec::new();
    let mut section = "legend";
    for l in &lines[bottom + 2..] {
        if l.starts_with('>') {
            break; // the next command's echo
        }
        let cs: Vec<char> = l.chars().collect();
        if !l.starts_with(' ') {
            section = l;
            continue;
        }
        if let Some(rest) = l.strip_prefix("  row ") {
            let (cell, who) = rest.split_once(": ").expect("row R, column C: models");
            let (r, c) = cell.split_once(", column ").expect("row R, column C");
            shared.push(((r.parse().unwrap(), c.parse().unwrap()), ids_in(who)));
            continue;
        }
        // "  S  meaning": one symbol, two spaces, its meaning.
        assert!(
            cs.len() > 5 && cs[0] == ' ' && cs[1] == ' ' && cs[3] == ' ' && cs[4] == ' ',
            "a key line is '  S  meaning': {l:?}"
        );
        let meaning: String = cs[5..].iter().collect();
        if section.starts_with("Heroes") || section.starts_with("Enemies") {
            let id = ids_in(&meaning)[0];
            model_symbol.insert(id, cs[2]);
        }
        key.entry(cs[2]).or_default().push(meaning);
    }
    Map {
        grid,
        key,
        model_symbol,
        shared,
    }
}

/// Every model id of the live game, printed by Lua from `game:models()`.
fn model_ids(out: &str) -> BTreeSet<u32> {
    out.lines()
        .filter_map(|l| l.strip_prefix("model\t"))
        .map(|id| id.parse().expect("an id"))
        .collect()
}

#[test]
fn a_crowded_siege_map_gives_every_symbol_one_meaning_and_shows_every_model() {
    // A wave played out, the next one deployed and the heroes' turn played: a full Siege table.
    let input = "game:play_wave().outcome\n:wave\n:heroes\n\
                 for _, m in ipairs(game:models()) do print('model', m.id) end\n:map\n";
    let mut shared_cells = 0;
    // A terminal-sized map, and a small one where many models share cells.
    for (cols, rows) in [(100, 60), (22, 12)] {
        let out = session(
            &["repl", "--length", "siege", "--seed", "5"],
            input,
            cols,
            rows,
        );
        let map = parse(&out);
        let ids = model_ids(&out);
        assert!(ids.len() >= 8, "a crowded table: {ids:?}\n{out}");
        // (a) Each symbol of the key means one thing.
        for (sym, meanings) in &map.key {
            assert_eq!(meanings.len(), 1, "{sym:?} means {meanings:?}\n{out}");
        }
        // (b) Every model is on the map: its own symbol drawn, or in a shared cell the key lists
        // (and that cell shows the stack mark).
        for id in &ids {
            let listed = map.shared.iter().find(|(_, who)| who.contains(id));
            match listed {
                Some(((r, c), _)) => {
                    assert_eq!(
                        map.grid[r - 1][c - 1],
                        '&',
                        "model {id}'s shared cell\n{out}"
                    );
                }
                None => {
                    let sym = map.model_symbol.get(id).unwrap_or_else(|| {
                        panic!("model {id} is not in the key\n{out}");
                    });
                    assert!(
                        map.grid.iter().flatten().any(|c| c == sym),
                        "model {id} ({sym}) is not on the map\n{out}"
                    );
                }
            }
        }
        for ((r, c), who) in &map.shared {
            assert!(who.len() >= 2, "a shared cell holds two or more: {who:?}");
            assert_eq!(map.grid[r - 1][c - 1], '&');
        }
        shared_cells += map.shared.len();
        // (c) Every symbol on the grid is in the key.
        for ch in map.grid.iter().flatten() {
            assert!(
                map.key.contains_key(ch),
                "{ch:?} is drawn but not in the key\n{out}"
            );
        }
    }
    assert!(shared_cells > 0, "the small map has models sharing a cell");
}
