//! Four-colour gomoku for two to four players (`docs/fourcolour.md`).
//!
//! Four stone colours — 1 black, 2 white, 3 purple, 4 green — are placed in that cyclic
//! order whoever owns them. Five of one colour in a row wins for the colour's owner, and so
//! does a four-tone five `a b c d a` (`a b c d` a permutation of the four colours) for the
//! owner of `a`. The mode ([`Mode`]) says who owns which colour and who plays with whom.
//!
//! The variant has its own board, evaluation and search, apart from the two-colour hot path
//! (`crate::board`, `crate::search`), and shares only points and notation
//! ([`crate::core`]) and time budgets ([`crate::time`]):
//! - [`rules`]: colours, modes, the 24 four-tone fives, the Decision between several owners;
//! - [`board`]: the position, window codes, win detection, incremental shape sums;
//! - [`eval`]: shape values of windows per mode and player;
//! - [`search`]: team-aware alpha-beta for two sides, max-n for free-for-all, threat logic.
//!
//! The protocol extension (`INFO variant`, `INFO mode`, `x,y,c` bodies) lives in
//! `crate::protocol`, the referee in `crate::arena::fourcolour`, the `analyze` tool in
//! `crate::cli`.

pub mod board;
pub mod eval;
pub mod rules;
pub mod search;

pub use board::{FourBoard, Outcome, PositionError};
pub use rules::{decide, window_winner, Color, Mode, Player, FOUR_TONE_FIVES};
pub use search::{quick_move, Limits, SearchResult, Searcher};
