//! Every tool ends quietly when the reader of its output goes away (`pbrain-tianyuan bench |
//! head -1`): no panic message, no backtrace, exit status 141 (128 + SIGPIPE, what a shell
//! reports for a program ended by a closed pipe; the protocol engine: its documented 1).
//!
//! The test closes the reading end of the tool's stdout before the tool writes anything, so
//! its first line meets the closed pipe whatever the timing. The runs take turns: a child
//! spawned meanwhile by another test thread would inherit the reading end between its fork
//! and its exec, and a tool that wrote then would find a reader.

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs the binary with `args`, its stdout already closed and `input` on stdin; returns the
/// exit status and stderr.
fn run_closed(args: &[&str], input: &str) -> (Option<i32>, String) {
    static TURN: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-tianyuan"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(input.as_bytes());
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn assert_quiet(args: &[&str], input: &str) {
    let (code, err) = run_closed(args, input);
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert!(err.is_empty(), "{args:?}: {err}");
    assert_eq!(code, Some(141), "{args:?}: {err}");
}

#[test]
fn bench_and_demo_end_quietly_on_a_closed_pipe() {
    assert_quiet(&["bench", "--depth", "1"], "");
    assert_quiet(&["demo", "--move-ms", "5", "--max-moves", "2"], "");
}

#[test]
fn position_tools_end_quietly_on_a_closed_pipe() {
    assert_quiet(&["analyze", "--moves", "h8,h9", "--depth", "1"], "");
    assert_quiet(
        &[
            "solve",
            "--rule",
            "freestyle",
            "--moves",
            "h8,h9,i8,i9,j8,a1",
        ],
        "",
    );
    assert_quiet(
        &["forbidden", "--moves", "h8,a1,i8,a3,j8,a5,l8,a7,m8,a9"],
        "",
    );
    assert_quiet(&["openings", "identify", "--moves", "h8,h9,i10"], "");
    assert_quiet(&["play", "--engine", "none"], "quit\n");
}

/// The protocol engine keeps its own, documented status 1 (docs/protocol.md §1.1): it
/// never writes to stderr and never panics.
#[test]
fn the_protocol_engine_ends_quietly_on_a_closed_pipe() {
    let (code, err) = run_closed(&[], "ABOUT\nSTART 15\nBEGIN\n");
    assert!(err.is_empty(), "{err}");
    assert_eq!(code, Some(1));
}
