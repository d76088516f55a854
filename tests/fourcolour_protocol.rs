//! The four-colour protocol extension (`docs/fourcolour.md` §4) through in-memory sessions
//! on the real engine: switching variant and mode, `x,y,c` positions, `BEGIN`, `TURN`, the
//! `ERROR` cases with the previous state kept, and in every mode: a win in one is taken, an
//! opponent's win in one is blocked, no win is handed to another owner.

mod fourcolour_common;
mod protocol_common;

use fourcolour_common::{body, sequence};
use protocol_common::*;
use tianyuan::core::Pos;
use tianyuan::engine::Engine;
use tianyuan::fourcolour::{Color, Mode};

/// A session on the real engine in the four-colour variant, `mode`, 15x15, searching to
/// depth 3 (the driver's defaults plus `INFO max_depth 3`).
fn four(mode: Mode) -> Driver<Engine> {
    let mut d = Driver::engine();
    let out = d.send(&[
        "INFO max_depth 3",
        "INFO variant fourcolour",
        &format!("INFO mode {}", mode.name()),
        "START 15",
    ]);
    assert_eq!(out, ["OK"]);
    assert!(d.s.four_colour());
    d
}

fn send_body(d: &mut Driver<Engine>, head: &str, lines: &[String]) -> Vec<String> {
    let mut v: Vec<&str> = vec![head];
    v.extend(lines.iter().map(|s| s.as_str()));
    v.push("DONE");
    d.send(&v)
}

/// Everything a rejected command must leave alone.
fn state(d: &Driver<Engine>) -> (Vec<Pos>, u64, bool, Mode) {
    let b = d.s.four_board().expect("game");
    (
        b.moves().to_vec(),
        b.hash(),
        d.s.four_colour(),
        d.s.four_mode_setting(),
    )
}

fn p(x: usize, y: usize) -> Pos {
    Pos::new(x, y)
}

#[test]
fn variant_and_mode_switches() {
    let mut d = Driver::engine();
    // Before START: stored; START then makes a four-colour board.
    assert!(d
        .send(&["INFO variant fourcolor", "INFO mode 1v3"])
        .is_empty());
    assert_eq!(d.send(&["START 9"]), ["OK"]);
    let b = d.s.four_board().unwrap();
    assert_eq!((b.width(), b.mode()), (9, Mode::OneVsThree));
    assert!(d.s.board().is_none());
    // Unknown values: ERROR, nothing changes.
    let before = state(&d);
    assert_eq!(
        d.send(&["INFO variant chess"]),
        ["ERROR unknown variant 'chess': fourcolour, fourcolor or standard"]
    );
    assert_eq!(
        d.send(&["INFO mode 3v1"]),
        ["ERROR unknown mode '3v1': 2p, 1v2, 1v3, 2v2 or ffa"]
    );
    assert_eq!(state(&d), before);
    // Mode change in a game keeps the stones.
    let out = d.send(&["BEGIN"]);
    let first = one_move(&out);
    assert_eq!(first, p(4, 4));
    assert!(d.send(&["INFO mode ffa"]).is_empty());
    let b = d.s.four_board().unwrap();
    assert_eq!(
        (b.mode(), b.moves().to_vec()),
        (Mode::FreeForAll, vec![first])
    );
    // Back to two colours: an empty two-colour board of the same size, with a MESSAGE.
    let out = d.send(&["INFO variant standard"]);
    assert_eq!(out.len(), 1);
    assert!(out[0].starts_with("MESSAGE "), "{out:?}");
    assert!(!d.s.four_colour());
    let b = d.s.board().unwrap();
    assert_eq!((b.width(), b.stone_count()), (9, 0));
    assert!(d.s.four_board().is_none());
    // Two-colour play as usual; then four colours again on the same size.
    let out = d.send(&["BEGIN"]);
    one_move(&out);
    let out = d.send(&["INFO variant fourcolour"]);
    assert_eq!(out.len(), 1);
    assert_eq!(d.s.four_board().unwrap().stone_count(), 0);
    assert_eq!(d.send(&["RESTART"]), ["OK"]);
    assert_eq!(d.send(&["RECTSTART 6,8"]), ["OK"]);
    let b = d.s.four_board().unwrap();
    assert_eq!((b.width(), b.height()), (6, 8));
    let before = state(&d);
    assert_eq!(
        d.send(&["START 4"]),
        ["ERROR unsupported board size 4x4: each side must be 5..=22"]
    );
    assert_eq!(state(&d), before);
}

