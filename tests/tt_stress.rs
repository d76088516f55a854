//! Concurrent stress test of the lock-free transposition table: many threads store and probe
//! overlapping keys in small tables (so clusters are contended and entries are overwritten
//! all the time). Every field of a stored entry except the depth is a function of its key,
//! and the depth lies in a known range, so an entry read under a key it was not written for,
//! or a mix of two writes (a torn entry) accepted as valid, shows up as a mismatch.
//!
//! With more threads than cores, writers are preempted between their two word stores, so
//! readers do meet half-written entries; the check `check ^ data == key` must turn those
//! into misses. (A deterministic torn-entry case is in the unit tests of `src/tt.rs`.)

use std::sync::atomic::{AtomicU64, Ordering};
use tianyuan::core::Pos;
use tianyuan::tt::{Bound, TranspositionTable};

const THREADS: usize = 8;
const OPS_PER_THREAD: usize = 300_000;
const MAX_DEPTH: i32 = 40;

fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The fields stored for `key` (all but the depth): move, score, eval, bound.
fn fields(key: u64) -> (Pos, i32, i32, Bound) {
    let h = splitmix(key ^ 0x5555);
    let mv = Pos::new((h % 15) as usize, ((h >> 8) % 15) as usize);
    let score = ((h >> 16) % 20_001) as i32 - 10_000;
    let eval = ((h >> 32) % 4_001) as i32 - 2_000;
    let bound = [Bound::Upper, Bound::Lower, Bound::Exact][((h >> 48) % 3) as usize];
    (mv, score, eval, bound)
}

struct Tally {
    hits: AtomicU64,
    misses: AtomicU64,
    bad: AtomicU64,
}

/// Runs `THREADS` threads of mixed stores and probes over `keys` on `tt`; returns (hits,
/// misses) and panics on any inconsistent read.
fn hammer(tt: &TranspositionTable, keys: &[u64]) -> (u64, u64) {
    let tally = Tally {
        hits: AtomicU64::new(0),
        misses: AtomicU64::new(0),
        bad: AtomicU64::new(0),
    };
    let first_bad = std::sync::Mutex::new(None::<String>);
    std::thread::scope(|s| {
        for t in 0..THREADS {
            let (tally, first_bad) = (&tally, &first_bad);
            s.spawn(move || {
                let mut rng = splitmix(t as u64 + 1);
                let (mut hits, mut misses, mut bad) = (0u64, 0u64, 0u64);
                for i in 0..OPS_PER_THREAD {
                    rng = splitmix(rng);
                    let key = keys[(rng % keys.len() as u64) as usize];
                    if rng >> 63 == 0 {
                        let (mv, score, eval, bound) = fields(key);
                        let depth = ((rng >> 32) % (MAX_DEPTH as u64 + 1)) as i32;
                        tt.store(key, mv, score, eval, depth, bound, false);
                    } else {
                        match tt.probe(key) {
                            None => misses += 1,
                            Some(e) => {
                                hits += 1;
                                let (mv, score, eval, bound) = fields(key);
                                let ok = (e.mv, e.score, e.eval, e.bound)
                                    == (mv, score, eval, bound)
                                    && (0..=MAX_DEPTH).contains(&e.depth);
                                if !ok {
                                    bad += 1;
                                    first_bad.lock().unwrap().get_or_insert_with(|| {
                                        format!(
                                            "thread {} op {}: key {:#x} read {:?}",
                                            t, i, key, e
                                        )
                                    });
                                }
                            }
                        }
                    }
                    // Now and then a new search (ages entries, changes replacement).
                    if i % 50_000 == 0 && t == 0 {
                        tt.new_search();
                    }
                }
                tally.hits.fetch_add(hits, Ordering::Relaxed);
                tally.misses.fetch_add(misses, Ordering::Relaxed);
                tally.bad.fetch_add(bad, Ordering::Relaxed);
            });
        }
    });
    let bad = tally.bad.load(Ordering::Relaxed);
    assert_eq!(
        bad,
        0,
        "{} inconsistent reads; first: {}",
        bad,
        first_bad.lock().unwrap().clone().unwrap_or_default()
    );
    // After the threads have joined, every entry found is exactly right.
    for &k in keys {
        if let Some(e) = tt.probe(k) {
            let (mv, score, eval, bound) = fields(k);
            assert_eq!((e.mv, e.score, e.eval, e.bound), (mv, score, eval, bound));
        }
    }
    (
        tally.hits.load(Ordering::Relaxed),
        tally.misses.load(Ordering::Relaxed),
    )
}

fn keys(n: u64, salt: u64) -> Vec<u64> {
    (0..n).map(|i| splitmix(i ^ (salt << 32))).collect()
}

#[test]
fn one_cluster_under_heavy_contention() {
    // One cluster of four entries, sixteen keys: every store races with the others.
    let tt = TranspositionTable::new(64);
    assert_eq!(tt.size_bytes(), 64);
    let (hits, misses) = hammer(&tt, &keys(16, 1));
    println!("one cluster: {} hits, {} misses", hits, misses);
    assert!(hits > 0 && misses > 0);
}

#[test]
fn small_table_with_overlapping_keys() {
    // 256 clusters (16 KiB), 4096 keys shared by all threads: constant replacement.
    let tt = TranspositionTable::new(256 * 64);
    let (hits, misses) = hammer(&tt, &keys(4096, 2));
    println!("256 clusters: {} hits, {} misses", hits, misses);
    assert!(hits > 0);
}

#[test]
fn same_key_many_depths() {
    // Two keys in one cluster, rewritten with ever-changing depths: old-check/new-data mixes
    // of the same key must read as misses, never as an entry with a wrong field.
    let tt = TranspositionTable::new(64);
    let (hits, _) = hammer(&tt, &keys(2, 3));
    assert!(hits > 0);
}
