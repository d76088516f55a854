//! VCT placeholder.
use super::vcf::VcfOutcome;
use crate::board::Board;
use std::sync::atomic::AtomicBool;
/// Placeholder.
pub fn vct(
    _board: &mut Board,
    _max_nodes: u64,
    _deadline: Option<std::time::Instant>,
    _stop: &AtomicBool,
) -> VcfOutcome {
    VcfOutcome::Unknown
}
