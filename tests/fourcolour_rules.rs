//! Four-colour win detection (`docs/fourcolour.md` §2): every one-colour five and four-tone
//! five, in every direction, read from either end, at edges, corners and in the middle, with
//! the completing stone at each of its five points, judged with the right owner in every
//! mode; near misses; long runs; moves completing structures of several owners; positions
//! checked by `FourBoard::from_stones`.

mod fourcolour_common;

use fourcolour_common::build;
use tianyuan::core::Pos;
use tianyuan::fourcolour::{decide, Color, FourBoard, Mode, Outcome, PositionError};

/// Where a five goes: start point and direction (dx, dy), on 15x15.
const PLACES: [((i64, i64), (i64, i64)); 12] = [
    ((0, 0), (1, 0)),   // bottom-left corner, horizontal
    ((10, 14), (1, 0)), // ends in the top-right corner
    ((5, 7), (1, 0)),   // middle
    ((0, 0), (0, 1)),   // corner, vertical
    ((14, 3), (0, 1)),  // right edge
    ((7, 10), (0, 1)),  // ends on the top edge
    ((0, 0), (1, 1)),   // corner, diagonal
    ((10, 10), (1, 1)), // ends in the top-right corner
    ((3, 0), (1, 1)),   // from the bottom edge
    ((0, 14), (1, -1)), // top-left corner, anti-diagonal
    ((10, 4), (1, -1)), // ends in the bottom-right corner
    ((5, 9), (1, -1)),  // middle
];

fn line(start: (i64, i64), d: (i64, i64)) -> [Pos; 5] {
    std::array::from_fn(|i| {
        Pos::new(
            (start.0 + d.0 * i as i64) as usize,
            (start.1 + d.1 * i as i64) as usize,
        )
    })
}

/// The 28 winning colourings.
fn winning() -> Vec<[u8; 5]> {
    let mut v: Vec<[u8; 5]> = (1..=4u8).map(|c| [c; 5]).collect();
    v.extend(tianyuan::fourcolour::FOUR_TONE_FIVES);
    v
}

#[test]
fn every_five_everywhere_with_the_right_owner() {
    let mut checked = 0;
    for seq in winning() {
        for reversed in [false, true] {
            let mut s = seq;
            if reversed {
                s.reverse();
            }
            let a = Color::from_number(s[0] as i64).unwrap();
            for &(start, d) in &PLACES {
                let pts = line(start, d);
                for last in 0..5 {
                    let stones: Vec<(Pos, u8)> = (0..5)
                        .filter(|&i| i != last)
                        .map(|i| (pts[i], s[i]))
                        .collect();
                    for mode in Mode::ALL {
                        let mut b = build(mode, false, &stones, s[last]);
                        let mover = b.to_move();
                        assert_eq!(
                            b.winning_colors_if(pts[last], mover),
                            1 << a.number(),
                            "{:?} at {:?} dir {:?}",
                            s,
                            start,
                            d
                        );
                        let owner = mode.owner(a);
                        assert_eq!(
                            b.play_judged(pts[last]),
                            Some(Outcome::Win(owner)),
                            "{:?} {:?} {:?} {mode}",
                            s,
                            start,
                            d
                        );
                        assert_eq!(b.existing_winner(), Some(owner));
                        checked += 1;
                    }
                }
            }
        }
    }
    assert_eq!(checked, 28 * 2 * 12 * 5 * 5);
}

/// Places `colours` on consecutive points from `start` in direction `d` (0 = leave empty),
/// all but index `last`, then reports what colour `colours[last]` there completes.
fn complete(
    mode: Mode,
    exact: bool,
    start: (i64, i64),
    d: (i64, i64),
    colours: &[u8],
    last: usize,
) -> (FourBoard, Pos) {
    let pts: Vec<Pos> = (0..colours.len())
        .map(|i| {
            Pos::new(
                (start.0 + d.0 * i as i64) as usize,
                (start.1 + d.1 * i as i64) as usize,
            )
        })
        .collect();
    let stones: Vec<(Pos, u8)> = (0..colours.len())
        .filter(|&i| i != last && colours[i] != 0)
        .map(|i| (pts[i], colours[i]))
        .collect();
    (build(mode, exact, &stones, colours[last]), pts[last])
}

