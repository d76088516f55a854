//! Stopping a match from outside: Ctrl-C (SIGINT), SIGTERM (what `timeout`, Slurm and
//! Kubernetes send) and SIGHUP (the terminal went away) all stop it the same way: the games
//! in progress end at once without counting, their engines are ended, and the summary of the
//! finished games is printed and written. A second signal exits at once. Windows has Ctrl-C
//! (and Ctrl-Break) only.

use std::sync::atomic::{AtomicI32, Ordering};

/// The signal that interrupted the match (0: none yet).
static INTERRUPTED_BY: AtomicI32 = AtomicI32::new(0);

/// SIGINT's number, which Windows' Ctrl-C is reported as.
const SIGINT: i32 = 2;

/// Whether the match was interrupted (by any of the signals above).
pub fn interrupted() -> bool {
    INTERRUPTED_BY.load(Ordering::SeqCst) != 0
}

/// The exit status of an interrupted match: 128 + the signal number, as shells report a
/// process ended by that signal (130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP); `None`
/// when the match was not interrupted.
pub fn exit_status() -> Option<i32> {
    match INTERRUPTED_BY.load(Ordering::SeqCst) {
        0 => None,
        s => Some(128 + s),
    }
}

/// The name of the signal that interrupted the match (`SIGINT`, `SIGTERM`, `SIGHUP`), for
/// the summary line; `None` when the match was not interrupted.
pub fn signal_name() -> Option<&'static str> {
    match INTERRUPTED_BY.load(Ordering::SeqCst) {
        0 => None,
        SIGINT => Some("SIGINT"),
        15 => Some("SIGTERM"),
        1 => Some("SIGHUP"),
        _ => Some("a signal"),
    }
}

/// Records the first signal; exits at once (status 128 + signal) on the second.
fn on_signal(signal: i32) {
    if INTERRUPTED_BY
        .compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst)
        .is_err()
    {
        std::process::exit(128 + signal);
    }
}

/// Installs the handlers (once per process; later calls and failures change nothing: the
/// match then simply dies with the signal, as before).
#[cfg(unix)]
pub fn catch_signals() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    use signal_hook::iterator::Signals;
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let Ok(mut signals) = Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
            return;
        };
        let _ = std::thread::Builder::new()
            .name("match-signals".into())
            .spawn(move || {
                for s in signals.forever() {
                    on_signal(s);
                }
            });
    });
}

/// Installs the Ctrl-C handler (once per process).
#[cfg(not(unix))]
pub fn catch_signals() {
    let _ = ctrlc::set_handler(|| on_signal(SIGINT));
}

#[cfg(test)]
mod tests {
    #[test]
    fn signal_numbers_are_the_posix_ones() {
        #[cfg(unix)]
        {
            assert_eq!(signal_hook::consts::SIGINT, super::SIGINT);
            assert_eq!(signal_hook::consts::SIGTERM, 15);
            assert_eq!(signal_hook::consts::SIGHUP, 1);
        }
    }
}
