//! Pictures of positions for people: text diagrams for the terminal ([`diagram`]) and SVG
//! drawings ([`svg::to_svg`]).
//!
//! Both draw column `a` (protocol `x` 0) on the left and, by default, row `1` (protocol `y`
//! 0) at the top, as Piskvork shows a `.psq` record and SGF viewers show an SGF record
//! ([`Orientation::Screen`]); [`Orientation::Book`] draws row `1` at the bottom instead, as
//! renju books print the board (docs/rules.md §1). Only the drawing turns over: columns are
//! labelled with letters and rows with numbers on every side, the labels move with their
//! rows, so a stone's label is its notation (`h8` = `7,7`) either way.
//!
//! What a picture shows besides the stones is a [`Marks`]: the last move, black's forbidden
//! points, a best move and a numbered line (a principal variation or a winning line, drawn as
//! numbered ghost stones in SVG), or the move number on every stone (a finished game).

pub mod svg;

use crate::board::{Board, ForbiddenKind, BLACK, EMPTY, WHITE};
use crate::core::{Color, Pos};

/// Which way up a picture draws the board (docs/rules.md §1). The notation and the protocol
/// points never change with it (`h9` is `7,8` either way); only the drawing is mirrored top
/// to bottom, its row labels with it. On the command line: `--orientation book|screen`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Orientation {
    /// Row 1 at the bottom (black's side) and the last row at the top, as renju books and
    /// the RIF print the board.
    Book,
    /// Row 1 at the top, as Piskvork and SGF viewers draw a record (the default).
    #[default]
    Screen,
}

impl Orientation {
    /// The picture row (0 = the top line of the drawing) of board row `y` (protocol `y`, 0 =
    /// row 1) on a board of `height` rows; the map is its own inverse, so it also gives the
    /// board row of a picture row. `y` must be below `height`.
    pub fn picture_row(self, y: usize, height: usize) -> usize {
        match self {
            Orientation::Screen => y,
            Orientation::Book => height - 1 - y,
        }
    }
}

/// What to draw on a board besides its stones.
#[derive(Clone, Debug, Default)]
pub struct Marks {
    /// Mark the last move played ([`Board::last_move`]).
    pub last_move: bool,
    /// Black's forbidden points to show (renju), with their kinds.
    pub forbidden: Vec<(Pos, ForbiddenKind)>,
    /// A line of future moves from the position, first move first, played alternately from
    /// the side to move; drawn numbered from 1 on empty points (the first is the best move).
    pub line: Vec<Pos>,
    /// A best move to point out when there is no line.
    pub best: Option<Pos>,
    /// Number every stone with its move number (1 = the first stone of the game).
    pub number_stones: bool,
    /// A caption under the picture (SVG) or the diagram (text).
    pub caption: Option<String>,
    /// Which way up to draw the board (row 1 at the top by default).
    pub orientation: Orientation,
}

impl Marks {
    /// The usual marks of a position: the last move and, under renju with black to move,
    /// black's forbidden points.
    pub fn for_position(board: &Board) -> Marks {
        let forbidden = if board.rule().has_forbidden(board.side_to_move()) {
            board.forbidden_points()
        } else {
            Vec::new()
        };
        Marks {
            last_move: true,
            forbidden,
            ..Marks::default()
        }
    }
}

/// The label of column `x` (`a` for 0).
pub fn column_label(x: usize) -> String {
    if x < 26 {
        ((b'a' + x as u8) as char).to_string()
    } else {
        x.to_string()
    }
}

/// The label of row `y` (`1` for 0: the top row, or the bottom one in
/// [`Orientation::Book`]).
pub fn row_label(y: usize) -> String {
    (y + 1).to_string()
}

/// ANSI colour codes of the text diagram.
mod ansi {
    pub const RESET: &str = "\x1b[0m";
    pub const BLACK_STONE: &str = "\x1b[1;31m";
    pub const WHITE_STONE: &str = "\x1b[1;36m";
    pub const LAST: &str = "\x1b[1;33m";
    pub const FORBIDDEN: &str = "\x1b[35m";
    pub const LINE: &str = "\x1b[1;32m";
    pub const DIM: &str = "\x1b[2m";
}

