//! The Piskvork/Gomocup protocol on stdin/stdout (docs/protocol.md; docs/architecture.md §5).
//!
//! Owns everything between the manager's text and the [`crate::engine::Engine`]:
//! - [`parse`]: lines to [`Command`]s (pure, typed [`ParseError`]s);
//! - [`session`]: the executor ([`Session`]) holding the game, the `INFO` settings and the
//!   running search job;
//! - [`mod@format`]: reply lines and the single output writer;
//! - [`swap2`]: swap2 opening decisions (now [`crate::opening::swap2`], re-exported here);
//! - [`io`]: line framing and the stdin reader thread.
//!
//! Threads: the reader thread turns stdin into [`Event`]s; the main thread runs the
//! [`Session`] and is the only writer of stdout; each search runs on its own thread and
//! reports back through the same channel, so `YXSTOP`, `END`, `INFO` and `ABOUT` are handled
//! while it thinks (docs/protocol.md §1.7, §7 items 22–28). Nothing is ever written to stderr.

pub mod format;
pub mod io;
pub mod parse;
pub mod quick;
pub mod session;
pub use crate::opening::swap2;

pub use parse::{parse_line, Command, ParseError};
pub use session::{Brain, Event, Flow, Session, Settings};

use crate::engine::Engine;

/// Runs the protocol loop on stdin/stdout until `END` or end of input; returns the exit
/// code: 0 normally, 1 if stdout broke or the reader thread could not start.
///
/// Installs a panic hook that prints nothing (docs/protocol.md §1.1: stderr may be the manager's
/// input). Prints nothing before the first command.
pub fn run_stdio() -> i32 {
    std::panic::set_hook(Box::new(|_| {}));
    let stdout = std::io::stdout();
    // Windows managers read text lines ended by CR LF (docs/protocol.md §1.2).
    #[cfg(windows)]
    let stdout = io::CrLf(stdout.lock());
    #[cfg(not(windows))]
    let stdout = stdout.lock();
    let mut session = Session::new(Engine::default(), stdout);
    if io::spawn_reader(std::io::stdin(), session.sender()).is_err() {
        return 1;
    }
    session.run()
}
