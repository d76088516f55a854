//! Threat-space search entry points: the VCF and VCT solvers and the `solve` tool.

#[path = "vcf.rs"]
pub mod vcf;
#[path = "vct.rs"]
pub mod vct;

use crate::cli::PositionArgs;
use clap::Args;
pub use vcf::{vcf, VcfOutcome, VcfSolver};
pub use vct::vct;

/// Arguments of `pbrain-tianyuan solve`.
#[derive(Args, Debug, Clone)]
pub struct SolveArgs {
    #[command(flatten)]
    /// The position.
    pub pos: PositionArgs,
    /// Search for a VCT (continuous threats) instead of a VCF.
    #[arg(long)]
    pub vct: bool,
    /// Time limit in milliseconds.
    #[arg(long, default_value_t = 5000)]
    pub time_ms: u64,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Runs `solve`; returns the exit status.
pub fn solve_cli(_args: &SolveArgs) -> i32 {
    0
}