/// Whether diagrams written to stdout should be coloured: stdout is a terminal and the
/// `NO_COLOR` environment variable is unset or empty.
pub fn stdout_wants_color() -> bool {
    use std::io::IsTerminal;
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// Which marks a diagram's symbols show, for its legend.
#[derive(Default)]
struct Shown {
    forbidden: bool,
    line: bool,
    best: bool,
}

/// The diagram's symbol of every point, indexed `[y][x]` by board row (not picture row),
/// and which marks they show.
fn symbols(board: &Board, marks: &Marks) -> (Vec<Vec<char>>, Shown) {
    let (w, h) = (board.width(), board.height());
    let mut symbol = vec![vec!['.'; w]; h];
    let mut shown = Shown::default();
    for (y, row) in symbol.iter_mut().enumerate() {
        for (x, cell) in row.iter_mut().enumerate() {
            *cell = match board.cell(Pos::new(x, y)) {
                BLACK => 'X',
                WHITE => 'O',
                EMPTY => '.',
                _ => '#',
            };
        }
    }
    for &(p, _) in &marks.forbidden {
        if board.contains(p) && board.is_empty(p) {
            symbol[p.y()][p.x()] = '!';
            shown.forbidden = true;
        }
    }
    if marks.line.is_empty() {
        if let Some(b) = marks
            .best
            .filter(|&b| board.contains(b) && board.is_empty(b))
        {
            symbol[b.y()][b.x()] = '*';
            shown.best = true;
        }
    }
    for (i, &p) in marks.line.iter().enumerate().take(9) {
        if board.contains(p) && board.is_empty(p) && symbol[p.y()][p.x()] != '1' {
            symbol[p.y()][p.x()] = char::from(b'1' + i as u8);
            shown.line = true;
        }
    }
    (symbol, shown)
}

/// `text` in the ANSI colour `code` when `color`, else as it is.
fn paint(color: bool, code: &str, text: &str) -> String {
    if color {
        format!("{code}{text}{}", ansi::RESET)
    } else {
        text.to_string()
    }
}

/// One board line of a diagram, newline included: the label of board row `y`, the row's
/// symbols (the `last` move in parentheses), the label again; `label_w` is the labels'
/// width in characters.
fn board_line(row: &[char], y: usize, last: Pos, label_w: usize, color: bool) -> String {
    let w = row.len();
    let mut s = paint(color, ansi::DIM, &format!("{:>label_w$}", row_label(y)));
    s.push(' ');
    for (x, &c) in row.iter().enumerate() {
        let p = Pos::new(x, y);
        let left = if p == last {
            '('
        } else if x > 0 && Pos::new(x - 1, y) == last {
            ')'
        } else {
            ' '
        };
        if left == ' ' {
            s.push(' ');
        } else {
            s.push_str(&paint(color, ansi::LAST, &left.to_string()));
        }
        let code = match c {
            'X' => ansi::BLACK_STONE,
            'O' => ansi::WHITE_STONE,
            '!' => ansi::FORBIDDEN,
            '.' | '#' => ansi::DIM,
            _ => ansi::LINE,
        };
        s.push_str(&paint(color, code, &c.to_string()));
    }
    if last.y() == y && last.x() == w - 1 && !last.is_none() {
        s.push_str(&paint(color, ansi::LAST, ")"));
    } else {
        s.push(' ');
    }
    s.push_str(&paint(color, ansi::DIM, &row_label(y)));
    s.push('\n');
    s
}

/// The legend line of the marks a diagram shows (without its newline), if it shows any;
/// `last` is the marked last move ([`Pos::NONE`] for none).
fn legend(board: &Board, marks: &Marks, last: Pos, shown: &Shown) -> Option<String> {
    let mut legend = Vec::new();
    if !last.is_none() && board.contains(last) {
        legend.push(format!("({}) last move", stone_char(board, last)));
    }
    if shown.forbidden {
        legend.push("! forbidden for black".to_string());
    }
    if shown.line {
        let n = marks.line.len().min(9);
        let first = board.side_to_move();
        legend.push(format!(
            "1{} the line ({} first)",
            if n > 1 {
                format!("-{n}")
            } else {
                String::new()
            },
            first.name()
        ));
    }
    if shown.best {
        legend.push("* best move".to_string());
    }
    (!legend.is_empty()).then(|| format!("X black, O white; {}", legend.join(", ")))
}

/// A text diagram of `board` with `marks`: column letters above and below, row numbers on
/// both sides, row 1 at the top (at the bottom with [`Orientation::Book`] in
/// [`Marks::orientation`]); `X` black, `O` white, `#` a dead stone, `.` empty; the last
/// move in parentheses `(X)`; `!` a point forbidden to black; `1`..`9` the line (later moves
/// of a longer line are not drawn), `*` the best move without a line. With
/// [`Marks::number_stones`] nothing changes (text has no room for numbers); a legend line
/// follows when marks are shown, and the caption after it. With `color`, ANSI colours.
pub fn diagram(board: &Board, marks: &Marks, color: bool) -> String {
    let (w, h) = (board.width(), board.height());
    let last = if marks.last_move {
        board.last_move()
    } else {
        Pos::NONE
    };
    let (symbol, shown) = symbols(board, marks);
    let label_w = h.to_string().len();
    let letters: String = (0..w)
        .map(|x| format!(" {}", column_label(x)))
        .collect::<String>();
    let header = format!(
        "{}  {}\n",
        " ".repeat(label_w),
        paint(color, ansi::DIM, letters.trim_start())
    );
    let mut s = header.clone();
    for r in 0..h {
        let y = marks.orientation.picture_row(r, h);
        s.push_str(&board_line(&symbol[y], y, last, label_w, color));
    }
    s.push_str(&header);
    if let Some(line) = legend(board, marks, last, &shown) {
        s.push_str(&line);
        s.push('\n');
    }
    if let Some(c) = &marks.caption {
        s.push_str(c);
        s.push('\n');
    }
    s
}

fn stone_char(board: &Board, p: Pos) -> char {
    match board.cell(p) {
        BLACK => 'X',
        WHITE => 'O',
        _ => '.',
    }
}

/// The colour of the `i`-th stone (0-based) of a line played from `board`'s side to move.
pub fn line_color(board: &Board, i: usize) -> Color {
    if i.is_multiple_of(2) {
        board.side_to_move()
    } else {
        board.side_to_move().opponent()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{parse_point_list, Rule};

    #[test]
    fn diagram_orientation_and_marks() {
        let mut b = Board::new(7, 6, Rule::Freestyle).unwrap();
        // a1 = 0,0 (top-left), g6 = 6,5 (bottom-right), last move d2.
        b.play_all(&parse_point_list("a1,g6,d2", 7, 6).unwrap())
            .unwrap();
        let marks = Marks {
            last_move: true,
            line: parse_point_list("e3,f4", 7, 6).unwrap(),
            ..Marks::default()
        };
        let d = diagram(&b, &marks, false);
        let lines: Vec<&str> = d.lines().collect();
        assert_eq!(lines[0], "   a b c d e f g");
        assert_eq!(lines[1], "1  X . . . . . . 1");
        assert_eq!(lines[2], "2  . . .(X). . . 2");
        assert_eq!(lines[3], "3  . . . . 1 . . 3");
        assert_eq!(lines[4], "4  . . . . . 2 . 4");
        assert_eq!(lines[6], "6  . . . . . . O 6");
        assert_eq!(lines[7], lines[0]);
        assert_eq!(
            lines[8],
            "X black, O white; (X) last move, 1-2 the line (white first)"
        );
        assert!(!d.contains('\x1b'));
        assert!(diagram(&b, &marks, true).contains("\x1b[1;31mX\x1b[0m"));
        // The last move in the last column closes its parenthesis in the margin.
        b.make(Pos::new(6, 0));
        let d = diagram(&b, &Marks::for_position(&b), false);
        assert_eq!(d.lines().nth(1).unwrap(), "1  X . . . . .(O)1");
    }

    /// Book orientation: row 1 on the last board line, row 15 on the first, h9 (`7,8`) on
    /// the line labelled 9, which is the seventh board line from the top (the ninth from the
    /// top in screen orientation); the columns and the marks stay as they are.
    #[test]
    fn book_orientation_puts_row_1_at_the_bottom() {
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        b.play_all(&parse_point_list("h8,h9,a1", 15, 15).unwrap())
            .unwrap();
        assert_eq!(parse_point_list("h9", 15, 15).unwrap(), [Pos::new(7, 8)]);
        let screen = diagram(&b, &Marks::for_position(&b), false);
        let book_marks = Marks {
            orientation: Orientation::Book,
            ..Marks::for_position(&b)
        };
        let book = diagram(&b, &book_marks, false);
        let screen: Vec<&str> = screen.lines().collect();
        let book: Vec<&str> = book.lines().collect();
        assert_eq!(book[0], "    a b c d e f g h i j k l m n o");
        assert_eq!(book[0], screen[0]);
        assert_eq!(book[1], "15  . . . . . . . . . . . . . . . 15");
        assert_eq!(book[7], " 9  . . . . . . . O . . . . . . . 9");
        assert_eq!(book[8], " 8  . . . . . . . X . . . . . . . 8");
        assert_eq!(book[15], " 1 (X). . . . . . . . . . . . . . 1");
        assert_eq!(book[16], book[0]);
        assert_eq!(screen[1], book[15]);
        assert_eq!(screen[9], book[7]);
        assert_eq!(book[17], screen[17]);
        // Each board line of one is a board line of the other, in reverse order.
        let reversed: Vec<&str> = screen[1..16].iter().rev().copied().collect();
        assert_eq!(book[1..16], reversed[..]);
        assert_eq!(Orientation::default(), Orientation::Screen);
        assert_eq!(Orientation::Book.picture_row(0, 15), 14);
        assert_eq!(Orientation::Screen.picture_row(0, 15), 0);
    }
}
