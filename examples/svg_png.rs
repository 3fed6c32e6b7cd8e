//! `cargo run --release --example svg_png -- IN.svg OUT.png [IN2.svg OUT2.png ...]`: the README's
//! pictures (tools/pictures.sh) rendered to PNG with the same in-process renderer the tests use
//! (resvg), so making them needs no program on PATH.

#[path = "../tests/png/mod.rs"]
mod png;

fn main() -> std::process::ExitCode {
    let args: Vec<std::path::PathBuf> = std::env::args_os().skip(1).map(Into::into).collect();
    if args.is_empty() || !args.len().is_multiple_of(2) {
        eprintln!("usage: svg_png IN.svg OUT.png [IN.svg OUT.png ...]");
        return std::process::ExitCode::from(2);
    }
    for pair in args.chunks(2) {
        match png::svg_to_png(&pair[0], &pair[1]) {
            Ok((w, h)) => println!("{} ({w}×{h})", pair[1].display()),
            Err(e) => {
                eprintln!("error: {e}");
                return std::process::ExitCode::FAILURE;
            }
        }
    }
    std::process::ExitCode::SUCCESS
}
