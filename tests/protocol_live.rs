//! In-memory transcripts of the protocol executor, continued from `protocol.rs`: the time and
//! memory settings and every command that arrives while the engine is searching
//! (docs/protocol.md §7 items 22-28 and 32, §4.2). Each test checks every reply line and the
//! absence of extra lines.

mod protocol_common;

use protocol_common::*;
use std::time::{Duration, Instant};
use tianyuan::core::{Pos, Rule};
use tianyuan::engine::Engine;
use tianyuan::protocol::session::{
    Event, Flow, DEFAULT_MAX_MEMORY, DEFAULT_TURN_MS, MAX_HASH_BYTES, MIN_HASH_BYTES,
};
// ---------------------------------------------------------------------------------------
// Time and memory

/// §7 item 32: time_left ≤ 0 → immediate move, no search.
#[test]
fn no_time_left_is_immediate() {
    let brain = FakeBrain::new(true);
    let log = brain.log.clone();
    let mut d = Driver::new(brain);
    d.send(&[
        "START 15",
        "INFO timeout_match 100000",
        "INFO time_left -50",
    ]);
    one_move(&d.send(&["BEGIN"]));
    d.send(&["INFO time_left 0"]);
    one_move(&d.send(&["TURN 3,3"]));
    d.send(&["INFO time_left 50000", "INFO timeout_turn 0"]);
    one_move(&d.send(&["TURN 4,4"]));
    assert!(
        log.lock().unwrap().limits.is_empty(),
        "the slow search was never started"
    );
}

/// §4.2: the budget is measured from the moment the line was read.
#[test]
fn queueing_delay_is_subtracted() {
    let brain = FakeBrain::new(false);
    let log = brain.log.clone();
    let mut d = Driver::new(brain);
    d.send(&["START 15", "INFO timeout_turn 1000"]);
    let full = tianyuan::time::TimeControl {
        turn_ms: Some(1000),
        ..Default::default()
    }
    .budget(0, 225);
    one_move(&d.send_read_ago("BEGIN", 300));
    let b = log.lock().unwrap().limits[0].budget;
    assert!(b.hard_ms <= full.hard_ms - 300, "{:?} vs {:?}", b, full);
    // A request read longer ago than its whole budget is answered without a search.
    one_move(&d.send_read_ago("TURN 3,3", 2000));
    assert_eq!(log.lock().unwrap().limits.len(), 1);
}

/// The watchdog stops a search that ignores its budget: with timeout_turn 300 the answer
/// comes within 300 ms + 1000 ms tolerance.
#[test]
fn turn_limit_is_kept() {
    let mut d = Driver::new(FakeBrain::new(true));
    d.send(&["START 15", "INFO timeout_turn 300"]);
    let t0 = Instant::now();
    let out = d.send(&["BOARD", "7,7,2", "DONE"]);
    let dt = t0.elapsed();
    one_move(&out);
    assert!(dt < Duration::from_millis(1300), "{:?}", dt);
}

#[test]
fn memory_and_threads() {
    let brain = FakeBrain::new(false);
    let log = brain.log.clone();
    let mut d = Driver::new(brain);
    d.send(&["INFO max_memory 367001600", "INFO thread_num 3", "START 15"]);
    {
        let l = log.lock().unwrap();
        assert_eq!(
            l.hash.last(),
            Some(&((367001600u64 / 100 * 80 - Engine::memory_overhead(3) as u64) as usize))
        );
        assert_eq!(l.threads.last(), Some(&3));
    }
    // 0 = no limit → 350 MB assumed; negative ignored; beyond 32 bits parsed.
    d.send(&["INFO max_memory 0", "RESTART"]);
    assert_eq!(
        log.lock().unwrap().hash.last(),
        Some(&((DEFAULT_MAX_MEMORY / 100 * 80 - Engine::memory_overhead(3) as u64) as usize))
    );
    d.send(&["INFO max_memory -5", "RESTART"]);
    assert_eq!(d.s.settings().max_memory, Some(0));
    d.send(&["INFO max_memory 68719476736", "RESTART"]);
    assert_eq!(
        log.lock().unwrap().hash.last(),
        Some(&(MAX_HASH_BYTES as usize))
    );
    d.send(&["INFO max_memory 1000", "RESTART"]);
    assert_eq!(
        log.lock().unwrap().hash.last(),
        Some(&(MIN_HASH_BYTES as usize))
    );
    // hash_size (KiB) overrides max_memory.
    d.send(&["INFO hash_size 8192", "RESTART"]);
    assert_eq!(log.lock().unwrap().hash.last(), Some(&(8 << 20)));
    // max_depth and max_node reach the limits; -1 means none.
    d.send(&["INFO max_depth 7", "INFO max_node 5000000000"]);
    one_move(&d.send(&["BEGIN"]));
    let l = log.lock().unwrap().limits.last().cloned().unwrap();
    assert_eq!((l.max_depth, l.max_nodes), (Some(7), Some(5_000_000_000)));
    d.send(&["INFO max_node -1", "INFO max_depth 0"]);
    one_move(&d.send(&["TURN 3,3"]));
    let l = log.lock().unwrap().limits.last().cloned().unwrap();
    assert_eq!((l.max_depth, l.max_nodes), (None, None));
}

