//! `cargo run --release --example lua_fmt -- [--check] PATH...`: format the project's Lua (or a mod's)
//! with StyLua's library and the checkout's `stylua.toml` — what the tests check (tests/setup.rs) —
//! so formatting needs no `stylua` binary. Folders are walked for `.lua` files; `--check` only lists
//! the files that would change and exits 1 if any would.

#[path = "../tests/lua_style/mod.rs"]
mod lua_style;

fn main() -> std::process::ExitCode {
    let mut check = false;
    let mut files = Vec::new();
    for a in std::env::args_os().skip(1) {
        if a == "--check" {
            check = true;
            continue;
        }
        let p = std::path::PathBuf::from(a);
        if p.is_dir() {
            files.extend(lua_style::lua_files(&p));
        } else {
            files.push(p);
        }
    }
    if files.is_empty() {
        eprintln!("usage: lua_fmt [--check] PATH...");
        return std::process::ExitCode::from(2);
    }
    let mut changed = 0;
    for f in &files {
        let source = match std::fs::read_to_string(f) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("error: {}: {e}", f.display());
                return std::process::ExitCode::FAILURE;
            }
        };
        let formatted = match lua_style::format(&source) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("error: {}: {e}", f.display());
                return std::process::ExitCode::FAILURE;
            }
        };
        if formatted != source {
            changed += 1;
            println!("{}", f.display());
            if !check {
                if let Err(e) = std::fs::write(f, formatted) {
                    eprintln!("error: {}: {e}", f.display());
                    return std::process::ExitCode::FAILURE;
                }
            }
        }
    }
    if check && changed > 0 {
        std::process::ExitCode::FAILURE
    } else {
        std::process::ExitCode::SUCCESS
    }
}
