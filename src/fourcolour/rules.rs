//! The rules of four-colour gomoku (`docs/fourcolour.md` §1–§3): the four stone colours and their cyclic order, the 28 winning colourings of
//! five consecutive points, who owns which colour in each mode, and the Decision for a move
//! that completes structures of several owners.
//!
//! Everything here is small, pure and independent of the board: [`window_winner`] reads
//! five colours, [`Mode`] maps colours to players and players to teams, [`decide`] picks the
//! one winner of a move.

use std::fmt;

/// A stone colour of the four-colour game. The discriminants are the protocol's colour
/// numbers (`x,y,c` body lines): 1 black, 2 white, 3 purple, 4 green. Stones are placed in
/// this cyclic order whoever owns them: the `k`-th stone (0-based) has colour `k mod 4 + 1`
/// ([`Color::of_ply`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    /// Colour 1, placed first.
    Black = 1,
    /// Colour 2.
    White = 2,
    /// Colour 3.
    Purple = 3,
    /// Colour 4.
    Green = 4,
}

impl Color {
    /// The four colours in play order.
    pub const ALL: [Color; 4] = [Color::Black, Color::White, Color::Purple, Color::Green];

    /// The colour of number `n` (1..=4), `None` otherwise.
    pub fn from_number(n: i64) -> Option<Color> {
        match n {
            1 => Some(Color::Black),
            2 => Some(Color::White),
            3 => Some(Color::Purple),
            4 => Some(Color::Green),
            _ => None,
        }
    }

    /// The protocol number, 1..=4.
    #[inline]
    pub fn number(self) -> u8 {
        self as u8
    }

    /// 0-based index (black 0 .. green 3), for arrays of four.
    #[inline]
    pub fn index(self) -> usize {
        self as usize - 1
    }

    /// The colour of the stone placed at 0-based ply `ply` (black at ply 0).
    #[inline]
    pub fn of_ply(ply: usize) -> Color {
        Color::ALL[ply % 4]
    }

    /// The colour placed after this one (green is followed by black).
    #[inline]
    pub fn next(self) -> Color {
        self.after(1)
    }

    /// The colour `k` places after this one in the cyclic order.
    #[inline]
    pub fn after(self, k: usize) -> Color {
        Color::ALL[(self.index() + k) % 4]
    }

