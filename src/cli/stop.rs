//! Stopping a tool's long search from outside: Ctrl-C (SIGINT), SIGTERM or SIGHUP raise a
//! flag the search watches, so that the tool prints what it has (the last completed
//! iteration) instead of dying with nothing; a second signal exits at once (status 130).
//! Windows has Ctrl-C only.

use std::sync::atomic::{AtomicBool, Ordering};

/// Raised by the first signal.
static STOP: AtomicBool = AtomicBool::new(false);

/// Exit status of a tool stopped this way (128 + SIGINT, as shells report Ctrl-C).
pub const EXIT_STOPPED: i32 = 130;

/// Installs the handlers (once per process) and returns the flag they raise. If they cannot
/// be installed the signals keep their default effect (the tool dies).
pub fn flag_raised_by_signals() -> &'static AtomicBool {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(install);
    &STOP
}

/// Whether a signal has raised the flag.
pub fn stopped() -> bool {
    STOP.load(Ordering::SeqCst)
}

#[cfg(unix)]
fn install() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    use signal_hook::flag;
    for s in [SIGINT, SIGTERM, SIGHUP] {
        // The exit goes first: it acts only once the flag is already up (a second signal).
        let _ = flag::register_conditional_shutdown(s, EXIT_STOPPED, &STOP);
        let _ = flag::register(s, &STOP);
    }
}

#[cfg(not(unix))]
fn install() {
    let _ = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(EXIT_STOPPED);
        }
    });
}
