//! Win detection under every rule, in all four directions, at edges and corners, on 15x15,
//! 20x20 and a rectangular board.
use tianyuan::board::{Board, GameResult};
use tianyuan::core::{Color, Pos, Rule, DIRS};

/// Places `own` stones for `color` at the given offsets along direction `d` from `start`
/// (others' stones given too) and returns the board with `color` to move.
fn setup(w: usize, h: usize, rule: Rule, color: Color, own: &[Pos], opp: &[Pos]) -> Board {
    let (black, white) = match color {
        Color::Black => (own, opp),
        Color::White => (opp, own),
    };
    Board::from_stones_to_move(w, h, rule, black, white, color).unwrap()
}

fn line(start: (i64, i64), d: usize, offsets: &[i64]) -> Vec<Pos> {
    let (dx, dy) = DIRS[d];
    offsets
        .iter()
        .map(|&k| {
            Pos::new(
                (start.0 + k * dx as i64) as usize,
                (start.1 + k * dy as i64) as usize,
            )
        })
        .collect()
}

/// Every direction, from a start point that puts the line at an edge or a corner of the board.
fn starts(w: usize, h: usize, d: usize, len: i64) -> Vec<(i64, i64)> {
    let (wi, hi) = (w as i64, h as i64);
    let all = match d {
        0 => vec![(0, 0), (wi - len, hi - 1), (3, hi / 2)],
        1 => vec![(0, 0), (wi - 1, hi - len), (wi / 2, 2)],
        2 => vec![(0, 0), (wi - len, hi - len), (2, 1)],
        _ => vec![(0, hi - 1), (wi - len, len - 1), (1, hi - 2)],
    };
    let (dx, dy) = DIRS[d];
    let on = |x: i64, y: i64| x >= 0 && y >= 0 && x < wi && y < hi;
    let mut v: Vec<(i64, i64)> = all
        .into_iter()
        .filter(|&(x, y)| on(x, y) && on(x + (len - 1) * dx as i64, y + (len - 1) * dy as i64))
        .collect();
    // Keep three starts per direction so that the count below is fixed.
    while v.len() < 3 {
        v.push(v[0]);
    }
    v
}

#[test]
fn five_wins_everywhere_for_every_rule() {
    let mut checked = 0;
    for (w, h) in [(15, 15), (20, 20), (17, 9), (5, 5)] {
        for rule in [
            Rule::Freestyle,
            Rule::Standard,
            Rule::Renju,
            Rule::Caro,
            Rule::CaroExact,
        ] {
            for color in [Color::Black, Color::White] {
                for d in 0..4 {
                    for start in starts(w, h, d, 5) {
                        for gap in 0..5 {
                            let offsets: Vec<i64> = (0..5).filter(|&k| k != gap).collect();
                            let own = line(start, d, &offsets);
                            let p = line(start, d, &[gap])[0];
                            // The opponent's stones far from the line.
                            let b = setup(w, h, rule, color, &own, &[]);
                            assert!(
                                b.is_five(color, p),
                                "{:?} {:?} {}x{} d{} {:?} gap {}",
                                rule,
                                color,
                                w,
                                h,
                                d,
                                start,
                                gap
                            );
                            assert_eq!(b.result_of_move(p), Some(GameResult::Win(color)));
                            let mut b2 = b.clone();
                            b2.make(p);
                            assert_eq!(b2.last_move_won(), Some(color));
                            // One stone short is no five.
                            let b3 = setup(w, h, rule, color, &own[1..], &[]);
                            assert!(!b3.is_five(color, p));
                            checked += 1;
                        }
                    }
                }
            }
        }
    }
    assert_eq!(checked, 4 * 5 * 2 * 4 * 3 * 5);
}

#[test]
fn overline_per_rule() {
    for (w, h) in [(15, 15), (20, 20), (19, 11)] {
        for d in 0..4 {
            for start in starts(w, h, d, 6) {
                let own = line(start, d, &[0, 1, 2, 4, 5]);
                let p = line(start, d, &[3])[0];
                for (rule, color, wins) in [
                    (Rule::Freestyle, Color::Black, true),
                    (Rule::Freestyle, Color::White, true),
                    (Rule::Standard, Color::Black, false),
                    (Rule::Standard, Color::White, false),
                    (Rule::Renju, Color::Black, false),
                    (Rule::Renju, Color::White, true),
                    (Rule::Caro, Color::Black, true),
                    (Rule::CaroExact, Color::White, false),
                ] {
                    let b = setup(w, h, rule, color, &own, &[]);
                    assert_eq!(
                        b.is_five(color, p),
                        wins,
                        "{:?} {:?} d{} {:?}",
                        rule,
                        color,
                        d,
                        start
                    );
                    if rule == Rule::Renju && color == Color::Black {
                        // Black's overline is a foul: white wins.
                        assert_eq!(b.result_of_move(p), Some(GameResult::Win(Color::White)));
                    } else if !wins {
                        assert_eq!(b.result_of_move(p), None);
                    }
                }
            }
        }
    }
}

#[test]
fn caro_five_blocked_at_both_ends() {
    for d in 0..4 {
        let start = (4i64, 7i64);
        let own = line(start, d, &[1, 2, 3, 4]);
        let p = line(start, d, &[5])[0];
        let both = line(start, d, &[0, 6]);
        let one = line(start, d, &[0]);
        for rule in [Rule::Caro, Rule::CaroExact] {
            let b = setup(15, 15, rule, Color::Black, &own, &both);
            assert!(
                !b.is_five(Color::Black, p),
                "blocked both ends wins under {:?} d{}",
                rule,
                d
            );
            let b = setup(15, 15, rule, Color::Black, &own, &one);
            assert!(
                b.is_five(Color::Black, p),
                "blocked one end must win under {:?}",
                rule
            );
            // Freestyle and standard ignore the blockers.
            let b = setup(15, 15, Rule::Freestyle, Color::Black, &own, &both);
            assert!(b.is_five(Color::Black, p));
        }
    }
    // The edge is no blocker: a five from the edge blocked by one stone wins.
    let own = line((0, 7), 0, &[0, 1, 2, 3]);
    let opp = line((0, 7), 0, &[5]);
    let b = setup(15, 15, Rule::Caro, Color::White, &own, &opp);
    assert!(b.is_five(Color::White, Pos::new(4, 7)));
}

#[test]
fn full_board_is_a_draw() {
    // Fill a 5x5 board in a pattern without five: columns alternate in pairs.
    let mut b = Board::new(5, 5, Rule::Freestyle).unwrap();
    let mut order = Vec::new();
    for y in 0..5 {
        for x in 0..5 {
            order.push(Pos::new(x, y));
        }
    }
    // Colour by ((x / 2) + y) % 2 so that no line holds five of one colour.
    let black: Vec<Pos> = order
        .iter()
        .copied()
        .filter(|p| ((p.x() / 2) + p.y()) % 2 == 0)
        .collect();
    let white: Vec<Pos> = order
        .iter()
        .copied()
        .filter(|p| ((p.x() / 2) + p.y()) % 2 == 1)
        .collect();
    assert_eq!(black.len(), 13);
    assert_eq!(white.len(), 12);
    for i in 0..12 {
        assert_eq!(b.result_of_move(black[i]), None);
        b.make(black[i]);
        if i < 11 {
            assert_eq!(b.result_of_move(white[i]), None);
            b.make(white[i]);
        }
    }
    b.make(white[11]);
    assert_eq!(b.result_of_move(black[12]), Some(GameResult::Draw));
}
