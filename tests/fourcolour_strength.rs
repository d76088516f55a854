//! Our four-colour engine against the one-ply greedy player of `tests/fourcolour_greedy`
//! (win, else block, else best shape), in-process and deterministic: node-limited searches,
//! seeded openings and tie-breaks.
//!
//! Each game starts from four random stones (one of each colour) in the central 5x5
//! square of a 15x15 board; our engine sits in seat `g mod players` of game `g` and the
//! greedy player in every other seat (in `ffa` that is one engine against three greedy
//! players, each for itself). A game scores 1 for a win of our team, `1 / teams` for a full
//! board, 0 for a loss.
//!
//! The longer measurement (160 games per mode, a few minutes in release) is ignored by
//! default: `cargo test --release --test fourcolour_strength -- --ignored --nocapture`.

mod fourcolour_greedy;

use fourcolour_greedy::*;
use std::sync::atomic::AtomicBool;
use tianyuan::fourcolour::{search::Limits, Mode, Outcome, Searcher};

/// Nodes per move of our engine.
fn nodes(mode: Mode) -> u64 {
    if mode == Mode::FreeForAll {
        40_000
    } else {
        20_000
    }
}

/// Plays games `first..first + games` of `mode`; returns our score (0..=1) and one line per
/// game.
fn score(mode: Mode, first: usize, games: usize) -> (f64, Vec<String>) {
    let stop = AtomicBool::new(false);
    let mut searcher = Searcher::new(4 << 20);
    let mut points = 0.0;
    let mut lines = Vec::new();
    for g in first..first + games {
        let mut rng = Rng(0x9e37_79b9 + g as u64 * 7919);
        let opening = random_opening(15, 4, &mut rng);
        let ours = g % mode.players();
        let (outcome, board) = play(15, mode, &opening, |player, b| {
            if player == ours {
                let limits = Limits {
                    max_nodes: Some(nodes(mode)),
                    ..Limits::default()
                };
                searcher.search(b, &limits, &stop, &mut |_| {}).best
            } else {
                greedy_move(b, &mut rng)
            }
        });
        let p = match outcome {
            Outcome::Win(w) if mode.team(w) == mode.team(ours) => 1.0,
            Outcome::Win(_) => 0.0,
            Outcome::Draw => 1.0 / mode.teams() as f64,
        };
        points += p;
        let moves: Vec<String> = board.moves().iter().map(|p| p.to_string()).collect();
        lines.push(format!(
            "game {g}: seat {} {outcome:?} after {} stones: {p} ({})",
            ours + 1,
            board.stone_count(),
            moves.join(",")
        ));
    }
    (points / games as f64, lines)
}

fn check(mode: Mode) {
    let (s, lines) = score(mode, 0, 20);
    assert!(
        s >= 0.9,
        "{mode}: {s:.3} over 20 games against the greedy player\n{}",
        lines.join("\n")
    );
}

#[test]
fn beats_the_greedy_player_in_two_player_games() {
    check(Mode::TwoPlayers);
}

#[test]
fn beats_three_greedy_players_in_free_for_all() {
    check(Mode::FreeForAll);
}

#[test]
#[ignore]
fn strength_report() {
    for mode in [Mode::TwoPlayers, Mode::FreeForAll] {
        let t = std::time::Instant::now();
        let (s, lines) = score(mode, 0, 160);
        let count = |tag: &str| lines.iter().filter(|l| l.contains(tag)).count();
        println!(
            "{mode}: {s:.3} over 160 games (wins {}, draws {}, losses {}) in {:.1?}",
            count(": 1 ("),
            lines.len() - count(": 1 (") - count(": 0 ("),
            count(": 0 ("),
            t.elapsed()
        );
    }
}
