//! The Piskvork/Gomocup protocol (placeholder; see protocol.md).

/// Runs the protocol loop on stdin/stdout until `END` or end of input; returns the exit code.
pub fn run_stdio() -> i32 {
    0
}
