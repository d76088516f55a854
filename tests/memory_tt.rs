//! The transposition table's memory: a fresh table is not resident until written or
//! prefaulted (`Engine::prefault`, once the protocol knows the memory limit, so that the
//! search pays no page faults); resizing between games frees what it replaces (repeated
//! `Engine::set_hash_bytes` cycles keep the resident set bounded).
//!
//! The resident set is read from `/proc/self/status` (`VmRSS`), so the test runs on Linux
//! only. It is the only test in this file, so no other test allocates in the same process
//! while it measures.
#![cfg(target_os = "linux")]

use std::sync::atomic::AtomicBool;
use tianyuan::board::Board;
use tianyuan::core::Rule;
use tianyuan::engine::{Engine, Options};
use tianyuan::search::Limits;
use tianyuan::time::Budget;

const MIB: usize = 1 << 20;

/// Resident set of this process in bytes.
fn rss() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let line = status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .expect("VmRSS line");
    let kib: usize = line
        .split_whitespace()
        .nth(1)
        .and_then(|v| v.parse().ok())
        .expect("VmRSS value");
    kib * 1024
}

/// A short search so that the table has entries (and a later `clear` must zero it all).
fn use_table(e: &mut Engine) {
    let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
    for (x, y) in [(7, 7), (7, 8), (8, 8), (6, 6)] {
        b.make(tianyuan::core::Pos::new(x, y));
    }
    let limits = Limits {
        budget: Budget::UNLIMITED,
        max_depth: Some(4),
        max_nodes: Some(20_000),
        ..Limits::default()
    };
    e.think(&b, &limits, &AtomicBool::new(false), &mut |_| {});
}

#[test]
fn tables_are_lazily_resident_and_freed_on_resize() {
    const BIG: usize = 48 * MIB;
    const SMALL: usize = 4 * MIB;
    // Tolerance for allocator slack and thread stacks (the rayon pool that clears tables in
    // parallel starts on the first clear): well under one big table, so leaking a single
    // table would fail.
    const SLACK: usize = 12 * MIB;
    // The threat solvers' tables, kept between games and reset in place (a new game zeroes
    // them, so the ones the searches used stay resident: about 13 MiB here). Part of the
    // engine's memory plan (`Engine::memory_overhead`), not of the table.
    const SOLVERS: usize = 16 * MIB;

    let before = rss();
    let mut e = Engine::new(Options {
        threads: 2,
        hash_bytes: 256 * MIB,
    });
    assert_eq!(e.tt_bytes(), 256 * MIB);
    // A fresh table comes from the allocator's zeroed path: 256 MiB allocated, almost none
    // of it resident; clearing it (a new game) makes all of it resident.
    let fresh = rss();
    assert!(
        fresh < before + 16 * MIB,
        "a fresh 256 MiB table made {} MiB resident",
        (fresh - before) / MIB
    );
    e.clear();
    assert!(
        rss() < before + 16 * MIB,
        "clearing a clean table touched it"
    );
    e.prefault();
    let prefaulted = rss();
    assert!(
        prefaulted >= before + 256 * MIB - 16 * MIB,
        "prefaulting made only {} MiB of 256 resident",
        (prefaulted.saturating_sub(before)) / MIB
    );

    let mut after_big = Vec::new();
    let mut after_small = Vec::new();
    for _ in 0..10 {
        e.set_hash_bytes(BIG);
        assert_eq!(e.tt_bytes(), BIG);
        use_table(&mut e);
        e.clear(); // zeroes every page: the whole table is now resident
        after_big.push(rss());
        e.set_hash_bytes(SMALL);
        use_table(&mut e);
        e.clear();
        after_small.push(rss());
    }
    let mib = |v: &[usize]| v.iter().map(|b| b / MIB).collect::<Vec<_>>();
    println!(
        "RSS MiB: before {}, fresh 256 MiB table {}, with 48 MiB table {:?}, with 4 MiB table {:?}",
        before / MIB,
        fresh / MIB,
        mib(&after_big),
        mib(&after_small)
    );
    // The big table really was resident, and really was freed on shrinking.
    assert!(after_big[0] >= before + BIG - 2 * MIB);
    for (b, s) in after_big.iter().zip(&after_small) {
        assert!(s + BIG - SLACK < *b, "shrinking did not free the table");
    }
    // No growth from cycle to cycle.
    let (first_big, first_small) = (after_big[0], after_small[0]);
    assert!(after_big.iter().all(|&r| r <= first_big + SLACK));
    assert!(after_small.iter().all(|&r| r <= first_small + SLACK));
    assert!(after_big
        .iter()
        .all(|&r| r <= before + BIG + SOLVERS + SLACK));
}
