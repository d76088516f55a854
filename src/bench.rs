//! The `bench` signature: fixed positions searched to a fixed depth on one thread
//! (placeholder until the search lands).

use clap::Args;

/// Arguments of `pbrain-tianyuan bench`.
#[derive(Args, Debug, Clone)]
pub struct BenchArgs {
    /// Depth in plies for every position.
    #[arg(long)]
    pub depth: Option<i32>,
}

/// Runs the bench; returns the exit status.
pub fn run(_args: &BenchArgs) -> i32 {
    0
}
