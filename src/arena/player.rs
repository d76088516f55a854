//! One engine as a child process speaking the Piskvork protocol, seen from the manager side.
//!
//! A [`Player`] owns the process, its stdin (the manager writes requests there) and two
//! reader threads: one turns stdout into timestamped lines on a channel, one keeps the last
//! stderr lines for the game log (stderr is never parsed: docs/protocol.md §1.1 warns that
//! Piskvork merges it into stdout, but our referee keeps the protocol stream clean).
//!
//! Timing follows docs/protocol.md §1.6: the clock of a request starts just before the request
//! line is written, and a reply's time is the moment its bytes were read from the pipe (the
//! reader thread stamps them), so a busy referee thread never charges its own delay to the
//! engine.
//!
//! Replies are judged as docs/protocol.md §3.8 describes Piskvork (the strictest anchor): while a
//! move is awaited, lines starting with `MESSAGE` or `DEBUG` are skipped and the first other
//! line must be a move `x,y`; anything else is garbage and loses.

use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use thiserror::Error;

/// Longest stdout line kept, in bytes; longer lines are cut (docs/protocol.md §1.2 suggests
/// 64 KiB as an engine-side cap too).
pub const MAX_LINE_BYTES: usize = 64 * 1024;
/// Stderr lines kept per game for the log.
const STDERR_KEEP: usize = 200;

/// Errors of starting an engine or reading its command line.
#[derive(Debug, Error)]
pub enum PlayerError {
    /// The command line is empty or has an unterminated quote.
    #[error("bad engine command '{0}': {1}")]
    BadCommand(String, &'static str),
    /// The operating system could not start the program.
    #[error("cannot start engine '{cmd}': {source}")]
    Spawn {
        /// The command line as given.
        cmd: String,
        /// The OS error.
        source: io::Error,
    },
}

/// Splits a command line the way a POSIX shell splits words, without expansions: words are
/// separated by unquoted whitespace; `'...'` is literal; inside `"..."` a backslash escapes
/// `"`, `\`, `$` and `` ` ``; outside quotes a backslash escapes any character.
///
/// Errors: [`PlayerError::BadCommand`] for an empty command or an unterminated quote.
pub fn split_command(cmd: &str) -> Result<Vec<String>, PlayerError> {
    let bad = |why| PlayerError::BadCommand(cmd.to_string(), why);
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = cmd.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(ch) => cur.push(ch),
                        None => return Err(bad("unterminated single quote")),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(e @ ('"' | '\\' | '$' | '`')) => cur.push(e),
                            Some(e) => {
                                cur.push('\\');
                                cur.push(e);
                            }
                            None => return Err(bad("unterminated double quote")),
                        },
                        Some(ch) => cur.push(ch),
                        None => return Err(bad("unterminated double quote")),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(e) => cur.push(e),
                    None => return Err(bad("trailing backslash")),
                }
            }
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    if words.is_empty() {
        return Err(bad("empty command"));
    }
    Ok(words)
}

/// How to start one engine and what to tell it.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    /// The command line as given (for messages and records).
    pub command: String,
    /// Program to run.
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Extra `INFO key value` settings sent after the standard ones, in order.
    pub info: Vec<(String, String)>,
    /// Name given on the command line; when set, `ABOUT` is not asked.
    pub name: Option<String>,
}

impl EngineSpec {
    /// Parses a shell-like command line (see [`split_command`]).
    ///
    /// Errors: as [`split_command`].
    pub fn new(command: &str) -> Result<EngineSpec, PlayerError> {
        let mut words = split_command(command)?;
        let program = words.remove(0);
        Ok(EngineSpec {
            command: command.to_string(),
            program,
            args: words,
            info: Vec::new(),
            name: None,
        })
    }

    /// The executable's file name, used as the engine's name when `ABOUT` gives none.
    pub fn exe_name(&self) -> String {
        std::path::Path::new(&self.program)
            .file_name()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| self.program.clone())
    }
}

/// What the stdout reader thread reports.
enum Event {
    /// One line (without its line end), with the time its last byte was read.
    Line(Instant, String),
    /// End of file or a read error: the engine closed its stdout or died.
    Closed(Instant),
}

