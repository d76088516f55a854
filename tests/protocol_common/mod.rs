//! Helpers shared by the protocol tests: an in-memory session driver and engines with
//! controlled behaviour.
#![allow(dead_code)]

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tianyuan::board::Board;
use tianyuan::core::{Color, Pos, Rule};
use tianyuan::engine::{Engine, Options};
use tianyuan::protocol::io::LineSplitter;
use tianyuan::protocol::session::{Brain, Event, Session};
use tianyuan::search::{quick_move, Limits, SearchInfo, SearchResult};

/// What a [`FakeBrain`] was asked to do.
#[derive(Default)]
pub struct Log {
    pub limits: Vec<Limits>,
    pub boards: Vec<Board>,
    pub threads: Vec<usize>,
    pub hash: Vec<usize>,
    pub clears: usize,
}

/// An engine with scripted behaviour: plays the quick move with a fixed score; when `slow`,
/// thinks until the stop flag is raised (so mid-search tests are deterministic).
#[derive(Clone)]
pub struct FakeBrain {
    pub slow: bool,
    pub score: i32,
    /// Completed iterations reported through `on_info` before returning (depth 1..=n).
    pub iterations: i32,
    pub log: Arc<Mutex<Log>>,
}

impl FakeBrain {
    pub fn new(slow: bool) -> FakeBrain {
        FakeBrain {
            slow,
            score: 0,
            iterations: 0,
            log: Arc::new(Mutex::new(Log::default())),
        }
    }
}

