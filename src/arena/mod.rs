//! Engine-against-engine matches (placeholder).

/// Command-line arguments of `pbrain-tianyuan match`.
#[derive(clap::Args, Debug, Clone)]
pub struct MatchArgs {}

/// Runs a match; returns the process exit code.
pub fn run(_args: MatchArgs) -> i32 {
    0
}