    /// Lower-case English name (`black`, `white`, `purple`, `green`).
    pub fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
            Color::Purple => "purple",
            Color::Green => "green",
        }
    }

    /// One-letter tag used in diagrams and records: `B`, `W`, `P`, `G`.
    pub fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
            Color::Purple => 'P',
            Color::Green => 'G',
        }
    }

    /// Parses a colour number (`1`..`4`), a name or a letter (any case).
    pub fn parse(s: &str) -> Option<Color> {
        match s.trim().to_ascii_lowercase().as_str() {
            "1" | "black" | "b" => Some(Color::Black),
            "2" | "white" | "w" => Some(Color::White),
            "3" | "purple" | "p" => Some(Color::Purple),
            "4" | "green" | "g" => Some(Color::Green),
            _ => None,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The 24 four-tone fives `a b c d a` (`a b c d` a permutation of `1 2 3 4`), as colour
/// numbers, in the order `docs/fourcolour.md` §2 lists them. Each wins for the owner of
/// its end colour `a`. The set reads the same from either end.
pub const FOUR_TONE_FIVES: [[u8; 5]; 24] = [
    [1, 2, 3, 4, 1],
    [1, 2, 4, 3, 1],
    [1, 3, 2, 4, 1],
    [1, 3, 4, 2, 1],
    [1, 4, 2, 3, 1],
    [1, 4, 3, 2, 1],
    [2, 1, 3, 4, 2],
    [2, 1, 4, 3, 2],
    [2, 3, 1, 4, 2],
    [2, 3, 4, 1, 2],
    [2, 4, 1, 3, 2],
    [2, 4, 3, 1, 2],
    [3, 1, 2, 4, 3],
    [3, 1, 4, 2, 3],
    [3, 2, 1, 4, 3],
    [3, 2, 4, 1, 3],
    [3, 4, 1, 2, 3],
    [3, 4, 2, 1, 3],
    [4, 1, 2, 3, 4],
    [4, 1, 3, 2, 4],
    [4, 2, 1, 3, 4],
    [4, 2, 3, 1, 4],
    [4, 3, 1, 2, 4],
    [4, 3, 2, 1, 4],
];

/// Whether five colour numbers (1..=4) read as a four-tone five `a b c d a`.
pub fn is_four_tone(w: &[u8; 5]) -> bool {
    if w[0] != w[4] {
        return false;
    }
    let mut seen = 0u8;
    for &c in &w[..4] {
        if !(1..=4).contains(&c) {
            return false;
        }
        seen |= 1 << c;
    }
    seen == 0b11110
}

/// Powers of five: the weight of a window's slot `i` in its code.
pub const POW5: [u16; 5] = [1, 5, 25, 125, 625];
/// Number of window codes (5^5).
pub const CODES: usize = 3125;

/// The decoded colours of a window code, slot 0 first.
pub fn decode(code: usize) -> [u8; 5] {
    std::array::from_fn(|i| ((code / POW5[i] as usize) % 5) as u8)
}

/// The winning colour of five consecutive points on one line, read in either direction:
/// `Some(c)` when all five hold colour `c` (a one-colour five) or when they read
/// `c x y z c` with `c x y z` a permutation of the four colours (a four-tone five);
/// `None` otherwise (an empty point, `0`, never wins). Whether a one-colour five inside a
/// longer run wins depends on the exact-five option and is decided by the board, which
/// sees the whole run (`docs/fourcolour.md` §2).
pub fn window_winner(w: &[u8; 5]) -> Option<Color> {
    let c = Color::from_number(w[0] as i64)?;
    if w.iter().all(|&x| x == w[0]) || is_four_tone(w) {
        Some(c)
    } else {
        None
    }
}

/// A player: a seat at the table, 0-based in seating order (the owner of black is
/// player 0). Each mode fixes which colours a player owns ([`Mode::owner`]).
pub type Player = usize;

/// Who owns which colour, and who plays with whom (`docs/fourcolour.md` §3). The protocol names are `2p`, `1v2`, `1v3`, `2v2`, `ffa`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Two players: player 0 owns black and purple, player 1 white and green.
    TwoPlayers,
    /// Three players, one against two: player 0 (A) owns black and purple, player 1 (B)
    /// white, player 2 (C) green; B and C are a team.
    OneVsTwo,
    /// Four players, one colour each (player `i` owns colour `i + 1`); black alone against
    /// the other three, who are a team.
    OneVsThree,
    /// Four players, one colour each; black and purple against white and green.
    TwoVsTwo,
    /// Four players, one colour each, each for itself.
    FreeForAll,
}

impl Mode {
    /// Every mode, in the order of the protocol documentation.
    pub const ALL: [Mode; 5] = [
        Mode::TwoPlayers,
        Mode::OneVsTwo,
        Mode::OneVsThree,
        Mode::TwoVsTwo,
        Mode::FreeForAll,
    ];

    /// Parses a protocol/CLI mode name: `2p`, `1v2`, `1v3`, `2v2`, `ffa` (any case).
    pub fn parse(s: &str) -> Option<Mode> {
        match s.trim().to_ascii_lowercase().as_str() {
            "2p" => Some(Mode::TwoPlayers),
            "1v2" => Some(Mode::OneVsTwo),
            "1v3" => Some(Mode::OneVsThree),
            "2v2" => Some(Mode::TwoVsTwo),
            "ffa" => Some(Mode::FreeForAll),
            _ => None,
        }
    }

    /// The protocol name (`2p`, `1v2`, `1v3`, `2v2`, `ffa`).
    pub fn name(self) -> &'static str {
        match self {
            Mode::TwoPlayers => "2p",
            Mode::OneVsTwo => "1v2",
            Mode::OneVsThree => "1v3",
            Mode::TwoVsTwo => "2v2",
            Mode::FreeForAll => "ffa",
        }
    }

    /// Number of players (seats): 2, 3 or 4.
    pub fn players(self) -> usize {
        match self {
            Mode::TwoPlayers => 2,
            Mode::OneVsTwo => 3,
            _ => 4,
        }
    }

    /// Number of teams: 4 in free-for-all, 2 otherwise.
    pub fn teams(self) -> usize {
        match self {
            Mode::FreeForAll => 4,
            _ => 2,
        }
    }

    /// Whether the game is between two sides (every mode but free-for-all).
    pub fn two_sides(self) -> bool {
        self != Mode::FreeForAll
    }

    /// The player who owns colour `c`.
    pub fn owner(self, c: Color) -> Player {
        match self {
            Mode::TwoPlayers => c.index() % 2,
            Mode::OneVsTwo => [0, 1, 0, 2][c.index()],
            _ => c.index(),
        }
    }

    /// The team of player `p` (0-based): the owner of black is always in team 0.
    pub fn team(self, p: Player) -> usize {
        match self {
            Mode::TwoPlayers => p,
            Mode::OneVsTwo | Mode::OneVsThree => usize::from(p != 0),
            Mode::TwoVsTwo => p % 2,
            Mode::FreeForAll => p,
        }
    }

    /// The team that owns colour `c`.
    pub fn team_of(self, c: Color) -> usize {
        self.team(self.owner(c))
    }

    /// The colours player `p` owns, in play order.
    pub fn colors_of(self, p: Player) -> Vec<Color> {
        Color::ALL
            .into_iter()
            .filter(|&c| self.owner(c) == p)
            .collect()
    }

    /// The players of team `t`.
    pub fn members(self, t: usize) -> Vec<Player> {
        (0..self.players()).filter(|&p| self.team(p) == t).collect()
    }

    /// A short description of player `p` for messages and records, e.g.
    /// `player 1 (black+purple)`.
    pub fn describe_player(self, p: Player) -> String {
        let cols: Vec<&str> = self.colors_of(p).iter().map(|c| c.name()).collect();
        format!("player {} ({})", p + 1, cols.join("+"))
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The winner of a move (`docs/fourcolour.md` §2, "Several owners at once"):
/// `winners` is the set of winning colours of the structures the move completed (bit `c`
/// set for colour number `c`, as returned by `FourBoard::winning_colors_if`), `mover` the
/// colour of the stone placed. Each structure wins for the owner of its winning colour,
/// whoever completed it. When the owners differ, the mover's owner wins if it is among
/// them; otherwise the first of them in turn order after the mover (the owners of the
/// colours `mover + 1`, `mover + 2`, `mover + 3` in that order). Owners are players, not
/// teams; the winner's team wins the game. `None` when `winners` is empty.
pub fn decide(mode: Mode, mover: Color, winners: u8) -> Option<Player> {
    if winners & 0b11110 == 0 {
        return None;
    }
    let owns = |p: Player| {
        Color::ALL
            .iter()
            .any(|&c| winners & (1 << c.number()) != 0 && mode.owner(c) == p)
    };
    let me = mode.owner(mover);
    if owns(me) {
        return Some(me);
    }
    (1..4)
        .map(|k| mode.owner(mover.after(k)))
        .find(|&p| owns(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_order() {
        assert_eq!(Color::of_ply(0), Color::Black);
        assert_eq!(Color::of_ply(5), Color::White);
        assert_eq!(Color::Green.next(), Color::Black);
        assert_eq!(Color::Black.next(), Color::White);
        assert_eq!(Color::Purple.next(), Color::Green);
        assert_eq!(Color::White.after(3), Color::Black);
        for c in Color::ALL {
            assert_eq!(Color::from_number(c.number() as i64), Some(c));
            assert_eq!(Color::parse(c.name()), Some(c));
        }
    }

    #[test]
    fn the_list_is_every_permutation_once() {
        let mut all = Vec::new();
        for a in 1..=4u8 {
            for b in 1..=4u8 {
                for c in 1..=4u8 {
                    for d in 1..=4u8 {
                        let w = [a, b, c, d, a];
                        if is_four_tone(&w) {
                            all.push(w);
                        }
                    }
                }
            }
        }
        assert_eq!(all.len(), 24);
        let mut listed = FOUR_TONE_FIVES.to_vec();
        listed.sort();
        assert_eq!(listed, all);
        // Read from either end, the set is the same.
        for w in FOUR_TONE_FIVES {
            let mut r = w;
            r.reverse();
            assert!(FOUR_TONE_FIVES.contains(&r));
        }
        // 28 of the 1024 colourings win.
        let mut wins = 0;
        for code in 0..1024u32 {
            let w: [u8; 5] = std::array::from_fn(|i| ((code >> (2 * i)) & 3) as u8 + 1);
            if window_winner(&w).is_some() {
                wins += 1;
            }
        }
        assert_eq!(wins, 28);
    }

    #[test]
    fn owners_and_teams() {
        use Color::*;
        let m = Mode::TwoPlayers;
        assert_eq!(
            [
                m.owner(Black),
                m.owner(White),
                m.owner(Purple),
                m.owner(Green)
            ],
            [0, 1, 0, 1]
        );
        let m = Mode::OneVsTwo;
        assert_eq!(
            [
                m.owner(Black),
                m.owner(White),
                m.owner(Purple),
                m.owner(Green)
            ],
            [0, 1, 0, 2]
        );
        assert_eq!([m.team(0), m.team(1), m.team(2)], [0, 1, 1]);
        let m = Mode::OneVsThree;
        assert_eq!(m.members(1), vec![1, 2, 3]);
        let m = Mode::TwoVsTwo;
        assert_eq!(m.members(0), vec![0, 2]);
        assert_eq!(m.team_of(Green), 1);
        let m = Mode::FreeForAll;
        assert_eq!(m.teams(), 4);
        assert_eq!(m.describe_player(2), "player 3 (purple)");
        assert_eq!(
            Mode::TwoPlayers.describe_player(0),
            "player 1 (black+purple)"
        );
        for m in Mode::ALL {
            assert_eq!(Mode::parse(m.name()), Some(m));
        }
        assert_eq!(Mode::parse("3p"), None);
    }

    #[test]
    fn decision() {
        use Color::*;
        let bit = |c: Color| 1u8 << c.number();
        // Mover among the owners wins.
        assert_eq!(
            decide(Mode::FreeForAll, Green, bit(Black) | bit(Green)),
            Some(3)
        );
        // Otherwise the first owner after the mover in turn order.
        assert_eq!(
            decide(Mode::FreeForAll, Green, bit(Black) | bit(White)),
            Some(0)
        );
        assert_eq!(
            decide(Mode::FreeForAll, White, bit(Black) | bit(Green)),
            Some(3)
        );
        assert_eq!(
            decide(Mode::FreeForAll, White, bit(Black) | bit(Purple)),
            Some(2)
        );
        // Two players: green is owned by the second player, who is among the owners.
        assert_eq!(
            decide(Mode::TwoPlayers, Green, bit(Black) | bit(White)),
            Some(1)
        );
        // A structure completed by another owner's stone wins for its owner.
        assert_eq!(decide(Mode::TwoPlayers, Green, bit(Black)), Some(0));
        // C (green) completes structures of A and B: black, A's colour, comes next.
        assert_eq!(
            decide(Mode::OneVsTwo, Green, bit(Black) | bit(White)),
            Some(0)
        );
        // B (white) completes structures of A (black) and C (green): purple, A's, comes first.
        assert_eq!(
            decide(Mode::OneVsTwo, White, bit(Black) | bit(Green)),
            Some(0)
        );
        assert_eq!(decide(Mode::FreeForAll, Black, 0), None);
    }
}
