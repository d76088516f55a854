//! SVG pictures of a position (see the module docs of [`crate::view`] for the orientation:
//! row 1 at the top, or at the bottom with [`super::Orientation::Book`]).
//!
//! The picture is a standalone SVG 1.1 document: a wooden board, the grid, star points on
//! 15x15 and 19x19, coordinate labels on all four sides (`<text class="coord">`), one
//! `<circle class="stone black|white" data-point="h8">` per stone, and the marks: a red dot on
//! the last move (`class="last"`), a red cross on each forbidden point (`<g
//! class="forbidden" data-point=..>`), a green ring on the best move (`class="best"`), the
//! numbered line as translucent stones (`class="line black|white"`) with their numbers
//! (`<text class="line-number">`), and move numbers on stones (`class="move-number"`). All
//! lengths are in SVG user units (pixels at 100 %); a point is [`CELL`] units apart from the
//! next.

use super::{column_label, line_color, row_label, Marks};
use crate::board::{Board, BLACK, WHITE};
use crate::core::{Color, Pos};
use std::fmt::Write as _;

/// Distance between two neighbouring points, in SVG user units.
pub const CELL: usize = 32;
/// Margin around the grid (room for the labels), in SVG user units.
const MARGIN: usize = 40;

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The picture's geometry: where a board point is drawn, in SVG user units.
struct Canvas {
    /// Board width and height, in points.
    w: usize,
    h: usize,
    /// Picture width and height (with the caption's room).
    width: usize,
    height: usize,
    orientation: super::Orientation,
}

impl Canvas {
    fn new(board: &Board, marks: &Marks) -> Canvas {
        let (w, h) = (board.width(), board.height());
        let caption_h = if marks.caption.is_some() { 28 } else { 0 };
        Canvas {
            w,
            h,
            width: 2 * MARGIN + (w - 1) * CELL,
            height: 2 * MARGIN + (h - 1) * CELL + caption_h,
            orientation: marks.orientation,
        }
    }

    /// The x of board column `x`.
    fn cx(&self, x: usize) -> usize {
        MARGIN + x * CELL
    }

    /// The y of board row `y` (turned over for [`super::Orientation::Book`]).
    fn cy(&self, y: usize) -> usize {
        MARGIN + self.orientation.picture_row(y, self.h) * CELL
    }

    /// The y of the grid's bottom line.
    fn bottom(&self) -> usize {
        MARGIN + (self.h - 1) * CELL
    }
}

/// Radius of a stone, in SVG user units.
const STONE_R: usize = CELL / 2 - 2;

/// The SVG document of `board` with `marks` (see the module docs).
pub fn to_svg(board: &Board, marks: &Marks) -> String {
    let c = Canvas::new(board, marks);
    let (width, height) = (c.width, c.height);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif">"#
    );
    let _ = writeln!(
        s,
        r##"<rect class="board" x="0" y="0" width="{width}" height="{height}" fill="#dcb35c"/>"##
    );
    grid(&mut s, &c);
    coordinates(&mut s, &c);
    stones(&mut s, &c, board, marks.number_stones);
    forbidden(&mut s, &c, board, marks);
    line(&mut s, &c, board, marks);
    best_and_last(&mut s, &c, board, marks);
    if let Some(text) = &marks.caption {
        let _ = writeln!(
            s,
            r##"<text class="caption" x="{}" y="{}" font-size="14" text-anchor="middle" fill="#000000">{}</text>"##,
            width / 2,
            height - 12,
            xml_escape(text)
        );
    }
    s.push_str("</svg>\n");
    s
}