#[test]
fn show_detail_output() {
    let mut brain = FakeBrain::new(false);
    brain.iterations = 2;
    brain.score = 40;
    let mut d = Driver::new(brain);
    d.send(&["START 15"]);
    // Without show_detail a game move prints only a summary MESSAGE and the move.
    let out = d.send(&["BEGIN"]);
    assert_eq!(out.len(), 2, "{:?}", out);
    assert!(out[0].starts_with("MESSAGE depth 2"));
    one_move(&out);
    d.send(&["INFO show_detail 3"]);
    let out = d.send(&["TURN 3,3"]);
    assert_eq!(
        out.iter()
            .filter(|l| l.starts_with("MESSAGE REALTIME BEST "))
            .count(),
        2,
        "{:?}",
        out
    );
    assert_eq!(out.iter().filter(|l| *l == "INFO PV DONE").count(), 2);
    assert!(out.iter().any(|l| l == "INFO EVAL 40"));
    one_move(
        &out.iter()
            .filter(|l| !l.starts_with("INFO "))
            .cloned()
            .collect::<Vec<_>>(),
    );
    assert!(is_move(out.last().unwrap()));
}

// ---------------------------------------------------------------------------------------
// §7 items 22–28: commands while searching (a fake engine that thinks until stopped)

fn searching() -> (Driver<FakeBrain>, std::sync::Arc<std::sync::Mutex<Log>>) {
    let brain = FakeBrain::new(true);
    let log = brain.log.clone();
    let mut d = Driver::new(brain);
    assert_eq!(d.send(&["START 15", "INFO timeout_turn 60000"]), ["OK"]);
    assert!(d.push(&["BOARD", "7,7,2", "DONE"]).is_empty());
    assert!(d.s.is_searching());
    (d, log)
}

#[test]
fn yxstop_prints_one_move() {
    let (mut d, _) = searching();
    assert!(
        d.push(&["YXSTOP"]).is_empty(),
        "the move comes when the search returns"
    );
    let out = d.wait();
    let p = one_move(&out);
    assert_eq!(d.s.board().unwrap().moves(), [Pos::new(7, 7), p]);
    assert!(d.send(&["YXSTOP"]).is_empty(), "idle: nothing");
    assert!(d.wait().is_empty());
}

#[test]
fn stop_word_also_stops() {
    let (mut d, _) = searching();
    d.push(&["stop"]);
    one_move(&d.wait());
}

#[test]
fn timeout_turn_zero_mid_search() {
    let (mut d, _) = searching();
    assert!(d.push(&["INFO timeout_turn 0"]).is_empty());
    one_move(&d.wait());
}

#[test]
fn info_mid_search_is_stored_not_applied_to_engine() {
    let (mut d, log) = searching();
    let hashes = log.lock().unwrap().hash.len();
    assert!(d
        .push(&[
            "INFO max_memory 100000000",
            "INFO thread_num 2",
            "INFO time_left 50000",
            "INFO rule 1"
        ])
        .is_empty());
    assert!(d.s.is_searching(), "INFO does not stop the search");
    assert_eq!(
        log.lock().unwrap().hash.len(),
        hashes,
        "no resize mid-search"
    );
    d.push(&["YXSTOP"]);
    one_move(&d.wait());
    assert_eq!(d.s.settings().max_memory, Some(100000000));
    assert_eq!(d.s.board().unwrap().rule(), Rule::Standard);
    d.push(&["TURN 3,3"]);
    let l = log.lock().unwrap();
    assert_eq!(
        l.hash.last(),
        Some(&(100000000 / 100 * 80 - Engine::memory_overhead(2)))
    );
    assert_eq!(l.threads.last(), Some(&2));
    drop(l);
    d.push(&["YXSTOP"]);
    one_move(&d.wait());
}

