//! A closed output pipe ends the program quietly (`pbrain-tianyuan bench | head -1`).
//!
//! Rust ignores SIGPIPE, so printing to a pipe whose reader has gone fails, and `println!`
//! panics on the failure. Restoring SIGPIPE would also kill `match` when an engine it feeds
//! dies, so instead a panic hook recognises the print failure and exits with status 141
//! (128 + SIGPIPE, what a shell reports for a C program ended by a closed pipe), without a
//! message. Every other panic goes to the hook that was there before.

/// Exit status after a closed output pipe: 128 + SIGPIPE.
pub const EXIT_CLOSED_PIPE: i32 = 141;

/// Installs the hook (call once, at the start of `main`).
pub fn quiet_on_closed_pipe() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let text = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if is_closed_pipe_print(text) {
            std::process::exit(EXIT_CLOSED_PIPE);
        }
        previous(info);
    }));
}

/// Whether a panic message is the standard library's print failure on a closed pipe
/// (`failed printing to stdout: Broken pipe (os error 32)`; on Windows the pipe errors 109
/// and 232).
pub fn is_closed_pipe_print(message: &str) -> bool {
    message.starts_with("failed printing to std")
        && [
            "Broken pipe",
            "os error 32)",
            "os error 109)",
            "os error 232)",
        ]
        .iter()
        .any(|m| message.contains(m))
}

#[cfg(test)]
mod tests {
    use super::is_closed_pipe_print;

    #[test]
    fn only_print_failures_on_a_closed_pipe_are_recognised() {
        assert!(is_closed_pipe_print(
            "failed printing to stdout: Broken pipe (os error 32)"
        ));
        assert!(is_closed_pipe_print(
            "failed printing to stderr: The pipe is being closed. (os error 232)"
        ));
        assert!(!is_closed_pipe_print(
            "failed printing to stdout: No space left on device (os error 28)"
        ));
        assert!(!is_closed_pipe_print(
            "called `Result::unwrap()` on a Broken pipe"
        ));
    }
}