#[test]
fn near_misses_do_not_win() {
    let cases: &[&[u8]] = &[
        &[1, 2, 3, 4, 2],    // 12342
        &[1, 2, 3, 4, 0, 1], // 1234 then a gap
        &[1, 1, 1, 1, 2],    // four of one colour
        &[1, 2, 3, 1, 1],    // a colour missing
        &[1, 2, 3, 4, 3],    // ends differ
        &[2, 1, 3, 4, 1],    // ends differ
        &[1, 1, 2, 3, 4],
        &[0, 1, 1, 1, 1, 0],
    ];
    for mode in Mode::ALL {
        for &c in cases {
            for last in 0..c.len() {
                if c[last] == 0 {
                    continue;
                }
                for &(start, d) in &[((2, 2), (1, 0)), ((2, 2), (1, 1)), ((2, 12), (1, -1))] {
                    let (b, p) = complete(mode, false, start, d, c, last);
                    assert_eq!(b.winner_if(p), None, "{:?} last {last} {mode}", c);
                }
            }
        }
    }
}

#[test]
fn long_runs() {
    // Six of one colour, completed inside (the five others at an end would already be a
    // five): a five by default, nothing with the exact-five option.
    for last in 1..5 {
        let (b, p) = complete(Mode::TwoPlayers, false, (2, 5), (1, 0), &[1; 6], last);
        assert_eq!(b.winner_if(p), Some(0), "last {last}");
        let (b, p) = complete(Mode::TwoPlayers, true, (2, 5), (1, 0), &[1; 6], last);
        assert_eq!(b.winner_if(p), None, "exact, last {last}");
    }
    // Seven green: still a five by default.
    let (b, p) = complete(Mode::FreeForAll, false, (1, 3), (0, 1), &[4; 7], 3);
    assert_eq!(b.winner_if(p), Some(3));
    // An exact five still wins with the option.
    let (b, p) = complete(Mode::TwoPlayers, true, (2, 5), (1, 1), &[3; 5], 2);
    assert_eq!(b.winner_if(p), Some(0));
    // A four-tone five inside a longer mixed run wins: 2 12341 3 (black's).
    let (b, p) = complete(
        Mode::FreeForAll,
        true,
        (1, 7),
        (1, 0),
        &[2, 1, 2, 3, 4, 1, 3],
        5,
    );
    assert_eq!(b.winner_if(p), Some(0));
    // A five of one colour next to another colour: 1 1 1 1 1 2.
    let (b, p) = complete(
        Mode::FreeForAll,
        true,
        (1, 7),
        (1, 0),
        &[1, 1, 1, 1, 1, 2],
        0,
    );
    assert_eq!(b.winner_if(p), Some(0));
}

#[test]
fn several_owners_in_one_run() {
    // 1 2 3 4 1 2 holds 12341 (black's) and 23412 (white's); the green stone (index 3)
    // completes both.
    let run = [1u8, 2, 3, 4, 1, 2];
    let expect = [
        (Mode::TwoPlayers, 1), // green is the second player's, who owns white: the mover wins
        (Mode::OneVsTwo, 0),   // green is C's; C is not an owner: black (A) comes next
        (Mode::OneVsThree, 0), // green's owner is not an owner: black next
        (Mode::TwoVsTwo, 0),
        (Mode::FreeForAll, 0),
    ];
    for (mode, winner) in expect {
        let (b, p) = complete(mode, false, (4, 4), (1, 0), &run, 3);
        let mover = b.to_move();
        assert_eq!(mover, Color::Green);
        assert_eq!(b.winning_colors_if(p, mover), (1 << 1) | (1 << 2), "{mode}");
        assert_eq!(b.winner_if(p), Some(winner), "{mode}");
        assert_eq!(
            decide(mode, mover, (1 << 1) | (1 << 2)),
            Some(winner),
            "{mode}"
        );
    }
    // The white stone (index 1) completes both too: white's owner is among them and wins.
    for mode in Mode::ALL {
        let (b, p) = complete(mode, false, (4, 4), (0, 1), &run, 1);
        assert_eq!(b.winner_if(p), Some(mode.owner(Color::White)), "{mode}");
    }
    // The black stone (index 4) completes both: black's owner wins.
    for mode in Mode::ALL {
        let (b, p) = complete(mode, false, (4, 4), (1, 1), &run, 4);
        assert_eq!(b.winner_if(p), Some(0), "{mode}");
    }
    // Structures in two directions at once: a green stone completes 1 2 3 4 1 horizontally
    // (black's) and 4 4 4 4 4 vertically (green's): the mover's owner wins.
    let mut stones = vec![
        (Pos::new(3, 7), 1),
        (Pos::new(4, 7), 2),
        (Pos::new(5, 7), 3),
        (Pos::new(7, 7), 1),
    ];
    for y in [3, 4, 5, 6] {
        stones.push((Pos::new(6, y), 4));
    }
    let b = build(Mode::FreeForAll, false, &stones, 4);
    assert_eq!(b.winning_colors_if(Pos::new(6, 7), Color::Green), 0b10010);
    assert_eq!(b.winner_if(Pos::new(6, 7)), Some(3));
    let b = build(Mode::TwoVsTwo, false, &stones, 4);
    assert_eq!(b.winner_if(Pos::new(6, 7)), Some(3));
}