/// One entry of the protocol transcript.
#[derive(Clone, Debug)]
pub struct LogEntry {
    /// When, relative to the log's epoch ([`Player::start_log`]).
    pub at: Duration,
    /// `>` sent to the engine, `<` read from it, `!` stderr, `#` referee note.
    pub dir: char,
    /// The line.
    pub text: String,
}

/// A reply to a request that expects one line (`START`, `ABOUT`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// The first line that is not `MESSAGE`/`DEBUG`, and how long it took.
    Line(String, Duration),
    /// Nothing useful before the deadline.
    Timeout,
    /// The engine's stdout closed (it exited or crashed).
    Closed,
}

/// The answer to a move request (`BEGIN`, `TURN`, `BOARD`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveReply {
    /// A line of two integers `x,y` (not yet checked against the board), the time from
    /// writing the request to reading the line, and the line itself.
    Move {
        /// Column as sent.
        x: i64,
        /// Row as sent.
        y: i64,
        /// Time taken.
        elapsed: Duration,
    },
    /// A line that is neither `MESSAGE`/`DEBUG` nor a move (it loses).
    Garbage(String, Duration),
    /// No move within the limit (it loses); the limit that expired.
    Timeout(Duration),
    /// The engine's output closed or its input could not be written (it loses).
    Crash(String),
}

/// Parses a move line: two decimal integers separated by a comma, spaces allowed around
/// each number (Judge converts numbers tolerantly; docs/protocol.md §3.1), as
/// [`crate::core::parse_xy`] reads them; a number of more than 9 digits is garbage, not a
/// point. `None` otherwise.
pub fn parse_move_line(line: &str) -> Option<(i64, i64)> {
    let short = |t: &str| t.trim().trim_start_matches('-').len() <= 9;
    let (a, b) = line.split_once(',')?;
    if !short(a) || !short(b) {
        return None;
    }
    crate::core::parse_xy(line)
}

/// The `BOARD` request of a position (docs/protocol.md §2.7): one `x,y,field` line per stone
/// in the order given, field `1` for the stones of the side asked to move (`own` true) and
/// `2` for the opponent's, then `DONE`.
pub fn board_request(stones: impl IntoIterator<Item = (crate::core::Pos, bool)>) -> String {
    let mut s = String::from("BOARD\n");
    for (p, own) in stones {
        s.push_str(&format!(
            "{},{},{}\n",
            p.x(),
            p.y(),
            if own { 1 } else { 2 }
        ));
    }
    s.push_str("DONE\n");
    s
}

/// Whether a line is a `MESSAGE`/`DEBUG` line that managers skip (keyword in any case,
/// followed by a space or nothing).
pub fn is_info_line(line: &str) -> bool {
    let word = line.split(' ').next().unwrap_or("");
    word.eq_ignore_ascii_case("MESSAGE") || word.eq_ignore_ascii_case("DEBUG")
}

/// An engine process and its pipes.
pub struct Player {
    spec: Arc<EngineSpec>,
    child: Child,
    stdin: Option<ChildStdin>,
    events: Receiver<Event>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    closed: bool,
    epoch: Instant,
    log: Vec<LogEntry>,
    /// Stopped by [`Player::suspend`]; continued before the next line is written to it.
    suspended: bool,
}