#[test]
fn about_mid_search_answers_at_once() {
    let (mut d, _) = searching();
    let out = d.push(&["ABOUT", "YXSHOWINFO"]);
    assert_eq!(out.len(), 3);
    assert!(out[0].starts_with("name="));
    assert!(d.s.is_searching(), "ABOUT does not disturb the search");
    d.push(&["YXSTOP"]);
    one_move(&d.wait());
}

#[test]
fn end_mid_search_prints_nothing() {
    let (mut d, _) = searching();
    assert_eq!(d.s.push_line("END"), Flow::Exit);
    assert!(d.s.has_exited());
    std::thread::sleep(Duration::from_millis(20));
    assert!(d.wait().is_empty());
    assert!(d.send(&["ABOUT", "BEGIN"]).is_empty(), "nothing after END");
}

/// §7 item 23 (issue 34): end of input right behind a request finishes the move, within
/// its limit, then exits; input held back behind the move is answered too.
#[test]
fn eof_mid_search_finishes_the_move_then_exits() {
    let mut d = Driver::new(FakeBrain::new(true));
    assert_eq!(d.send(&["START 15", "INFO timeout_turn 300"]), ["OK"]);
    let t0 = Instant::now();
    assert!(d.push(&["TURN 7,7", "FOO"]).is_empty());
    assert!(d.s.is_searching());
    assert_eq!(d.s.handle_event(Event::Eof), Flow::Continue);
    let out = d.wait();
    // The slow engine thinks until the watchdog stops it, shortly after the hard limit.
    assert!(
        t0.elapsed() >= Duration::from_millis(200),
        "{:?}",
        t0.elapsed()
    );
    assert_eq!(out.len(), 2, "{out:?}");
    let p = mv(&out[0]);
    assert_eq!(d.s.board().unwrap().moves(), [Pos::new(7, 7), p]);
    assert!(out[1].starts_with("UNKNOWN "), "{out:?}");
    assert!(d.s.has_exited());
    assert!(d.send(&["ABOUT"]).is_empty(), "nothing after the exit");
}

/// A search without a time limit (the manager said "no limit") cannot be stopped once
/// the input has ended: end of input stops it at once and its move is written.
#[test]
fn eof_stops_a_search_without_limit_and_writes_its_move() {
    let mut d = Driver::new(FakeBrain::new(true));
    assert_eq!(d.send(&["START 15", "INFO timeout_match 0"]), ["OK"]);
    assert!(d.push(&["TURN 7,7"]).is_empty());
    let t0 = Instant::now();
    assert_eq!(d.s.handle_event(Event::Eof), Flow::Continue);
    let out = d.wait();
    assert!(t0.elapsed() < Duration::from_secs(5), "{:?}", t0.elapsed());
    one_move(&out);
    assert!(d.s.has_exited());
}

/// End of input with no job running exits at once, printing nothing.
#[test]
fn eof_idle_exits() {
    let mut d = Driver::new(FakeBrain::new(false));
    assert_eq!(d.send(&["START 15"]), ["OK"]);
    assert_eq!(d.s.handle_event(Event::Eof), Flow::Exit);
    assert!(d.wait().is_empty());
}

/// §4.1 (issue 34): with no time key ever received a move gets the default turn limit
/// ([`DEFAULT_TURN_MS`]), not an endless search; any time key (even "no limit") replaces it.
#[test]
fn no_time_key_means_the_default_turn_limit() {
    let brain = FakeBrain::new(false);
    let log = brain.log.clone();
    let mut d = Driver::new(brain);
    assert_eq!(d.send(&["START 15", "INFO thread_num 1"]), ["OK"]);
    one_move(&d.send(&["TURN 7,7"]));
    let want = tianyuan::time::TimeControl {
        turn_ms: Some(DEFAULT_TURN_MS),
        ..Default::default()
    }
    .budget(1, 225);
    let got = log.lock().unwrap().limits[0].budget;
    assert!(
        got.hard_ms <= want.hard_ms && got.hard_ms + 1000 >= want.hard_ms,
        "{got:?} vs {want:?}"
    );
    assert_ne!(got, tianyuan::time::Budget::UNLIMITED);
    // The manager's own "no limit" stays no limit.
    d.send(&["INFO timeout_match 0"]);
    one_move(&d.send(&["TURN 8,8"]));
    assert_eq!(
        log.lock().unwrap().limits[1].budget,
        tianyuan::time::Budget::UNLIMITED
    );
}

