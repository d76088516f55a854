//! Opening rules: knowledge of the 26 renju openings, balanced opening suites, and the
//! decisions of every opening rule made by search (docs/openings.md).
//!
//! Layer: above [`crate::engine`], below the protocol, the arena and the CLI; nothing here
//! reads or writes protocol text. Parts:
//! - [`symmetry`]: the eight grid symmetries, board and pattern symmetry;
//! - [`renju26`]: the 26 openings and their recognition under all symmetries;
//! - [`eval`]: the one evaluation decisions share ("how good is this position for each
//!   colour", from a search, with its line) and the time split between searches;
//! - [`mod@decide`]: the decisions of each rule: swap after move 3, fifth-move offers and the
//!   choice among them, Soosorv-8, Swap1, five-stone swap, continuous swap, and Swap2
//!   through [`swap2`];
//! - [`suite`]: balanced opening suites and their file formats.

pub mod decide;
pub mod eval;
pub mod renju26;
pub mod suite;
pub mod swap2;
pub mod symmetry;

pub use decide::{decide, decide_on, Action, Considered, Decision, OpeningError, Request};
pub use eval::{EngineSearch, Eval, Evaluator, Probe, Search};

use std::fmt;

/// An opening rule (docs/openings.md §2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OpeningRule {
    /// Swap2: three stones, then swap, stay white, or two more stones and the opener chooses.
    Swap2,
    /// The 26 openings with a swap after move 3 and N fifth-move offers (RIF / Yamaguchi;
    /// N = 2 is the classic five-move two-offer).
    Rif,
    /// Soosorv-8: an opening of the 26, swap, white's move 4 with N (1..8), swap, N offers,
    /// the choice and move 6.
    Soosorv8,
    /// Swap1: one black stone, then the other player chooses a colour.
    Swap1,
    /// Five-stone swap: three black and two white stones anywhere, then the other player
    /// chooses a colour.
    Swap5,
    /// Continuous swap: during the first five stones the player to move places one stone or
    /// two (one of each colour); after two the opponent chooses a colour.
    ContinuousSwap,
}

impl OpeningRule {
    /// Every rule, in a fixed order.
    pub const ALL: [OpeningRule; 6] = [
        OpeningRule::Swap2,
        OpeningRule::Rif,
        OpeningRule::Soosorv8,
        OpeningRule::Swap1,
        OpeningRule::Swap5,
        OpeningRule::ContinuousSwap,
    ];

    /// Lower-case name as accepted by [`OpeningRule::parse`].
    pub fn name(self) -> &'static str {
        match self {
            OpeningRule::Swap2 => "swap2",
            OpeningRule::Rif => "rif",
            OpeningRule::Soosorv8 => "soosorv8",
            OpeningRule::Swap1 => "swap1",
            OpeningRule::Swap5 => "swap5",
            OpeningRule::ContinuousSwap => "cswap",
        }
    }

    /// Parses a rule name (any case): `swap2`, `rif` (or `yamaguchi`, `swap3`), `soosorv8`
    /// (or `soosorv`, `soosorv-8`), `swap1`, `swap5` (or `five-stone-swap`), `cswap` (or
    /// `continuous-swap`).
    pub fn parse(s: &str) -> Option<OpeningRule> {
        match s.to_ascii_lowercase().as_str() {
            "swap2" => Some(OpeningRule::Swap2),
            "rif" | "yamaguchi" | "swap3" => Some(OpeningRule::Rif),
            "soosorv8" | "soosorv" | "soosorv-8" => Some(OpeningRule::Soosorv8),
            "swap1" => Some(OpeningRule::Swap1),
            "swap5" | "five-stone-swap" => Some(OpeningRule::Swap5),
            "cswap" | "continuous-swap" => Some(OpeningRule::ContinuousSwap),
            _ => None,
        }
    }

    /// The decision points of the rule, in the order a game meets them.
    pub fn steps(self) -> &'static [Step] {
        match self {
            OpeningRule::Swap2 => &[Step::Open, Step::Swap1, Step::Swap2],
            OpeningRule::Rif => &[Step::Open, Step::Swap1, Step::Offer, Step::Choose],
            OpeningRule::Soosorv8 => &[
                Step::Open,
                Step::Swap1,
                Step::Move4,
                Step::Swap2,
                Step::Offer,
                Step::Choose,
            ],
            OpeningRule::Swap1 | OpeningRule::Swap5 => &[Step::Open, Step::Color],
            OpeningRule::ContinuousSwap => &[Step::Place, Step::Color],
        }
    }
}

impl fmt::Display for OpeningRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A decision point of an opening rule (which ones a rule has: [`OpeningRule::steps`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// Place the opening stones on an empty board (the 26 openings: choose one).
    Open,
    /// The first swap: after move 3 (RIF, Soosorv-8) or Swap2's stage B.
    Swap1,
    /// Soosorv-8: white's move 4 and the number N of fifth-move offers.
    Move4,
    /// The second swap: Soosorv-8 after move 4 and N, or Swap2's stage C.
    Swap2,
    /// Black's N fifth-move offers.
    Offer,
    /// White keeps one offer and plays move 6.
    Choose,
    /// Choose a colour (Swap1, five-stone swap, continuous swap after a double placement).
    Color,
    /// Continuous swap: place one stone or two.
    Place,
}

impl Step {
    /// Upper-case name as used in the protocol (`OPEN`, `SWAP1`, `MOVE4`, `SWAP2`, `OFFER`,
    /// `CHOOSE`, `COLOR`, `PLACE`).
    pub fn name(self) -> &'static str {
        match self {
            Step::Open => "OPEN",
            Step::Swap1 => "SWAP1",
            Step::Move4 => "MOVE4",
            Step::Swap2 => "SWAP2",
            Step::Offer => "OFFER",
            Step::Choose => "CHOOSE",
            Step::Color => "COLOR",
            Step::Place => "PLACE",
        }
    }

    /// Parses a step name (any case); `SWAP` is `SWAP1`, `COLOUR` is `COLOR`.
    pub fn parse(s: &str) -> Option<Step> {
        match s.to_ascii_uppercase().as_str() {
            "OPEN" => Some(Step::Open),
            "SWAP1" | "SWAP" => Some(Step::Swap1),
            "MOVE4" => Some(Step::Move4),
            "SWAP2" => Some(Step::Swap2),
            "OFFER" => Some(Step::Offer),
            "CHOOSE" => Some(Step::Choose),
            "COLOR" | "COLOUR" => Some(Step::Color),
            "PLACE" => Some(Step::Place),
            _ => None,
        }
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Largest number of fifth-move offers (Soosorv-8's upper bound).
pub const MAX_OFFERS: u8 = 8;