impl Player {
    /// Starts the engine with piped stdin/stdout/stderr and its reader threads.
    ///
    /// Errors: [`PlayerError::Spawn`] if the program cannot be started.
    pub fn spawn(spec: Arc<EngineSpec>) -> Result<Player, PlayerError> {
        let mut command = Command::new(&spec.program);
        command
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // Its own process group: Ctrl-C in the terminal interrupts the match runner, which
        // ends the games itself, instead of killing the engines in the middle of their games.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command.spawn().map_err(|source| PlayerError::Spawn {
            cmd: spec.command.clone(),
            source,
        })?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr_pipe = child.stderr.take().expect("piped stderr");
        let (tx, rx) = mpsc::channel();
        std::thread::Builder::new()
            .name("arena-stdout".into())
            .spawn(move || read_stdout(stdout, tx))
            .expect("spawn reader thread");
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let keep = Arc::clone(&stderr);
        std::thread::Builder::new()
            .name("arena-stderr".into())
            .spawn(move || {
                let mut r = BufReader::new(stderr_pipe);
                let mut buf = Vec::new();
                while let Ok(n) = r.read_until(b'\n', &mut buf) {
                    if n == 0 {
                        break;
                    }
                    let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                    buf.clear();
                    let mut q = keep.lock().unwrap_or_else(|e| e.into_inner());
                    if q.len() >= STDERR_KEEP {
                        q.pop_front();
                    }
                    q.push_back(line);
                }
            })
            .expect("spawn stderr thread");
        Ok(Player {
            spec,
            child,
            stdin,
            events: rx,
            stderr,
            closed: false,
            epoch: Instant::now(),
            log: Vec::new(),
            suspended: false,
        })
    }

    /// The engine's specification.
    pub fn spec(&self) -> &Arc<EngineSpec> {
        &self.spec
    }

    /// The engine's process id, which is also its process group's (each engine is started
    /// in a group of its own).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Stops the engine's process group (SIGSTOP) until the next line is written to it, as
    /// the Gomocup judge suspends an engine when it is not its turn (`--judge-conditions`,
    /// [`super::judge`]).
    ///
    /// Errors: the group is gone (the engine has exited), or the system cannot do it.
    pub fn suspend(&mut self) -> io::Result<()> {
        super::judge::signal_group(self.pid(), true)?;
        self.suspended = true;
        Ok(())
    }

    /// Continues a suspended engine (SIGCONT); a no-op otherwise.
    fn resume(&mut self) {
        if self.suspended {
            self.suspended = false;
            let _ = super::judge::signal_group(self.pid(), false);
        }
    }

    /// Clears the transcript and measures its times from now.
    pub fn start_log(&mut self, epoch: Instant) {
        self.epoch = epoch;
        self.log.clear();
    }

    /// Takes the transcript collected since [`Player::start_log`], with the stderr lines
    /// seen meanwhile appended (marked `!`).
    pub fn take_log(&mut self) -> Vec<LogEntry> {
        let mut log = std::mem::take(&mut self.log);
        let at = self.epoch.elapsed();
        let mut q = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
        log.extend(q.drain(..).map(|text| LogEntry { at, dir: '!', text }));
        log
    }

    /// Adds a referee note to the transcript.
    pub fn note(&mut self, text: impl Into<String>) {
        let at = self.epoch.elapsed();
        self.log.push(LogEntry {
            at,
            dir: '#',
            text: text.into(),
        });
    }

    fn record(&mut self, at: Instant, dir: char, text: &str) {
        let at = at.saturating_duration_since(self.epoch);
        self.log.push(LogEntry {
            at,
            dir,
            text: text.to_string(),
        });
    }

    /// Writes `text` (one or more lines, each ending in `\n`) in one write and flushes,
    /// continuing a suspended engine first. Returns the instant just before the write, from
    /// which the reply is timed.
    ///
    /// Errors: the write failed (the engine closed its input or died).
    pub fn send(&mut self, text: &str) -> io::Result<Instant> {
        self.resume();
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(io::Error::new(
                io::ErrorKind::BrokenPipe,
                "engine input closed",
            ));
        };
        let start = Instant::now();
        let res = stdin.write_all(text.as_bytes()).and_then(|_| stdin.flush());
        for line in text.lines() {
            self.record(start, '>', line);
        }
        if res.is_err() {
            self.stdin = None;
        }
        res.map(|_| start)
    }

    /// The next stdout line before `deadline` (`None`: wait as long as it takes).
    fn next_line(&mut self, deadline: Option<Instant>) -> Result<(Instant, String), Reply> {
        if self.closed {
            return Err(Reply::Closed);
        }
        // Waits in slices so that an interrupted match (Ctrl-C) ends the game at once.
        const SLICE: Duration = Duration::from_millis(50);
        let ev = loop {
            if super::interrupted() {
                self.record(Instant::now(), '#', "match interrupted");
                return Err(Reply::Closed);
            }
            let wait = match deadline {
                None => SLICE,
                Some(d) => d.saturating_duration_since(Instant::now()).min(SLICE),
            };
            match self.events.recv_timeout(wait) {
                Err(RecvTimeoutError::Timeout) if deadline.is_none_or(|d| Instant::now() < d) => {
                    continue
                }
                other => break other,
            }
        };
        match ev {
            Ok(Event::Line(t, s)) => {
                self.record(t, '<', &s);
                Ok((t, s))
            }
            Ok(Event::Closed(t)) => {
                self.closed = true;
                self.record(t, '#', "engine output closed");
                Err(Reply::Closed)
            }
            Err(RecvTimeoutError::Disconnected) => {
                self.closed = true;
                Err(Reply::Closed)
            }
            Err(RecvTimeoutError::Timeout) => Err(Reply::Timeout),
        }
    }

    /// Discards lines that arrived unasked (between games); returns how many.
    pub fn drain(&mut self) -> usize {
        let mut n = 0;
        while let Ok(ev) = self.events.try_recv() {
            match ev {
                Event::Line(t, s) => {
                    self.record(t, '<', &s);
                    n += 1;
                }
                Event::Closed(t) => {
                    self.closed = true;
                    self.record(t, '#', "engine output closed");
                }
            }
        }
        n
    }

    /// Whether the engine's stdout has closed or the process has exited.
    pub fn is_dead(&mut self) -> bool {
        self.closed || self.stdin.is_none() || matches!(self.child.try_wait(), Ok(Some(_)))
    }

    /// Reads the reply to a one-line request written at `start`, skipping `MESSAGE`/`DEBUG`
    /// lines, until `limit` after `start`.
    pub fn read_reply(&mut self, start: Instant, limit: Duration) -> Reply {
        let deadline = start + limit;
        loop {
            match self.next_line(Some(deadline)) {
                Ok((t, line)) => {
                    if is_info_line(&line) {
                        continue;
                    }
                    return Reply::Line(
                        line.trim().to_string(),
                        t.saturating_duration_since(start),
                    );
                }
                Err(r) => return r,
            }
        }
    }

    /// Reads a move for a request written at `start`. With a `limit`, a move whose line
    /// arrives more than `limit` after `start` is a timeout (docs/protocol.md §4.2: Judge's
    /// `elapsed > tolerance + min(turn, match left)`; the caller folds the tolerance into
    /// `limit`); without one it waits as long as it takes.
    pub fn read_move(&mut self, start: Instant, limit: Option<Duration>) -> MoveReply {
        // The deadline is 1 ms past the limit so that a line arriving exactly at the limit
        // is still read; it is judged by its own timestamp below.
        let deadline = limit.map(|l| start + l + Duration::from_millis(1));
        loop {
            match self.next_line(deadline) {
                Ok((t, line)) => {
                    let elapsed = t.saturating_duration_since(start);
                    if let Some(l) = limit {
                        if elapsed > l {
                            return MoveReply::Timeout(l);
                        }
                    }
                    if is_info_line(&line) {
                        continue;
                    }
                    return match parse_move_line(&line) {
                        Some((x, y)) => MoveReply::Move { x, y, elapsed },
                        None => MoveReply::Garbage(line, elapsed),
                    };
                }
                Err(Reply::Timeout) => return MoveReply::Timeout(limit.unwrap_or_default()),
                Err(_) => return MoveReply::Crash(self.exit_text()),
            }
        }
    }

    /// Sends `ABOUT` and returns the `name="..."` value of the answer, if one arrives within
    /// `timeout`.
    pub fn about(&mut self, timeout: Duration) -> Option<String> {
        let start = self.send("ABOUT\n").ok()?;
        match self.read_reply(start, timeout) {
            Reply::Line(line, _) => parse_about_name(&line),
            _ => None,
        }
    }

    /// Describes how the engine ended, for crash reasons ("exited with status 3", or
    /// "output closed" if it is still running).
    pub fn exit_text(&mut self) -> String {
        // Give a process that closed its output a moment to finish exiting.
        for _ in 0..20 {
            if let Ok(Some(st)) = self.child.try_wait() {
                return format!("engine exited ({})", st);
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        if self.stdin.is_none() {
            "engine input closed".to_string()
        } else {
            "engine output closed".to_string()
        }
    }

    /// Sends `END`, waits up to `grace` for the process to exit, then kills it.
    pub fn end(mut self, grace: Duration) {
        let _ = self.send("END\n");
        self.stdin = None; // closing stdin is a second hint (docs/protocol.md §1.1)
        let deadline = Instant::now() + grace;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }

    /// Kills the process at once (after a time forfeit or to restart it) and reaps it.
    pub fn kill(&mut self) {
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.closed = true;
    }
}

impl Drop for Player {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// Reader thread: splits stdout at CR, LF or CR LF (docs/protocol.md §1.2), drops empty lines,
/// cuts lines at [`MAX_LINE_BYTES`], and stamps each line with the time it was read.
fn read_stdout(mut out: impl Read, tx: Sender<Event>) {
    let mut buf = [0u8; 8192];
    let mut line: Vec<u8> = Vec::new();
    loop {
        match out.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                let t = Instant::now();
                for &b in &buf[..n] {
                    if b == b'\n' || b == b'\r' {
                        if !line.is_empty() {
                            let s = String::from_utf8_lossy(&line).into_owned();
                            line.clear();
                            if tx.send(Event::Line(t, s)).is_err() {
                                return;
                            }
                        }
                    } else if line.len() < MAX_LINE_BYTES {
                        line.push(b);
                    }
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        }
    }
    let t = Instant::now();
    if !line.is_empty() {
        let _ = tx.send(Event::Line(t, String::from_utf8_lossy(&line).into_owned()));
    }
    let _ = tx.send(Event::Closed(t));
}

/// The `name` value of an `ABOUT` line (`name="Tianyuan", version="0.1"`), if any.
pub fn parse_about_name(line: &str) -> Option<String> {
    let lower = line.to_ascii_lowercase();
    let mut from = 0;
    while let Some(i) = lower[from..].find("name") {
        let at = from + i;
        let before_ok = at == 0 || !lower.as_bytes()[at - 1].is_ascii_alphanumeric();
        let rest = line[at + 4..].trim_start();
        if before_ok {
            if let Some(rest) = rest.strip_prefix('=') {
                let rest = rest.trim_start();
                let value = if let Some(q) = rest.strip_prefix('"') {
                    q.split('"').next().unwrap_or("")
                } else {
                    rest.split(',').next().unwrap_or("").trim()
                };
                if !value.is_empty() {
                    return Some(value.to_string());
                }
            }
        }
        from = at + 4;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_split() {
        assert_eq!(split_command("a b  c").unwrap(), ["a", "b", "c"]);
        assert_eq!(
            split_command("'/x y/e' --opt=\"q \\\" r\"").unwrap(),
            ["/x y/e", "--opt=q \" r"]
        );
        assert_eq!(split_command("a\\ b ''").unwrap(), ["a b", ""]);
        assert!(split_command("  ").is_err());
        assert!(split_command("a 'b").is_err());
        assert!(split_command("a \"b").is_err());
    }

    #[test]
    fn move_lines() {
        assert_eq!(parse_move_line("7,8"), Some((7, 8)));
        assert_eq!(parse_move_line(" 7 , 8 "), Some((7, 8)));
        assert_eq!(parse_move_line("-1,-1"), Some((-1, -1)));
        assert_eq!(parse_move_line("7,8,1"), None);
        assert_eq!(parse_move_line("7 8"), None);
        assert_eq!(parse_move_line("OK"), None);
        assert_eq!(parse_move_line("+7,8"), None);
        assert_eq!(parse_move_line("99999999999,1"), None);
        assert!(is_info_line("MESSAGE hello"));
        assert!(is_info_line("debug x"));
        assert!(is_info_line("MESSAGE"));
        assert!(!is_info_line("MESSAGES"));
        assert!(!is_info_line("7,7"));
    }

    #[test]
    fn about_names() {
        assert_eq!(
            parse_about_name("name=\"Tianyuan\", version=\"0.1\", author=\"x\"").as_deref(),
            Some("Tianyuan")
        );
        assert_eq!(
            parse_about_name("version=\"1\", NAME=\"Foo Bar\"").as_deref(),
            Some("Foo Bar")
        );
        assert_eq!(
            parse_about_name("filename=\"x\", name=y").as_deref(),
            Some("y")
        );
        assert_eq!(parse_about_name("UNKNOWN command"), None);
    }

    #[test]
    fn reader_splits_lines() {
        let (tx, rx) = mpsc::channel();
        read_stdout(&b"OK\r\n\r\nMESSAGE a\rx,y\nlast"[..], tx);
        let lines: Vec<String> = rx
            .iter()
            .filter_map(|e| match e {
                Event::Line(_, s) => Some(s),
                Event::Closed(_) => None,
            })
            .collect();
        assert_eq!(lines, ["OK", "MESSAGE a", "x,y", "last"]);
    }
}