/// §7 item 27: a new request aborts the search without its move, then is carried out.
#[test]
fn new_request_aborts_search() {
    for req in [
        &["START 15"][..],
        &["RESTART"],
        &["BOARD", "3,3,2", "DONE"],
        &["YXBOARD", "3,3,2", "DONE"],
        &["TURN 3,3"],
        &["TAKEBACK 7,7"],
        &["SWAP2BOARD", "DONE"],
    ] {
        let (mut d, _) = searching();
        let out = d.push(req);
        d.push(&["YXSTOP"]);
        let mut all = out;
        all.extend(d.wait());
        let moves: Vec<_> = all
            .iter()
            .filter(|l| is_move(l) || l.contains(','))
            .collect();
        match req[0] {
            "START 15" | "RESTART" => {
                assert_eq!(all, ["OK"], "{:?}", req);
                assert_eq!(d.s.board().unwrap().stone_count(), 0);
            }
            "TAKEBACK 7,7" => {
                // The aborted search's move was never played, so 7,7 is the last stone.
                assert_eq!(all, ["OK"], "{:?}", req);
                assert_eq!(d.s.board().unwrap().stone_count(), 0);
            }
            "YXBOARD" => {
                assert!(all.is_empty(), "{:?}", all);
                assert_eq!(d.s.board().unwrap().moves(), [Pos::new(3, 3)]);
            }
            "SWAP2BOARD" => {
                assert_eq!(all.len(), 1, "{:?}", all);
                assert_eq!(all[0].split(' ').count(), 3);
            }
            _ => {
                assert_eq!(moves.len(), 1, "{:?}: {:?}", req, all);
                let p = one_move(&all);
                let b = d.s.board().unwrap();
                let want_last_opp = Pos::new(3, 3);
                assert!(b.moves().contains(&want_last_opp));
                assert_eq!(*b.moves().last().unwrap(), p);
            }
        }
    }
}

/// Answers that are not MESSAGEs wait until the running search has printed its move.
#[test]
fn answers_mid_search_are_deferred() {
    let (mut d, _) = searching();
    let out = d.push(&[
        "FOO",
        "TURN x",
        "YXSHOWFORBID",
        "YXHASHCLEAR",
        "yxblock",
        "1,1",
        "done",
    ]);
    assert!(out.is_empty(), "{:?}", out);
    d.push(&["YXSTOP"]);
    let out = d.wait();
    assert_eq!(out.len(), 4, "{:?}", out);
    assert!(is_move(&out[0]));
    assert!(out[1].starts_with("UNKNOWN "));
    assert!(out[2].starts_with("ERROR "));
    assert!(out[3].starts_with("FORBID "));
    assert_eq!(d.s.blocked().len(), 1);
}

/// A deferred answer comes before the answer of the request that aborts the search.
#[test]
fn deferred_then_abort() {
    let (mut d, _) = searching();
    let mut out = d.push(&["FOO", "START 15"]);
    out.extend(d.wait());
    assert_eq!(out.len(), 2, "{:?}", out);
    assert!(out[0].starts_with("UNKNOWN "));
    assert_eq!(out[1], "OK");
}

/// YXNBEST while searching behaves like any move request: the old search gives no move.
#[test]
fn nbest_mid_search() {
    let (mut d, _) = searching();
    d.push(&["YXNBEST 1", "YXSTOP"]);
    let out = d.wait();
    one_move(&out);
    assert_eq!(d.s.board().unwrap().stone_count(), 2);
}

/// A time INFO mid-search tightens the running search's deadline.
#[test]
fn time_info_mid_search_tightens_deadline() {
    let (mut d, _) = searching();
    let t0 = Instant::now();
    d.push(&["INFO timeout_turn 200"]);
    one_move(&d.wait());
    assert!(
        t0.elapsed() < Duration::from_millis(1200),
        "{:?}",
        t0.elapsed()
    );
}

/// §7 item 20/19 style: a random mix of spacing is accepted.
#[test]
fn spacing_and_case() {
    let mut d = Driver::engine();
    let out = d.send(&["  sTaRt\t15 ", "\tinfo\ttimeout_turn\t5000", "Turn\t7 ,\t7"]);
    assert_eq!(out[0], "OK");
    one_move(&out[1..]);
    assert_eq!(d.s.settings().time.turn_ms, Some(5000));
    let out = d.send(&["board", " 1 , 1 , 1 ", "2,2,2", "dOnE"]);
    one_move(&out);
    assert_eq!(d.s.board().unwrap().stone_count(), 3);
}

