//! Input framing and the reader thread (docs/protocol.md §1.2).
//!
//! Owns the byte-level view of stdin: [`LineSplitter`] cuts a byte stream into lines at CR
//! LF, LF or a lone CR, skips empty lines, tolerates invalid UTF-8 (replaced, never fatal),
//! and drops lines longer than [`LINE_CAP`] bytes (reported as [`Event::Overlong`]) without
//! ever holding more than the cap in memory. [`spawn_reader`] runs it on a thread that stamps
//! each line with the [`Instant`] its bytes arrived and ends with [`Event::Eof`].

use super::session::Event;
use std::io::{ErrorKind, Read, Write};
use std::sync::mpsc::Sender;
use std::thread::JoinHandle;
use std::time::Instant;

/// Longest accepted input line, in bytes (64 KiB); longer lines are dropped.
pub const LINE_CAP: usize = 64 * 1024;

/// Cuts bytes into line events; see the module documentation.
#[derive(Debug, Default)]
pub struct LineSplitter {
    line: Vec<u8>,
    /// Length of the current line when it went over the cap (0 = not over).
    overlong: usize,
}

impl LineSplitter {
    /// A splitter at the start of a line.
    pub fn new() -> LineSplitter {
        LineSplitter::default()
    }

    /// Feeds bytes that arrived at `at`; returns the events for every line they complete.
    pub fn push(&mut self, bytes: &[u8], at: Instant) -> Vec<Event> {
        let mut out = Vec::new();
        for &b in bytes {
            if b == b'\n' || b == b'\r' {
                self.end_line(at, &mut out);
            } else if self.overlong > 0 {
                self.overlong += 1;
            } else if self.line.len() >= LINE_CAP {
                self.overlong = self.line.len() + 1;
                self.line = Vec::new();
            } else {
                self.line.push(b);
            }
        }
        out
    }

    /// Ends the input: a last line without a line ending is still delivered, then
    /// [`Event::Eof`].
    pub fn finish(&mut self, at: Instant) -> Vec<Event> {
        let mut out = Vec::new();
        self.end_line(at, &mut out);
        out.push(Event::Eof);
        out
    }

    fn end_line(&mut self, at: Instant, out: &mut Vec<Event>) {
        if self.overlong > 0 {
            out.push(Event::Overlong {
                bytes: self.overlong,
            });
            self.overlong = 0;
        } else if !self.line.is_empty() {
            let text = String::from_utf8_lossy(&self.line).into_owned();
            self.line.clear();
            if !text.trim().is_empty() {
                out.push(Event::Line { text, at });
            }
        }
    }
}

/// Starts the reader thread: reads `input` until end of file or a read error, sending line
/// events to `tx` and finally [`Event::Eof`]. The thread ends early if the receiver is gone.
pub fn spawn_reader<R: Read + Send + 'static>(
    mut input: R,
    tx: Sender<Event>,
) -> std::io::Result<JoinHandle<()>> {
    std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || {
            let mut splitter = LineSplitter::new();
            let mut buf = vec![0u8; 16 * 1024];
            loop {
                let n = match input.read(&mut buf) {
                    Ok(0) => break,
                    Ok(n) => n,
                    Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                    Err(_) => break,
                };
                let at = Instant::now();
                for ev in splitter.push(&buf[..n], at) {
                    if tx.send(ev).is_err() {
                        return;
                    }
                }
            }
            for ev in splitter.finish(Instant::now()) {
                let _ = tx.send(ev);
            }
        })
}

/// A writer that ends every line with CR LF: each `\n` written becomes `\r\n`. The engine
/// writes its replies through it on Windows, where managers and their C runtimes expect
/// text lines so ended (docs/protocol.md §1.2); elsewhere lines end with `\n` alone.
pub struct CrLf<W: Write>(pub W);

impl<W: Write> Write for CrLf<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        for (k, part) in buf.split(|&b| b == b'\n').enumerate() {
            if k > 0 {
                self.0.write_all(b"\r\n")?;
            }
            self.0.write_all(part)?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crlf_ends_every_line_with_cr_lf() {
        let mut w = CrLf(Vec::new());
        w.write_all(b"OK\n7,7\nMESSAGE a").unwrap();
        w.write_all(b" b\n\n").unwrap();
        assert_eq!(w.0, b"OK\r\n7,7\r\nMESSAGE a b\r\n\r\n");
    }

    fn lines(evs: &[Event]) -> Vec<String> {
        evs.iter()
            .map(|e| match e {
                Event::Line { text, .. } => text.clone(),
                Event::Overlong { bytes } => format!("<overlong {}>", bytes),
                Event::Eof => "<eof>".to_string(),
                _ => "<other>".to_string(),
            })
            .collect()
    }

    #[test]
    fn mixed_endings() {
        let mut s = LineSplitter::new();
        let now = Instant::now();
        let mut evs = s.push(b"START 15\r\nBOARD\n7,7,1\r8,8,2\r\n\r\n\nDO", now);
        evs.extend(s.push(b"NE\r", now));
        evs.extend(s.push(b"END", now));
        evs.extend(s.finish(now));
        assert_eq!(
            lines(&evs),
            ["START 15", "BOARD", "7,7,1", "8,8,2", "DONE", "END", "<eof>"]
        );
    }

    #[test]
    fn overlong_and_binary() {
        let mut s = LineSplitter::new();
        let now = Instant::now();
        let big = vec![b'x'; LINE_CAP + 10];
        let mut evs = s.push(&big, now);
        evs.extend(s.push(b"\nab\xff\xfe\n", now));
        evs.extend(s.finish(now));
        assert_eq!(
            lines(&evs),
            [
                format!("<overlong {}>", LINE_CAP + 10),
                "ab\u{fffd}\u{fffd}".into(),
                "<eof>".into()
            ]
        );
        // Exactly at the cap is still a line.
        let mut s = LineSplitter::new();
        let mut evs = s.push(&vec![b'y'; LINE_CAP], now);
        evs.extend(s.push(b"\n", now));
        assert!(matches!(&evs[..], [Event::Line { text, .. }] if text.len() == LINE_CAP));
    }
}
