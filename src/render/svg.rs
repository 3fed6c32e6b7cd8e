//! The small SVG vocabulary the pictures share: a document with a white page, text with an estimate of
//! its width (so labels can be fitted without a font library), and XML escaping.

use std::fmt::Write as _;

/// The font every picture names: the viewer's sans-serif (DejaVu Sans on Debian, which is wide; the
/// width estimate below is made for it).
const FONT: &str = "DejaVu Sans, Verdana, Arial, sans-serif";

/// An estimate of the width in pixels of `s` set at `size` pixels in the pictures' sans-serif font,
/// bold or not: a generous per-character advance (wide capitals and `m`/`w`, narrow `i`/`l`/
/// punctuation), so a label the estimate fits does fit in the fonts a browser or resvg (the tests' renderer) picks.
pub fn text_width(s: &str, size: f64, bold: bool) -> f64 {
    let weight = if bold { 1.16 } else { 1.0 };
    weight
        * s.chars()
            .map(|c| match c {
                'i' | 'j' | 'l' | '.' | ',' | ':' | ';' | '\'' | '|' | '!' => 0.32,
                ' ' | 'f' | 't' | 'r' | 'I' | '(' | ')' | '[' | ']' | '-' | '/' => 0.42,
                'm' | 'w' | 'M' | 'W' | '%' | '—' | '–' => 0.92,
                'A'..='Z' | '&' | '@' | '#' => 0.74,
                '0'..='9' => 0.64,
                _ => 0.62,
            })
            .sum::<f64>()
        * size
}

/// An SVG document being written: `width` × `height` pixels, a white page, a `<title>`.
pub(super) struct Doc {
    pub out: String,
}

impl Doc {
    pub fn new(width: f64, height: f64, title: &str) -> Doc {
        let mut out = String::new();
        let _ = writeln!(
            out,
            r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0} {height:.0}" width="{width:.0}" height="{height:.0}" font-family="{FONT}">
<title>{}</title>
<rect x="0" y="0" width="{width:.0}" height="{height:.0}" fill="#ffffff"/>"##,
            escape(title)
        );
        Doc { out }
    }

    /// One line of text at (x, y) (its baseline), `size` pixels; `attrs` are further attributes
    /// (`text-anchor="middle" font-weight="bold" class="..."`).
    pub fn text(&mut self, x: f64, y: f64, size: f64, attrs: &str, content: &str) {
        let _ = writeln!(
            self.out,
            r#"<text x="{x:.1}" y="{y:.1}" font-size="{size:.1}" {attrs}>{}</text>"#,
            escape(content)
        );
    }

    /// Anything else, as written.
    pub fn raw(&mut self, s: &str) {
        self.out.push_str(s);
        if !s.ends_with('\n') {
            self.out.push('\n');
        }
    }

    pub fn finish(mut self) -> String {
        self.out.push_str("</svg>\n");
        self.out
    }
}

/// Text safe inside an XML element or attribute.
pub(super) fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
