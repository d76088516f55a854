//! Test fixture: a one-ply greedy four-colour player, and in-process games between players.
//!
//! The greedy player, for the colour to move: (1) takes a winning point if it has one;
//! (2) else blocks a point where a colour of another team would win, the most urgent first
//! (the colours in turn order after its own); (3) else plays the point of best shape by its
//! own simple count (below), ties broken by a seeded random number. It never places a stone
//! that completes a structure winning for another team while another move exists.
//!
//! Its shape count is independent of the engine's evaluation: a window of five is worth
//! `n^3` (`n` stones) to each team it can still become a five for (one-colour or four-tone);
//! a move's score is, over the windows through its point, the change of its own team's
//! values minus the change of every other team's (so it builds its shapes, spoils the
//! others' and avoids building theirs).
#![allow(dead_code)]

use tianyuan::core::Pos;
use tianyuan::fourcolour::{Color, FourBoard, Mode, Outcome, FOUR_TONE_FIVES};

/// A tiny seeded generator (xorshift64*).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        let mut x = self.0.max(1);
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() >> 11) as usize % n
    }
}

const DIRS: [(i64, i64); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// The colours of the window starting at `(x, y)` in direction `d`, with `extra` placed at
/// `at`; `None` if it leaves the board.
fn window(b: &FourBoard, x: i64, y: i64, d: (i64, i64), at: Pos, extra: u8) -> Option<[u8; 5]> {
    let mut w = [0u8; 5];
    for (i, slot) in w.iter_mut().enumerate() {
        let (px, py) = (x + d.0 * i as i64, y + d.1 * i as i64);
        if !b.contains_xy(px, py) {
            return None;
        }
        let p = Pos::new(px as usize, py as usize);
        *slot = if p == at {
            extra
        } else {
            b.color_at(p).map_or(0, |c| c.number())
        };
    }
    Some(w)
}

/// The teams a window could still win for (bit per team), and its stone count.
fn window_teams(mode: Mode, w: &[u8; 5]) -> (u8, u32) {
    let n = w.iter().filter(|&&c| c != 0).count() as u32;
    let mut teams = 0u8;
    for a in 1..=4u8 {
        let mut pats = vec![[a; 5]];
        pats.extend(FOUR_TONE_FIVES.iter().filter(|p| p[0] == a).copied());
        if pats
            .iter()
            .any(|p| (0..5).all(|i| w[i] == 0 || w[i] == p[i]))
        {
            let c = Color::from_number(a as i64).unwrap();
            teams |= 1 << mode.team_of(c);
        }
    }
    (teams, n)
}

/// The value of a window for `team`: `n^3` with `n` stones when it can still become a five
/// winning for `team`, else 0.
fn window_value(mode: Mode, w: &[u8; 5], team: usize) -> i64 {
    let (teams, n) = window_teams(mode, w);
    if n < 5 && teams & (1 << team) != 0 {
        (n as i64).pow(3)
    } else {
        0
    }
}

/// The one-ply shape score of colour `c` on `p`: over the windows through `p`, the change of
/// the value for the mover's team minus the change for every other team.
fn shape(b: &FourBoard, p: Pos, c: Color) -> i64 {
    let mode = b.mode();
    let mine = mode.team_of(c);
    let mut s = 0i64;
    for d in DIRS {
        for k in 0..5i64 {
            let (x, y) = (p.x() as i64 - d.0 * k, p.y() as i64 - d.1 * k);
            let Some(before) = window(b, x, y, d, Pos::NONE, 0) else {
                continue;
            };
            let after = window(b, x, y, d, p, c.number()).unwrap();
            for t in 0..mode.teams() {
                let change = window_value(mode, &after, t) - window_value(mode, &before, t);
                s += if t == mine { change } else { -change };
            }
        }
    }
    s
}

/// The greedy player's move (see the module docs).
pub fn greedy_move(b: &FourBoard, rng: &mut Rng) -> Pos {
    let mode = b.mode();
    let c = b.to_move();
    let team = mode.team_of(c);
    let empty: Vec<Pos> = b
        .points()
        .iter()
        .copied()
        .filter(|&p| b.is_empty(p))
        .collect();
    if b.stone_count() == 0 {
        return Pos::new(b.width() / 2, b.height() / 2);
    }
    let gift = |p: Pos| b.winner_if(p).is_some_and(|w| mode.team(w) != team);
    // 1. Win.
    if let Some(&p) = empty
        .iter()
        .find(|&&p| b.winner_if(p).is_some_and(|w| mode.team(w) == team))
    {
        return p;
    }
    // 2. Block, the most urgent colour first.
    for k in 1..4 {
        let o = c.after(k);
        if mode.team_of(o) == team {
            continue;
        }
        let foe = mode.team_of(o);
        let threats: Vec<Pos> = empty
            .iter()
            .copied()
            .filter(|&p| b.winner_if_color(p, o).is_some_and(|w| mode.team(w) == foe))
            .filter(|&p| !gift(p))
            .collect();
        if !threats.is_empty() {
            return threats[rng.below(threats.len())];
        }
    }
    // 3. Best shape among the points near stones.
    let mut best = Vec::new();
    let mut best_score = i64::MIN;
    for &p in &empty {
        if b.near(p) == 0 || gift(p) {
            continue;
        }
        let s = shape(b, p, c);
        if s > best_score {
            best_score = s;
            best.clear();
        }
        if s == best_score {
            best.push(p);
        }
    }
    if best.is_empty() {
        return empty
            .iter()
            .copied()
            .find(|&p| !gift(p))
            .unwrap_or(empty[0]);
    }
    best[rng.below(best.len())]
}

/// Plays a game from `opening` (stones in play order), `choose(seat_player, board)` giving
/// each move; returns the outcome and the number of stones.
pub fn play(
    width: usize,
    mode: Mode,
    opening: &[Pos],
    mut choose: impl FnMut(usize, &FourBoard) -> Pos,
) -> (Outcome, FourBoard) {
    let mut b = FourBoard::new(width, width, mode, false).unwrap();
    for &p in opening {
        assert!(b.play_judged(p).is_none(), "opening ends the game");
    }
    loop {
        let c = b.to_move();
        let p = choose(mode.owner(c), &b);
        assert!(b.contains(p) && b.is_empty(p), "illegal move {p}");
        if let Some(o) = b.play_judged(p) {
            return (o, b);
        }
    }
}

/// A random opening of `n` stones within the central 5x5 square.
pub fn random_opening(width: usize, n: usize, rng: &mut Rng) -> Vec<Pos> {
    let c = width / 2;
    let mut v: Vec<Pos> = Vec::new();
    while v.len() < n {
        let p = Pos::new(c - 2 + rng.below(5), c - 2 + rng.below(5));
        if !v.contains(&p) {
            v.push(p);
        }
    }
    v
}