#[test]
fn completed_by_another_owners_stone() {
    // 1 2 3 _ 1: the green stone completes black's five.
    for mode in Mode::ALL {
        let (b, p) = complete(mode, false, (6, 2), (0, 1), &[1, 2, 3, 4, 1], 3);
        assert_eq!(b.to_move(), Color::Green);
        assert_eq!(b.winner_if(p), Some(0), "{mode}");
    }
    // _ 3 4 1 2 completed with white at the front: 23412, white's, by a white stone;
    // and 4 1 2 3 _ completed by black: 41234, green's.
    for mode in Mode::ALL {
        let (b, p) = complete(mode, false, (1, 1), (1, 1), &[4, 1, 2, 3, 4], 4);
        assert_eq!(b.winner_if(p), Some(mode.owner(Color::Green)), "{mode}");
    }
}

#[test]
fn positions_are_checked() {
    let ok = FourBoard::from_stones(15, 15, Mode::TwoPlayers, false, &[(7, 7, 1), (7, 8, 2)]);
    assert_eq!(ok.unwrap().to_move(), Color::Purple);
    let e = |stones: &[(i64, i64, i64)]| {
        FourBoard::from_stones(15, 15, Mode::FreeForAll, false, stones).unwrap_err()
    };
    assert!(matches!(
        e(&[(7, 7, 1), (7, 8, 3)]),
        PositionError::OutOfOrder {
            index: 2,
            expected: Color::White,
            got: Color::Purple
        }
    ));
    assert!(matches!(
        e(&[(7, 7, 2)]),
        PositionError::OutOfOrder { index: 1, .. }
    ));
    assert!(matches!(e(&[(7, 7, 5)]), PositionError::BadColor { .. }));
    assert!(matches!(e(&[(7, 7, 0)]), PositionError::BadColor { .. }));
    assert!(matches!(e(&[(15, 7, 1)]), PositionError::OffBoard { .. }));
    assert!(matches!(e(&[(-1, 7, 1)]), PositionError::OffBoard { .. }));
    assert!(matches!(
        e(&[(7, 7, 1), (7, 7, 2)]),
        PositionError::Occupied { index: 2, .. }
    ));
    // 1 2 3 4 1 on a row, in play order: the fifth stone wins, so the position is refused.
    let won = e(&[(0, 0, 1), (1, 0, 2), (2, 0, 3), (3, 0, 4), (4, 0, 1)]);
    assert!(matches!(won, PositionError::AlreadyWon { index: 5, .. }));
    assert!(won.to_string().contains("player 1 (black)"), "{won}");
    // Sizes 5..=22 only.
    assert!(FourBoard::new(5, 5, Mode::TwoPlayers, false).is_ok());
    assert!(FourBoard::new(22, 22, Mode::TwoPlayers, false).is_ok());
    assert!(FourBoard::new(4, 4, Mode::TwoPlayers, false).is_err());
    assert!(FourBoard::new(23, 23, Mode::TwoPlayers, false).is_err());
}

/// Depth-first search for a way to fill the board without completing a structure.
fn fill_without_win(b: &mut FourBoard, budget: &mut u32) -> bool {
    if b.is_full() {
        return true;
    }
    *budget = budget.saturating_sub(1);
    if *budget == 0 {
        return false;
    }
    let empty: Vec<Pos> = b
        .points()
        .iter()
        .copied()
        .filter(|&p| b.is_empty(p))
        .collect();
    for p in empty {
        if b.winner_if(p).is_none() {
            b.make(p);
            if fill_without_win(b, budget) {
                return true;
            }
            b.undo();
        }
    }
    false
}

#[test]
fn a_full_board_is_a_draw() {
    for mode in [Mode::FreeForAll, Mode::TwoPlayers] {
        let mut b = FourBoard::new(5, 5, mode, false).unwrap();
        let mut budget = 1_000_000;
        assert!(
            fill_without_win(&mut b, &mut budget),
            "no drawn filling found"
        );
        // Replay the filling as a judged game: no win, and the last stone draws.
        let moves = b.moves().to_vec();
        let mut g = FourBoard::new(5, 5, mode, false).unwrap();
        for (i, &p) in moves.iter().enumerate() {
            let r = g.play_judged(p);
            if i + 1 < moves.len() {
                assert_eq!(r, None);
            } else {
                assert_eq!(r, Some(Outcome::Draw));
            }
        }
        assert!(g.existing_winner().is_none());
    }
}
