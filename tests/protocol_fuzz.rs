//! Property test of the protocol layer: random and malformed input (random bytes, command
//! words in any case with random arguments, huge lines, any line endings) never panics,
//! never writes anything but well-formed reply lines, never gives two answers to one line,
//! keeps the board's incremental state sound, and leaves the game unchanged after every
//! rejected line.

mod protocol_common;

use proptest::prelude::*;
use protocol_common::{well_formed, FakeBrain};
use std::time::Instant;
use tianyuan::core::{Color, Pos};
use tianyuan::protocol::io::LineSplitter;
use tianyuan::protocol::session::Session;

const WORDS: &[&str] = &[
    "START",
    "RECTSTART",
    "RESTART",
    "INFO",
    "BEGIN",
    "TURN",
    "BOARD",
    "YXBOARD",
    "DONE",
    "TAKEBACK",
    "PLAY",
    "ABOUT",
    "SWAP2BOARD",
    "YXSTOP",
    "STOP",
    "YXNBEST",
    "YXSHOWFORBID",
    "YXHASHCLEAR",
    "YXSHOWINFO",
    "YXBLOCK",
    "YXBLOCKUNDO",
    "YXBLOCKRESET",
    "FOO",
    "SUGGEST",
    "yxbalanceone",
    "END",
];

const ARGS: &[&str] = &[
    "",
    "15",
    "5",
    "20",
    "22",
    "23",
    "4",
    "0",
    "-3",
    "abc",
    "7,7",
    "7 , 8",
    "-1,-1",
    "99999999999999999999",
    "1,2,3",
    "15,12",
    "3",
    "timeout_turn 0",
    "timeout_turn 5",
    "time_left -5",
    "time_left 2147483647",
    "rule 4",
    "rule 2",
    "rule 9",
    "rule 77",
    "max_memory 0",
    "max_memory -1",
    "folder C:\\a b\\c",
    "max_node -1",
    "max_depth 3",
    "thread_num 2",
    "hash_size 64",
    "show_detail 0",
    "evaluate 1,1",
    "unknown 5",
    "timeout_match 0",
];

fn word_line() -> impl Strategy<Value = Vec<u8>> {
    (
        prop::sample::select(WORDS),
        any::<bool>(),
        prop::sample::select(ARGS),
        "[ \t]{0,2}",
        0..20i64,
        0..20i64,
    )
        .prop_map(|(w, lower, a, sp, x, y)| {
            let w = if lower {
                w.to_ascii_lowercase()
            } else {
                w.to_string()
            };
            let arg = if a.is_empty() && x % 3 == 0 {
                format!("{},{}", x, y)
            } else {
                a.to_string()
            };
            format!("{}{} {}{}", sp, w, arg, sp).into_bytes()
        })
}

fn body_line() -> impl Strategy<Value = Vec<u8>> {
    (-2..24i64, -2..24i64, -1..5i64, 0..3usize)
        .prop_map(|(x, y, f, shape)| match shape {
            0 => format!("{},{},{}", x, y, f),
            1 => format!("{} , {}", x, y),
            _ => format!("{},{},{},{}", x, y, f, f),
        })
        .prop_map(String::into_bytes)
}

fn any_line() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        6 => word_line(),
        4 => body_line(),
        2 => prop::collection::vec(any::<u8>(), 0..60),
        1 => (1usize..4).prop_map(|k| vec![b'A' + k as u8; 64 * 1024 - 2 + k]),
    ]
}

const ENDINGS: &[&[u8]] = &[b"\n", b"\r\n", b"\r", b"\n\n", b" \r\n"];

fn ending() -> impl Strategy<Value = &'static [u8]> {
    prop::sample::select(ENDINGS)
}

#[derive(Debug, PartialEq)]
struct Snapshot {
    moves: Vec<Pos>,
    hash: u64,
    stones: usize,
    me: Option<Color>,
}

fn snap(s: &Session<FakeBrain, Vec<u8>>) -> Option<Snapshot> {
    let b = s.board()?;
    Some(Snapshot {
        moves: b.moves().to_vec(),
        hash: b.hash(),
        stones: b.stone_count(),
        me: s.our_color(),
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_input_is_safe(
        start in prop::option::of(5usize..=22),
        lines in prop::collection::vec((any_line(), ending()), 0..40),
    ) {
        let mut s = Session::new(FakeBrain::new(false), Vec::new());
        let mut splitter = LineSplitter::new();
        let mut read = 0;
        let mut input: Vec<(Vec<u8>, &[u8])> = Vec::new();
        if let Some(n) = start {
            input.push((format!("START {}", n).into_bytes(), b"\n"));
        }
        input.extend(lines);
        let mut exited = false;
        for (line, end) in input {
            let mut bytes = line.clone();
            bytes.extend_from_slice(end);
            for ev in splitter.push(&bytes, Instant::now()) {
                let before = snap(&s);
                s.handle_event(ev);
                s.wait_idle();
                let out = String::from_utf8(s.output()[read..].to_vec()).expect("ASCII output");
                read = s.output().len();
                if exited {
                    prop_assert!(out.is_empty(), "output after END: {:?}", out);
                }
                exited |= s.has_exited();
                let got: Vec<&str> = if out.is_empty() { Vec::new() } else {
                    prop_assert!(out.ends_with('\n'));
                    out[..out.len() - 1].split('\n').collect()
                };
                for l in &got {
                    prop_assert!(well_formed(l, false), "bad line {:?} after {:?}", l, String::from_utf8_lossy(&line));
                }
                let answers: Vec<&&str> = got.iter().filter(|l| !l.starts_with("MESSAGE ")).collect();
                prop_assert!(answers.len() <= 1, "two answers to one line: {:?}", got);
                let rejected = answers.len() == 1
                    && (answers[0].starts_with("ERROR ") || answers[0].starts_with("UNKNOWN "))
                    && *answers[0] != "ERROR board is full";
                if rejected {
                    prop_assert_eq!(&snap(&s), &before, "state changed by rejected {:?}", String::from_utf8_lossy(&line));
                }
                if let Some(b) = s.board() {
                    prop_assert!(b.verify_incremental().is_ok());
                }
            }
        }
    }
}