#[test]
fn every_line_is_well_formed() {
    let mut d = Driver::engine();
    let out = d.send(&[
        "ABOUT",
        "START 15",
        "INFO rule 4",
        "BEGIN",
        "TURN 1,1",
        "TURN 1,1",
        "FOO",
        "YXSHOWFORBID",
        "YXSHOWINFO",
        "TAKEBACK 0,0",
        "BOARD",
        "bad",
        "DONE",
        "SWAP2BOARD",
        "DONE",
        "RESTART",
    ]);
    for l in &out {
        assert!(well_formed(l, false), "{:?}", l);
    }
    let _ = lines(&[]);
}

/// No stale state after RESTART: the same search gives the same summary (depth, score,
/// nodes, PV) as in a fresh session; START and RESTART clear the engine.
#[test]
fn restart_gives_a_fresh_search() {
    let position = ["BOARD", "7,7,2", "8,8,1", "6,9,2", "8,6,1", "9,9,2", "DONE"];
    let summary = |out: &[String]| -> String {
        let s = out
            .iter()
            .find(|l| l.starts_with("MESSAGE depth "))
            .expect("summary")
            .clone();
        // Drop the time field, which varies.
        let v: Vec<&str> = s.split(' ').collect();
        let tm = v.iter().position(|w| *w == "tm").unwrap();
        [&v[..tm], &v[tm + 2..]].concat().join(" ")
    };
    let mut d = Driver::engine();
    d.send(&["START 15"]);
    let first = d.send(&position);
    one_move(&d.send(&["TURN 1,1"]));
    assert_eq!(d.send(&["RESTART"]), ["OK"]);
    let again = d.send(&position);
    assert_eq!(summary(&first), summary(&again));
    assert_eq!(first.last(), again.last());
    let mut fresh = Driver::engine();
    fresh.send(&["START 15"]);
    assert_eq!(summary(&fresh.send(&position)), summary(&first));

    let brain = FakeBrain::new(false);
    let log = brain.log.clone();
    let mut d = Driver::new(brain);
    d.send(&["START 15"]);
    assert_eq!(log.lock().unwrap().clears, 1);
    d.send(&["RESTART", "START 20", "RECTSTART 10,12"]);
    assert_eq!(log.lock().unwrap().clears, 4);
}

/// §4: a manager that sends `timeout_match` but never `time_left` still has its match limit
/// kept: the time our moves took is taken off the match time until `time_left` arrives, and a
/// new game starts the count again.
#[test]
fn match_time_is_counted_without_time_left() {
    use tianyuan::time::TimeControl;
    let brain = FakeBrain::new(false);
    let log = brain.log.clone();
    let mut d = Driver::new(brain);
    d.send(&["START 15", "INFO timeout_match 10000"]);
    let budget = |left: Option<i64>, stones: usize| {
        TimeControl {
            match_ms: Some(10000),
            left_ms: left,
            ..Default::default()
        }
        .budget(stones, 225)
    };
    let last = || log.lock().unwrap().limits.last().unwrap().budget;
    // A first move read 1 s ago: that second is on our clock.
    one_move(&d.send_read_ago("BEGIN", 1000));
    one_move(&d.send(&["TURN 0,0"]));
    let b = last();
    assert!(
        b.hard_ms <= budget(Some(9000), 2).hard_ms,
        "{:?}: as if 9 s or less were left",
        b
    );
    assert!(b.hard_ms < budget(None, 2).hard_ms - 100, "{:?}", b);
    // A new game starts the count again.
    d.send(&["RESTART"]);
    one_move(&d.send(&["BEGIN"]));
    let b = last();
    assert!(b.hard_ms + 50 >= budget(None, 0).hard_ms, "{:?}", b);
    // A move read 20 s ago is answered at once, and the match time is spent from then on.
    one_move(&d.send_read_ago("TURN 0,0", 20000));
    let searches = log.lock().unwrap().limits.len();
    one_move(&d.send(&["TURN 14,14"]));
    assert_eq!(
        log.lock().unwrap().limits.len(),
        searches,
        "no search without time"
    );
    // time_left from the manager replaces our count.
    d.send(&["INFO time_left 10000"]);
    one_move(&d.send(&["TURN 0,14"]));
    let b = last();
    assert!(
        b.hard_ms + 50 >= budget(Some(10000), 6).hard_ms,
        "{:?} against {:?}",
        b,
        budget(Some(10000), 6)
    );
}
