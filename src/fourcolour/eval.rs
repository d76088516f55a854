//! Static evaluation of four-colour positions: a shape value per window code and player,
//! summed over every window of the board (the board keeps the sums incrementally).
//!
//! A window (five consecutive points of one line) can still become a winning structure for
//! colour `a` when its stones agree with the one-colour five of `a` or with one of the
//! four-tone fives `a b c d a` (`docs/fourcolour.md` §2). With `n` stones in it (they are
//! the same `n` for every pattern they agree with), it is worth:
//! - [`OWN`]`[n]` to the owner of `a` when some agreeing pattern needs only colours of the
//!   owner's team in its empty points: the team can finish it alone (`n = 4` is a threat:
//!   the next stone of the right colour wins; `n = 3` is the four-colour cousin of a three);
//! - [`FOREIGN`]`[n]` otherwise: the structure needs a stone of an opponent, who will not
//!   place it willingly. It still counts a little: that point is poisoned for the opponent's
//!   colour (the danger of a half-built four-tone line that an opponent's stone completes,
//!   e.g. `1 2 3 _ _`, where a green stone on the fourth point hands black `1 2 3 4 _`).
//!
//! For each window and winning colour the better of the two applies; windows count for every
//! colour they could still win for, so a point inside several lines adds them up, as
//! three-and-four combinations do in two-colour play.

use super::rules::{decode, Color, Mode, CODES, FOUR_TONE_FIVES};
use once_cell::sync::Lazy;

/// Value of a window for the owner of its winning colour, by stones in it, when the owner's
/// team can finish it alone (evaluation units).
pub const OWN: [i32; 5] = [0, 2, 24, 220, 3000];
/// Value of a window that needs an opponent's stone to finish, by stones in it.
pub const FOREIGN: [i32; 5] = [0, 0, 3, 12, 40];

/// Shape values per window code: `values[code][player]`.
pub type Values = Vec<[i32; 4]>;

/// The patterns that win for colour number `a`: its one-colour five and its six four-tone
/// fives.
fn patterns(a: u8) -> impl Iterator<Item = [u8; 5]> {
    std::iter::once([a; 5]).chain(FOUR_TONE_FIVES.into_iter().filter(move |p| p[0] == a))
}

fn build(mode: Mode) -> Values {
    (0..CODES)
        .map(|code| {
            let w = decode(code);
            let n = w.iter().filter(|&&c| c != 0).count();
            let mut v = [0i32; 4];
            if n == 5 || n == 0 {
                return v;
            }
            for a in Color::ALL {
                let team = mode.team_of(a);
                let mut best = 0;
                for p in patterns(a.number()) {
                    if (0..5).any(|i| w[i] != 0 && w[i] != p[i]) {
                        continue;
                    }
                    let own = (0..5).filter(|&i| w[i] == 0).all(|i| {
                        let need = Color::from_number(p[i] as i64).expect("colour");
                        mode.team_of(need) == team
                    });
                    best = best.max(if own { OWN[n] } else { FOREIGN[n] });
                }
                v[mode.owner(a)] += best;
            }
            v
        })
        .collect()
}

static TABLES: Lazy<Vec<Values>> = Lazy::new(|| Mode::ALL.iter().map(|&m| build(m)).collect());

/// The value table of a mode (built once, on first use, for all modes: about 0.3 MB).
pub fn tables(mode: Mode) -> &'static Values {
    let i = Mode::ALL.iter().position(|&m| m == mode).expect("mode");
    &TABLES[i]
}

/// The evaluation of a position for team `team` of `mode` from per-player shape sums: the
/// team's sum minus the strongest other team's, in evaluation units. (The two-side search
/// uses it; the free-for-all search values each player's own sum, see `search.rs`.)
pub fn team_score(mode: Mode, sums: &[i32; 4], team: usize) -> i32 {
    let mut per_team = [0i32; 4];
    for (p, s) in sums.iter().enumerate().take(mode.players()) {
        per_team[mode.team(p)] += s;
    }
    let best_other = (0..mode.teams())
        .filter(|&t| t != team)
        .map(|t| per_team[t])
        .max()
        .unwrap_or(0);
    per_team[team] - best_other
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fourcolour::rules::POW5;

    fn code(w: [u8; 5]) -> usize {
        (0..5).map(|i| w[i] as usize * POW5[i] as usize).sum()
    }

    #[test]
    fn own_and_foreign_shapes() {
        let t = tables(Mode::TwoPlayers);
        // _ 2 3 4 _ : black (player 0) can finish 1 2 3 4 1 alone.
        assert_eq!(t[code([0, 2, 3, 4, 0])][0], OWN[3]);
        // 1 2 3 _ 1 needs green (player 1's): foreign for player 0.
        assert!(t[code([1, 2, 3, 0, 1])][0] >= FOREIGN[4]);
        assert!(t[code([1, 2, 3, 0, 1])][0] < OWN[3]);
        // 1 1 1 1 _ : a one-colour four.
        assert_eq!(t[code([1, 1, 1, 1, 0])][0], OWN[4]);
        assert_eq!(t[code([1, 1, 1, 1, 0])][1], 0);
        // In free-for-all black finishes _ 2 3 4 _ alone, but 1 2 _ 4 _ needs purple.
        let f = tables(Mode::FreeForAll);
        assert_eq!(f[code([0, 2, 3, 4, 0])][0], OWN[3]);
        assert_eq!(f[code([1, 2, 0, 4, 0])][0], FOREIGN[3]);
        assert_eq!(f[code([1, 2, 0, 4, 0])][2], 0);
        // Two against two: purple is black's team-mate.
        let t2 = tables(Mode::TwoVsTwo);
        assert_eq!(t2[code([1, 2, 0, 4, 1])][0], OWN[4]);
    }

    #[test]
    fn team_scores() {
        let sums = [10, 3, 5, 7];
        assert_eq!(team_score(Mode::TwoVsTwo, &sums, 0), 15 - 10);
        assert_eq!(team_score(Mode::FreeForAll, &sums, 3), 7 - 10);
        assert_eq!(team_score(Mode::OneVsThree, &sums, 0), 10 - 15);
        assert_eq!(team_score(Mode::TwoPlayers, &[4, 6, 0, 0], 1), 2);
    }
}
