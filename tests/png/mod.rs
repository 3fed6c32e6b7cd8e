//! SVG to PNG in-process, with resvg (a Rust renderer): the tests look at every picture as a person
//! would, and `examples/svg_png.rs` makes the README's PNGs the same way, so neither needs a program
//! on PATH. Text is laid out with the system's fonts; the pictures are measured for DejaVu Sans
//! (Debian: fonts-dejavu-core, named in the README's Set up), so its absence is an error, not a
//! picture drawn without its words.
#![allow(dead_code)] // each user takes the part it needs

use resvg::{tiny_skia, usvg};
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// The font family the pictures' text widths are estimated for (`village::render::text_width`).
pub const FONT: &str = "DejaVu Sans";

/// The system's fonts, loaded once per process; an error when DejaVu Sans is not among them.
fn fonts() -> Result<Arc<usvg::fontdb::Database>, String> {
    static DB: OnceLock<Result<Arc<usvg::fontdb::Database>, String>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        db.load_system_fonts();
        let has = db
            .faces()
            .any(|f| f.families.iter().any(|(name, _)| name == FONT));
        if has {
            Ok(Arc::new(db))
        } else {
            Err(format!(
                "the font {FONT} is not installed ({} other faces found): the pictures are measured \
                 for it (Debian: apt-get install fonts-dejavu-core, as the README's Set up says)",
                db.len()
            ))
        }
    })
    .clone()
}

/// Renders the SVG file `svg` to the PNG file `png` at its own size; the size in pixels.
pub fn svg_to_png(svg: &Path, png: &Path) -> Result<(u32, u32), String> {
    let data = std::fs::read(svg).map_err(|e| format!("{}: {e}", svg.display()))?;
    let mut opt = usvg::Options {
        fontdb: fonts()?,
        ..usvg::Options::default()
    };
    opt.font_family = FONT.to_string();
    let tree = usvg::Tree::from_data(&data, &opt).map_err(|e| format!("{}: {e}", svg.display()))?;
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| format!("{}: an empty picture ({size:?})", svg.display()))?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap
        .save_png(png)
        .map_err(|e| format!("{}: {e}", png.display()))?;
    Ok((size.width(), size.height()))
}