#[test]
fn begin_turn_board_in_two_player_play() {
    let mut d = four(Mode::TwoPlayers);
    // BEGIN: black's first move.
    let b1 = one_move(&d.send(&["BEGIN"]));
    // TURN: white's stone, then our purple.
    let w = if b1 == p(7, 8) { p(8, 8) } else { p(7, 8) };
    let out = d.send(&[&format!("TURN {},{}", w.x(), w.y())]);
    let pu = one_move(&out);
    let b = d.s.four_board().unwrap();
    assert_eq!(b.moves(), &[b1, w, pu]);
    assert_eq!(b.color_at(pu), Some(Color::Purple));
    // BEGIN on a non-empty board: ERROR, nothing changes.
    let before = state(&d);
    assert_eq!(d.send(&["BEGIN"]), ["ERROR BEGIN on a non-empty board"]);
    // TURN on an occupied point, off the board.
    assert_eq!(
        d.send(&[&format!("TURN {},{}", w.x(), w.y())]),
        [format!("ERROR {},{} is occupied", w.x(), w.y())]
    );
    assert_eq!(
        d.send(&["TURN 15,0"]),
        ["ERROR 15,0 is off the 15x15 board"]
    );
    assert_eq!(state(&d), before);
    // BOARD: the position is replaced; we answer for the colour to move (green).
    let seq = [(p(7, 7), 1), (p(7, 8), 2), (p(8, 8), 3)];
    let lines = body(&seq);
    let out = send_body(&mut d, "BOARD", &lines);
    let g = one_move(&out);
    let b = d.s.four_board().unwrap();
    assert_eq!(b.color_at(g), Some(Color::Green));
    assert_eq!(b.stone_count(), 4);
    // YXBOARD sets a position without an answer.
    assert!(send_body(&mut d, "YXBOARD", &lines).is_empty());
    assert_eq!(d.s.four_board().unwrap().stone_count(), 3);
    // After our green move, TURN adds black's stone and we play white.
    one_move(&send_body(&mut d, "BOARD", &lines));
    let out = d.send(&["TURN 0,0"]);
    let mine = one_move(&out);
    let b = d.s.four_board().unwrap();
    assert_eq!(b.color_at(p(0, 0)), Some(Color::Black));
    assert_eq!(b.color_at(mine), Some(Color::White));
    // TAKEBACK of the last stone, PLAY, YXSHOWFORBID.
    assert_eq!(
        d.send(&[&format!("TAKEBACK {},{}", mine.x(), mine.y())]),
        ["OK"]
    );
    assert_eq!(
        d.send(&["TAKEBACK 0,1"]),
        ["ERROR 0,1 is not the last stone"]
    );
    assert_eq!(d.send(&["PLAY 14,14"]), ["14,14"]);
    assert_eq!(
        d.s.four_board().unwrap().color_at(p(14, 14)),
        Some(Color::White)
    );
    assert_eq!(d.send(&["YXSHOWFORBID"]), ["FORBID ."]);
    let before = state(&d);
    assert_eq!(
        d.send(&["SOLVE"]),
        ["ERROR SOLVE is not available in the four-colour variant"]
    );
    assert_eq!(
        d.send(&["YXNBEST 2"]),
        ["ERROR YXNBEST is not available in the four-colour variant"]
    );
    assert_eq!(state(&d), before);
}

#[test]
fn turn_needs_exactly_one_stone_since_our_move() {
    let mut d = four(Mode::FreeForAll);
    // START, then TURN: black's stone, we play white.
    let w = one_move(&d.send(&["TURN 7,7"]));
    assert_eq!(d.s.four_board().unwrap().color_at(w), Some(Color::White));
    // After a position set without our move, TURN cannot tell how many stones came since.
    let seq = [(p(7, 7), 1), (p(7, 8), 2), (p(8, 8), 3)];
    assert!(send_body(&mut d, "YXBOARD", &body(&seq)).is_empty());
    let before = state(&d);
    assert_eq!(
        d.send(&["TURN 0,0"]),
        ["ERROR TURN needs exactly one stone since our last move; send the position with BOARD"]
    );
    assert_eq!(state(&d), before);
    // BOARD then works, and after our answer TURN again.
    one_move(&send_body(&mut d, "BOARD", &body(&seq)));
    one_move(&d.send(&["TURN 0,0"]));
    assert_eq!(d.s.four_board().unwrap().stone_count(), 6);
}

