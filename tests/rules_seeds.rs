//! Textbook diagrams of renju forbidden points (double three, double four, overline: the
//! three kinds of docs/rules.md §3.2), each placed in the middle of an empty 15x15 board,
//! plus the rules' precise points.
use tianyuan::board::{Board, ForbiddenKind};
use tianyuan::core::{Color, Pos, Rule};

/// Builds a board from a diagram: `●` black, `○` white, `X` the queried point, anything
/// else empty. Row 0 of the diagram is drawn at y = 10, column 0 at x = 5.
fn diagram(rows: &[&str]) -> (Board, Pos) {
    let mut black = Vec::new();
    let mut white = Vec::new();
    let mut x_point = Pos::NONE;
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            let p = Pos::new(c + 5, 10 - r);
            match ch {
                '●' => black.push(p),
                '○' => white.push(p),
                'X' => x_point = p,
                _ => {}
            }
        }
    }
    let b = Board::from_stones_to_move(15, 15, Rule::Renju, &black, &white, Color::Black).unwrap();
    (b, x_point)
}

#[test]
fn seed_double_threes() {
    let cases: [&[&str]; 3] = [
        &["┼●●┼┼", "┼┼X┼┼", "┼┼┼●┼", "┼┼●┼┼", "┼┼┼┼┼"],
        &["┼┼┼┼┼", "┼┼●┼┼", "┼●X●┼", "┼┼●┼┼", "┼┼┼┼┼"],
        &["┼●●X┼", "┼┼┼┼┼", "┼●┼┼┼", "●┼┼┼┼", "┼┼┼┼┼"],
    ];
    for rows in cases {
        let (b, x) = diagram(rows);
        assert_eq!(
            b.forbidden(x),
            Some(ForbiddenKind::DoubleThree),
            "{:?}",
            rows
        );
        // Under every other rule, and for white, the point is an ordinary move.
        let bf =
            Board::from_stones_to_move(15, 15, Rule::Freestyle, &[], &[], Color::Black).unwrap();
        assert_eq!(bf.forbidden(x), None);
    }
}

#[test]
fn seed_double_fours() {
    let cases: [&[&str]; 2] = [
        &["┼┼┼┼┼", "X●●●┼", "┼●┼┼┼", "┼┼●┼┼", "┼┼┼●┼", "┼┼┼┼┼"],
        &["┼┼●┼┼", "┼┼┼┼┼", "●●X●┼", "┼┼●┼┼", "┼┼●┼┼", "┼┼┼┼┼"],
    ];
    for rows in cases {
        let (b, x) = diagram(rows);
        assert_eq!(
            b.forbidden(x),
            Some(ForbiddenKind::DoubleFour),
            "{:?}",
            rows
        );
    }
}

#[test]
fn seed_overline() {
    let (b, x) = diagram(&["┼●●X●●●┼"]);
    assert_eq!(b.forbidden(x), Some(ForbiddenKind::Overline));
    // White may play the same shape: it is a win for white.
    let (b, x) = diagram(&["┼○○X○○○┼"]);
    let mut b = b;
    b.set_side_to_move(Color::White);
    assert!(b.is_five(Color::White, x));
}

#[test]
fn five_overrides_forbidden_shapes() {
    // X makes an exact five on the row and a double four elsewhere: legal, and a win.
    let (b, x) = diagram(&["┼●●●●X┼┼", "┼┼┼┼●┼┼┼", "┼┼┼●┼┼┼┼", "┼┼●┼┼┼┼┼", "┼┼┼┼┼┼┼┼"]);
    assert_eq!(b.forbidden(x), None);
    assert!(b.is_five(Color::Black, x));
}

#[test]
fn same_line_double_four() {
    // ●_●●●_● with the move inside the group: x.xXx.x
    let (b, x) = diagram(&["●┼●X●┼●"]);
    assert_eq!(b.forbidden(x), Some(ForbiddenKind::DoubleFour));
}

#[test]
fn four_three_is_legal_and_four_three_three_is_not() {
    // Row four (●●●X) plus a column three: 4-3, legal.
    let (b, x) = diagram(&["┼┼┼┼┼┼", "┼┼┼┼●┼", "┼●●●X┼", "┼┼┼┼●┼", "┼┼┼┼┼┼", "┼┼┼┼┼┼"]);
    assert_eq!(b.forbidden(x), None);
    // Add a diagonal three through X: 4-3-3, forbidden.
    let (b, x) = diagram(&[
        "┼┼┼┼┼┼┼",
        "┼┼┼┼┼┼●",
        "┼┼┼┼●●┼",
        "┼●●●X┼┼",
        "┼┼┼┼●┼┼",
        "┼┼┼┼┼┼┼",
        "┼┼┼┼┼┼┼",
    ]);
    assert_eq!(b.forbidden(x), Some(ForbiddenKind::DoubleThree));
}

#[test]
fn fake_three_blocked_by_white_is_not_a_three() {
    // Column three is closed by white at one end and the other straight-four point is
    // beyond the edge of usefulness: ○●X● with ○ at both sides makes no open three.
    let (b, x) = diagram(&["┼┼○┼┼", "┼┼●┼┼", "○●X●○", "┼┼●┼┼", "┼┼┼┼┼"]);
    // Row is ○●X●○: dead. Column ○●X● with an empty below: a closed three, not open.
    assert_eq!(b.forbidden(x), None);
}