impl Brain for FakeBrain {
    fn think(
        &mut self,
        board: &Board,
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        {
            let mut l = self.log.lock().unwrap();
            l.limits.push(limits.clone());
            l.boards.push(board.clone());
        }
        let best = quick_move(board);
        for d in 1..=self.iterations {
            on_info(&SearchInfo {
                depth: d,
                seldepth: d,
                score: self.score,
                nodes: 10 * d as u64,
                vcf_nodes: 0,
                time_ms: 1,
                pv: vec![best],
                pv_index: 0,
                num_pv: 1,
            });
        }
        if self.slow {
            // Bounded so that a broken test cannot hang forever.
            let t0 = Instant::now();
            while !stop.load(Ordering::SeqCst) && t0.elapsed() < Duration::from_secs(30) {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        SearchResult {
            best,
            score: self.score,
            depth: self.iterations,
            pv: vec![best],
            ..Default::default()
        }
    }
    fn set_threads(&mut self, n: usize) {
        self.log.lock().unwrap().threads.push(n);
    }
    fn set_hash_bytes(&mut self, bytes: usize) {
        self.log.lock().unwrap().hash.push(bytes);
    }
    fn clear(&mut self) {
        self.log.lock().unwrap().clears += 1;
    }
}

/// Drives a session in memory and hands back the lines written since the last call.
pub struct Driver<B: Brain> {
    pub s: Session<B, Vec<u8>>,
    read: usize,
}

impl Driver<Engine> {
    /// A session on the real engine, made deterministic and fast: one thread, a 4 MiB
    /// table and a depth limit of 4 (sent as `INFO max_depth`, which a test may override).
    pub fn engine() -> Driver<Engine> {
        let engine = Engine::new(Options {
            threads: 1,
            hash_bytes: 4 << 20,
        });
        let mut d = Driver::new(engine);
        assert!(d
            .send(&[
                "INFO max_depth 4",
                "INFO thread_num 1",
                "INFO hash_size 4096"
            ])
            .is_empty());
        d
    }
}

impl<B: Brain> Driver<B> {
    pub fn new(brain: B) -> Driver<B> {
        Driver {
            s: Session::new(brain, Vec::new()),
            read: 0,
        }
    }

    /// Lines written since the last call (each must end with a single LF).
    pub fn take(&mut self) -> Vec<String> {
        let out = self.s.output();
        let text = std::str::from_utf8(&out[self.read..])
            .expect("output is UTF-8")
            .to_string();
        self.read = out.len();
        if text.is_empty() {
            return Vec::new();
        }
        assert!(text.ends_with('\n'), "unterminated output line: {:?}", text);
        assert!(!text.contains('\r'), "CR in output: {:?}", text);
        text[..text.len() - 1]
            .split('\n')
            .map(|s| s.to_string())
            .collect()
    }

    /// Feeds lines one by one, waiting for each search to answer; returns all new output.
    pub fn send(&mut self, lines: &[&str]) -> Vec<String> {
        for l in lines {
            self.s.feed_line(l);
        }
        self.take()
    }

    /// Feeds lines without waiting for searches.
    pub fn push(&mut self, lines: &[&str]) -> Vec<String> {
        for l in lines {
            self.s.push_line(l);
        }
        self.take()
    }

    /// Feeds raw bytes through the reader's framing, waiting after each line.
    pub fn send_bytes(&mut self, bytes: &[u8]) -> Vec<String> {
        let mut sp = LineSplitter::new();
        for ev in sp.push(bytes, Instant::now()) {
            self.s.handle_event(ev);
            self.s.wait_idle();
        }
        // Deliver a trailing unterminated line, but not the end of input.
        for ev in sp.finish(Instant::now()) {
            if !matches!(ev, Event::Eof) {
                self.s.handle_event(ev);
                self.s.wait_idle();
            }
        }
        self.take()
    }

    /// Feeds one line as if it had been read `ago_ms` milliseconds ago (its clock started
    /// then, docs/protocol.md §4.2), waits for the answer and returns the new output.
    pub fn send_read_ago(&mut self, line: &str, ago_ms: u64) -> Vec<String> {
        self.s.handle_event(Event::Line {
            text: line.into(),
            at: Instant::now() - Duration::from_millis(ago_ms),
        });
        self.wait()
    }

    /// Waits for the running search and returns the new output.
    pub fn wait(&mut self) -> Vec<String> {
        self.s.wait_idle();
        self.take()
    }
}

/// Whether `l` is a move line `x,y` (decimal, no spaces, no sign).
pub fn is_move(l: &str) -> bool {
    let Some((a, b)) = l.split_once(',') else {
        return false;
    };
    !a.is_empty()
        && !b.is_empty()
        && a.bytes().all(|c| c.is_ascii_digit())
        && b.bytes().all(|c| c.is_ascii_digit())
}

/// The point of a move line.
pub fn mv(l: &str) -> Pos {
    assert!(is_move(l), "not a move line: {:?}", l);
    let (a, b) = l.split_once(',').unwrap();
    Pos::new(a.parse().unwrap(), b.parse().unwrap())
}

/// The lines that are not `MESSAGE …`.
pub fn answers(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter(|l| !l.starts_with("MESSAGE "))
        .cloned()
        .collect()
}

/// Asserts that the output holds exactly one answer, a move line, and that it comes last;
/// returns the move.
pub fn one_move(lines: &[String]) -> Pos {
    let a = answers(lines);
    assert_eq!(a.len(), 1, "expected one answer line, got {:?}", lines);
    assert_eq!(
        lines.last(),
        a.last(),
        "the move must be the last line: {:?}",
        lines
    );
    mv(&a[0])
}

/// Every well-formed reply line shape; `info_ok` admits `INFO …` detail lines.
pub fn well_formed(l: &str, info_ok: bool) -> bool {
    if l.is_empty() || l.ends_with(' ') || !l.bytes().all(|b| (0x20..0x7f).contains(&b)) {
        return false;
    }
    let rest = |p: &str| l.strip_prefix(p).is_some_and(|r| !r.trim().is_empty());
    let moves = l.split(' ').all(is_move) && l.split(' ').count() <= 3;
    let forbid = l
        .strip_prefix("FORBID ")
        .and_then(|r| r.strip_suffix('.'))
        .is_some_and(|d| d.len() % 4 == 0 && d.bytes().all(|c| c.is_ascii_digit()));
    l == "OK"
        || l == "SWAP"
        || moves
        || rest("ERROR ")
        || rest("UNKNOWN ")
        || rest("MESSAGE ")
        || forbid
        || l.starts_with("name=\"Tianyuan\", version=\"")
        || (info_ok && rest("INFO "))
}

/// `x,y,f` body lines for a list of points with one field value.
pub fn body(points: &[(usize, usize)], field: u8) -> Vec<String> {
    points
        .iter()
        .map(|(x, y)| format!("{},{},{}", x, y, field))
        .collect()
}

/// Everything a rejected command must leave alone.
#[derive(Debug, PartialEq)]
pub struct Snapshot {
    pub moves: Vec<Pos>,
    pub hash: u64,
    pub stones: usize,
    pub size: (usize, usize),
    pub rule: Rule,
    pub me: Option<Color>,
    pub settings: String,
}

pub fn snap<B: tianyuan::protocol::Brain>(d: &Driver<B>) -> Option<Snapshot> {
    let b = d.s.board()?;
    Some(Snapshot {
        moves: b.moves().to_vec(),
        hash: b.hash(),
        stones: b.stone_count(),
        size: (b.width(), b.height()),
        rule: b.rule(),
        me: d.s.our_color(),
        settings: format!("{:?}", d.s.settings()),
    })
}

pub fn lines(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

pub fn with_body(head: &str, body: &[String]) -> Vec<String> {
    let mut v = vec![head.to_string()];
    v.extend(body.iter().cloned());
    v.push("DONE".to_string());
    v
}

pub fn send_owned<B: tianyuan::protocol::Brain>(d: &mut Driver<B>, v: &[String]) -> Vec<String> {
    let r: Vec<&str> = v.iter().map(|s| s.as_str()).collect();
    d.send(&r)
}