#[test]
fn bad_positions_keep_the_previous_state() {
    let mut d = four(Mode::TwoVsTwo);
    one_move(&send_body(
        &mut d,
        "BOARD",
        &body(&[(p(7, 7), 1), (p(7, 8), 2)]),
    ));
    let before = state(&d);
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec!["7,7,1".into(), "7,8,3".into()],
            "ERROR stone 2 is purple but the cyclic order needs white (colours 1,2,3,4,1,... in play order)",
        ),
        (vec!["7,7,2".into()], "ERROR stone 1 is white but the cyclic order needs black (colours 1,2,3,4,1,... in play order)"),
        (vec!["7,7,1".into(), "7,7,2".into()], "ERROR stone 2 at 7,7: the point is already occupied"),
        (vec!["7,7,5".into()], "ERROR stone 1: colour 5 is not 1, 2, 3 or 4"),
        (vec!["15,7,1".into()], "ERROR stone 1 at 15,7 is off the 15x15 board"),
        (vec!["7,7".into()], "ERROR bad body line: '7,7' lacks the field (x,y,field) (expected x,y,c)"),
        (vec!["7,x,1".into()], "ERROR bad body line: bad coordinates '7,x,1' (expected x,y,c)"),
        (
            body(&[(p(0, 0), 1), (p(1, 0), 2), (p(2, 0), 3), (p(3, 0), 4), (p(4, 0), 1)]),
            "ERROR the position is already won: stone 5 (e1, black) completes a win for player 1 (black)",
        ),
    ];
    for (lines, reply) in cases {
        for head in ["BOARD", "YXBOARD"] {
            assert_eq!(send_body(&mut d, head, &lines), [reply], "{head} {lines:?}");
            assert_eq!(state(&d), before);
        }
    }
    // A TURN stone that wins is refused too: 1 2 3 _ 1 with green to move, TURN on the hole.
    let seq = sequence(
        &[(p(3, 7), 1), (p(4, 7), 2), (p(5, 7), 3), (p(7, 7), 1)],
        4,
        &[],
        5,
    );
    // Play up to green's turn with BOARD (our answer is green's), then take it back and
    // send the hole with TURN.
    let out = send_body(&mut d, "BOARD", &body(&seq));
    let g = one_move(&out);
    assert_ne!(g, p(6, 7), "the engine must not hand black the win");
    assert_eq!(d.send(&[&format!("TAKEBACK {},{}", g.x(), g.y())]), ["OK"]);
    let before = state(&d);
    assert_eq!(
        d.send(&["TURN 6,7"]),
        ["ERROR the game is over: 6,7 (green) completes a win for player 1 (black)"]
    );
    assert_eq!(state(&d), before);
    // Commands without a game.
    let mut e = Driver::engine();
    assert!(e.send(&["INFO variant fourcolour"]).is_empty());
    assert_eq!(e.send(&["BEGIN"]), ["ERROR no game started"]);
    assert_eq!(e.send(&["TURN 1,1"]), ["ERROR no game started"]);
}

/// Sends `seq` as a `BOARD` and returns the engine's move.
fn answer(d: &mut Driver<Engine>, seq: &[(Pos, u8)]) -> Pos {
    let out = send_body(d, "BOARD", &body(seq));
    one_move(&out)
}

/// The four-tone five `a ? ? ? a` whose slot `k` holds colour `m` (first in list order).
fn five_with(a: u8, k: usize, m: u8) -> [u8; 5] {
    *tianyuan::fourcolour::FOUR_TONE_FIVES
        .iter()
        .find(|s| s[0] == a && s[k] == m)
        .expect("such a five")
}

#[test]
fn takes_a_win_in_one_in_every_mode() {
    for mode in Mode::ALL {
        let mut d = four(mode);
        for c in Color::ALL {
            let c = c.number();
            // c x y z c along row 9 from the right edge (x = 11..14), the left end empty: c wins there.
            let s = five_with(c, 1, c % 4 + 1);
            let stones: Vec<(Pos, u8)> = (1..5).map(|i| (p(10 + i, 9), s[i])).collect();
            let seq = sequence(&stones, c, &[p(10, 9)], 5);
            assert_eq!(answer(&mut d, &seq), p(10, 9), "{mode} colour {c}");
            // A one-colour four of the mover's colour on a column: also taken.
            let stones: Vec<(Pos, u8)> = (0..4).map(|i| (p(3, 10 + i), c)).collect();
            let seq = sequence(&stones, c, &[p(3, 9), p(3, 14)], 5);
            let m = answer(&mut d, &seq);
            assert!(m == p(3, 9) || m == p(3, 14), "{mode} colour {c}: {m}");
        }
    }
}

#[test]
fn blocks_a_win_in_one_in_every_mode() {
    for mode in Mode::ALL {
        let mut d = four(mode);
        for c in Color::ALL {
            let next = c.next();
            if mode.team_of(next) == mode.team_of(c) {
                continue; // a team-mate moves next: no block needed now
            }
            // The next colour's four-tone five lacks its left end, at the right edge.
            let o = next.number();
            let s = five_with(o, 1, c.number());
            let stones: Vec<(Pos, u8)> = (1..5).map(|i| (p(10 + i, 4), s[i])).collect();
            let seq = sequence(&stones, c.number(), &[p(10, 4)], 5);
            assert_eq!(answer(&mut d, &seq), p(10, 4), "{mode} {c}");
            // And a one-colour four of the next colour, closed at one end by the edge.
            let stones: Vec<(Pos, u8)> = (0..4).map(|i| (p(0, i), o)).collect();
            let seq = sequence(&stones, c.number(), &[p(0, 4)], 5);
            assert_eq!(answer(&mut d, &seq), p(0, 4), "{mode} {c}");
        }
    }
}