/// The grid's lines and the star points (15x15 and 19x19).
fn grid(s: &mut String, c: &Canvas) {
    let _ = writeln!(s, r##"<g class="grid" stroke="#3a2a10" stroke-width="1">"##);
    for x in 0..c.w {
        let _ = writeln!(
            s,
            r#"<line x1="{0}" y1="{1}" x2="{0}" y2="{2}"/>"#,
            c.cx(x),
            MARGIN,
            c.bottom()
        );
    }
    for y in 0..c.h {
        let _ = writeln!(
            s,
            r#"<line x1="{1}" y1="{0}" x2="{2}" y2="{0}"/>"#,
            c.cy(y),
            c.cx(0),
            c.cx(c.w - 1)
        );
    }
    s.push_str("</g>\n");
    let stars: &[(usize, usize)] = match (c.w, c.h) {
        (15, 15) => &[(3, 3), (11, 3), (7, 7), (3, 11), (11, 11)],
        (19, 19) => &[
            (3, 3),
            (9, 3),
            (15, 3),
            (3, 9),
            (9, 9),
            (15, 9),
            (3, 15),
            (9, 15),
            (15, 15),
        ],
        _ => &[],
    };
    for &(x, y) in stars {
        let _ = writeln!(
            s,
            r##"<circle class="star" cx="{}" cy="{}" r="3" fill="#3a2a10"/>"##,
            c.cx(x),
            c.cy(y)
        );
    }
}

/// Column letters above and below the grid, row numbers left and right of it.
fn coordinates(s: &mut String, c: &Canvas) {
    let _ = writeln!(
        s,
        r##"<g class="coords" font-size="13" fill="#3a2a10" text-anchor="middle">"##
    );
    for x in 0..c.w {
        for y_text in [MARGIN / 2 + 4, c.bottom() + MARGIN / 2 + 8] {
            let _ = writeln!(
                s,
                r#"<text class="coord" x="{}" y="{}">{}</text>"#,
                c.cx(x),
                y_text,
                column_label(x)
            );
        }
    }
    for y in 0..c.h {
        for x_text in [MARGIN / 2 - 2, c.cx(c.w - 1) + MARGIN / 2 + 2] {
            let _ = writeln!(
                s,
                r#"<text class="coord" x="{}" y="{}">{}</text>"#,
                x_text,
                c.cy(y) + 5,
                row_label(y)
            );
        }
    }
    s.push_str("</g>\n");
}

/// The stones row by row (dead stones, if any, grey), with their move numbers when
/// `numbered`.
fn stones(s: &mut String, c: &Canvas, board: &Board, numbered: bool) {
    let w = c.w;
    let mut number = vec![0usize; w * c.h];
    for (i, &p) in board.moves().iter().enumerate() {
        if board.contains(p) {
            number[p.y() * w + p.x()] = i + 1;
        }
    }
    for y in 0..c.h {
        for x in 0..w {
            let p = Pos::new(x, y);
            let (class, fill) = match board.cell(p) {
                BLACK => ("black", "#111111"),
                WHITE => ("white", "#f8f8f8"),
                crate::board::EMPTY => continue,
                _ => ("dead", "#888888"),
            };
            let _ = writeln!(
                s,
                r##"<circle class="stone {class}" data-point="{}" cx="{}" cy="{}" r="{STONE_R}" fill="{fill}" stroke="#000000" stroke-width="1"/>"##,
                p.to_notation(),
                c.cx(x),
                c.cy(y)
            );
            if numbered && number[y * w + x] > 0 {
                let ink = if class == "black" {
                    "#ffffff"
                } else {
                    "#000000"
                };
                let _ = writeln!(
                    s,
                    r#"<text class="move-number" x="{}" y="{}" font-size="12" text-anchor="middle" fill="{ink}">{}</text>"#,
                    c.cx(x),
                    c.cy(y) + 4,
                    number[y * w + x]
                );
            }
        }
    }
}

/// A red cross on each empty forbidden point of `marks`.
fn forbidden(s: &mut String, c: &Canvas, board: &Board, marks: &Marks) {
    for &(p, kind) in &marks.forbidden {
        if !(board.contains(p) && board.is_empty(p)) {
            continue;
        }
        let (x, y, d) = (c.cx(p.x()), c.cy(p.y()), CELL / 4);
        let _ = writeln!(
            s,
            r##"<g class="forbidden" data-point="{}" data-kind="{}" stroke="#d01010" stroke-width="3"><line x1="{}" y1="{}" x2="{}" y2="{}"/><line x1="{}" y1="{}" x2="{}" y2="{}"/></g>"##,
            p.to_notation(),
            kind.name(),
            x - d,
            y - d,
            x + d,
            y + d,
            x - d,
            y + d,
            x + d,
            y - d
        );
    }
}

/// The line of `marks` as numbered translucent stones (a point already used keeps its first
/// number).
fn line(s: &mut String, c: &Canvas, board: &Board, marks: &Marks) {
    let mut drawn: Vec<Pos> = Vec::new();
    for (i, &p) in marks.line.iter().enumerate() {
        if !(board.contains(p) && board.is_empty(p)) || drawn.contains(&p) {
            continue;
        }
        drawn.push(p);
        let (class, fill, ink) = match line_color(board, i) {
            Color::Black => ("black", "#111111", "#ffffff"),
            Color::White => ("white", "#f8f8f8", "#000000"),
        };
        let _ = writeln!(
            s,
            r##"<circle class="line {class}" data-point="{}" cx="{}" cy="{}" r="{STONE_R}" fill="{fill}" fill-opacity="0.55" stroke="#000000" stroke-opacity="0.55"/>"##,
            p.to_notation(),
            c.cx(p.x()),
            c.cy(p.y())
        );
        let _ = writeln!(
            s,
            r#"<text class="line-number" x="{}" y="{}" font-size="13" font-weight="bold" text-anchor="middle" fill="{ink}">{}</text>"#,
            c.cx(p.x()),
            c.cy(p.y()) + 5,
            i + 1
        );
    }
}

/// A green ring on the best move (the line's first, else `marks.best`), and the last move's
/// red dot, or a ring inside the stone's edge when the stone carries its move number (a dot
/// would hide it).
fn best_and_last(s: &mut String, c: &Canvas, board: &Board, marks: &Marks) {
    let best = marks.line.first().copied().or(marks.best);
    if let Some(b) = best.filter(|&b| board.contains(b)) {
        let _ = writeln!(
            s,
            r##"<circle class="best" data-point="{}" cx="{}" cy="{}" r="{}" fill="none" stroke="#10a010" stroke-width="3"/>"##,
            b.to_notation(),
            c.cx(b.x()),
            c.cy(b.y()),
            STONE_R + 2
        );
    }
    let last = board.last_move();
    if marks.last_move && !last.is_none() && board.contains(last) {
        let (radius, paint) = if marks.number_stones {
            (
                CELL / 2 - 4,
                r##"fill="none" stroke="#e02020" stroke-width="2""##,
            )
        } else {
            (5, r##"fill="#e02020""##)
        };
        let _ = writeln!(
            s,
            r##"<circle class="last" data-point="{}" cx="{}" cy="{}" r="{radius}" {paint}/>"##,
            last.to_notation(),
            c.cx(last.x()),
            c.cy(last.y())
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{parse_point_list, Rule};
    use crate::view::Orientation;

    #[test]
    fn svg_has_stones_labels_and_marks() {
        let mut b = Board::new(15, 15, Rule::Renju).unwrap();
        b.play_all(&parse_point_list("h8,a1,i8,a3,j8,a5,l8,a7,m8,a9", 15, 15).unwrap())
            .unwrap();
        let marks = Marks {
            line: parse_point_list("o15,o14", 15, 15).unwrap(),
            caption: Some("a <caption> & more".into()),
            ..Marks::for_position(&b)
        };
        let s = to_svg(&b, &marks);
        assert!(s.starts_with("<?xml"));
        assert_eq!(s.matches(r#"class="stone black""#).count(), 5);
        assert_eq!(s.matches(r#"class="stone white""#).count(), 5);
        assert!(s.contains(r#"<g class="forbidden" data-point="k8" data-kind="overline""#));
        assert!(s.contains(r#"class="best" data-point="o15""#));
        assert!(s.contains(r#"class="last" data-point="a9""#));
        assert!(s.contains("a &lt;caption&gt; &amp; more"));
        assert_eq!(s.matches(r#"class="coord""#).count(), 60);
    }

    /// Issue 51: with move numbers on the stones the last move is a ring, not a dot over
    /// its number.
    #[test]
    fn the_last_move_mark_leaves_its_number_visible() {
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        b.play_all(&parse_point_list("h8,h9", 15, 15).unwrap())
            .unwrap();
        let marks = Marks {
            number_stones: true,
            ..Marks::for_position(&b)
        };
        let s = to_svg(&b, &marks);
        let last = s.lines().find(|l| l.contains(r#"class="last""#)).unwrap();
        assert!(last.contains(r#"fill="none""#), "{last}");
        assert!(s.contains(r#"<text class="move-number""#));
        let plain = to_svg(&b, &Marks::for_position(&b));
        let dot = plain
            .lines()
            .find(|l| l.contains(r#"class="last""#))
            .unwrap();
        assert!(dot.contains(r##"r="5" fill="#e02020""##), "{dot}");
    }

    /// The attribute `name` of the first element of `svg` matching `pred`.
    fn attr(svg: &str, pred: impl Fn(roxmltree::Node) -> bool, name: &str) -> String {
        let doc = roxmltree::Document::parse(svg).unwrap();
        let node = doc.descendants().find(|n| pred(*n)).unwrap();
        node.attribute(name).unwrap().to_string()
    }

    /// The row labels of the left side, top to bottom.
    fn left_row_labels(svg: &str) -> Vec<String> {
        let doc = roxmltree::Document::parse(svg).unwrap();
        let mut labels: Vec<(usize, String)> = doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("coord"))
            .filter(|n| n.attribute("x") == Some(&(MARGIN / 2 - 2).to_string()))
            .map(|n| {
                let y = n.attribute("y").unwrap().parse().unwrap();
                (y, n.text().unwrap().to_string())
            })
            .collect();
        labels.sort();
        labels.into_iter().map(|(_, t)| t).collect()
    }

    /// Book orientation flips the picture top to bottom: the stone at h9 (`7,8`) moves from
    /// the ninth grid line from the top to the seventh, and the row labels read 15 down to
    /// 1; the columns do not move.
    #[test]
    fn book_orientation_flips_the_rows_and_their_labels() {
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        b.play_all(&parse_point_list("h8,h9", 15, 15).unwrap())
            .unwrap();
        let screen = to_svg(&b, &Marks::for_position(&b));
        let book = to_svg(
            &b,
            &Marks {
                orientation: Orientation::Book,
                ..Marks::for_position(&b)
            },
        );
        let h9 = |n: roxmltree::Node| {
            n.attribute("class") == Some("stone white") && n.attribute("data-point") == Some("h9")
        };
        assert_eq!(attr(&screen, h9, "cy"), (MARGIN + 8 * CELL).to_string());
        assert_eq!(attr(&book, h9, "cy"), (MARGIN + 6 * CELL).to_string());
        assert_eq!(attr(&screen, h9, "cx"), attr(&book, h9, "cx"));
        let last = |n: roxmltree::Node| n.attribute("class") == Some("last");
        assert_eq!(attr(&book, last, "cy"), (MARGIN + 6 * CELL).to_string());
        let rows: Vec<String> = (1..=15).map(|r| r.to_string()).collect();
        assert_eq!(left_row_labels(&screen), rows);
        let reversed: Vec<String> = rows.iter().rev().cloned().collect();
        assert_eq!(left_row_labels(&book), reversed);
        // The grid and the letters stay where they were.
        let grid = |s: &str| s.lines().filter(|l| l.starts_with("<line")).count();
        assert_eq!(grid(&book), grid(&screen));
    }
}