#[test]
fn never_hands_a_win_to_another_owner_in_every_mode() {
    for mode in Mode::ALL {
        let mut d = four(mode);
        for m in Color::ALL {
            // A five of another team's colour `a` that lacks only its middle point, which
            // needs the mover's colour; the mover's own three points at that hole too, so
            // that the hole looks good for shape.
            let a = Color::ALL
                .into_iter()
                .find(|&a| mode.team_of(a) != mode.team_of(m))
                .unwrap();
            let s = five_with(a.number(), 2, m.number());
            let hole = p(7, 6);
            let mut stones: Vec<(Pos, u8)> = [0usize, 1, 3, 4]
                .iter()
                .map(|&i| (p(5 + i, 6), s[i]))
                .collect();
            for k in 1..4 {
                stones.push((p(7, 6 + k), m.number()));
            }
            let seq = sequence(&stones, m.number(), &[hole], 5);
            let board_check = tianyuan::fourcolour::FourBoard::from_stones(
                15,
                15,
                mode,
                false,
                &seq.iter()
                    .map(|&(q, c)| (q.x() as i64, q.y() as i64, c as i64))
                    .collect::<Vec<_>>(),
            )
            .unwrap();
            assert_eq!(
                board_check.winner_if(hole).map(|w| mode.team(w)),
                Some(mode.team_of(a)),
                "the hole must be a gift ({mode} {m})"
            );
            let mv = answer(&mut d, &seq);
            assert_ne!(mv, hole, "{mode} {m} handed {a}'s owner the win");
        }
    }
}

/// A middle-game position: 24 stones in play order near the centre, no win.
fn middle_game() -> Vec<String> {
    let mut seq = Vec::new();
    let mut b = tianyuan::fourcolour::FourBoard::new(15, 15, Mode::FreeForAll, false).unwrap();
    let mut k = 17usize;
    while seq.len() < 24 {
        k = (k * 37 + 11) % 81;
        let q = p(3 + k % 9, 3 + k / 9);
        if b.is_empty(q) && b.winner_if(q).is_none() {
            seq.push((q, b.to_move().number()));
            b.make(q);
        }
    }
    body(&seq)
}

#[test]
fn time_limits_are_kept() {
    for mode in [Mode::TwoPlayers, Mode::FreeForAll] {
        let mut d = four(mode);
        // No depth limit: only the clock stops the search.
        assert!(d
            .send(&["INFO max_depth 0", "INFO timeout_turn 300"])
            .is_empty());
        let t0 = std::time::Instant::now();
        let out = send_body(&mut d, "BOARD", &middle_game());
        let dt = t0.elapsed();
        one_move(&out);
        assert!(
            out.len() == 2,
            "a MESSAGE with the search, then the move: {out:?}"
        );
        assert!(
            dt < std::time::Duration::from_millis(1300),
            "{mode}: {dt:?}"
        );
        // No time left: an answer at once, without a search (no MESSAGE line).
        assert!(d
            .send(&["INFO timeout_match 100000", "INFO time_left -5"])
            .is_empty());
        let out = send_body(&mut d, "BOARD", &middle_game());
        assert_eq!(out.len(), 1, "{out:?}");
        one_move(&out);
    }
}

#[test]
fn yxstop_ends_the_search_with_a_move() {
    let mut d = four(Mode::TwoVsTwo);
    assert!(d.send(&["INFO max_depth 0"]).is_empty());
    let mut lines = vec!["BOARD".to_string()];
    lines.extend(middle_game());
    lines.push("DONE".into());
    let r: Vec<&str> = lines.iter().map(|s| s.as_str()).collect();
    assert!(d.push(&r).is_empty());
    assert!(d.s.is_searching());
    std::thread::sleep(std::time::Duration::from_millis(50));
    let t0 = std::time::Instant::now();
    d.push(&["YXSTOP"]);
    let out = d.wait();
    one_move(&out);
    // The search has no limit, so any answer is the stop's; within Gomocup's 1000 ms
    // tolerance, with room for a loaded machine.
    assert!(
        t0.elapsed() < std::time::Duration::from_millis(1000),
        "{:?}",
        t0.elapsed()
    );
    // A variant change during a search waits for the answer.
    assert!(d.push(&r).is_empty());
    assert!(d.push(&["INFO variant standard"]).is_empty());
    assert!(d.s.four_colour());
    d.push(&["YXSTOP"]);
    let out = d.wait();
    one_move(&out[..out.len() - 1]);
    assert!(
        out.last().unwrap().starts_with("MESSAGE variant standard"),
        "{out:?}"
    );
    assert!(!d.s.four_colour());
}
