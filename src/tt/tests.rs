//! Unit tests of the transposition table.

use super::*;

#[test]
fn store_and_probe() {
    let tt = TranspositionTable::new(1 << 16);
    let key = 0x1234_5678_9abc_def0;
    assert!(tt.probe(key).is_none());
    tt.store(key, Pos::new(3, 4), -120, 55, 7, Bound::Lower, false);
    let e = tt.probe(key).unwrap();
    assert_eq!(
        e,
        TtEntry {
            mv: Pos::new(3, 4),
            score: -120,
            eval: 55,
            depth: 7,
            bound: Bound::Lower,
            pv: false
        }
    );
    assert!(tt.probe(key ^ 1).is_none());
}

#[test]
fn mate_scores_are_node_relative() {
    let s = WIN - 5;
    assert_eq!(score_to_tt(s, 3), WIN - 2);
    assert_eq!(score_from_tt(WIN - 2, 7), WIN - 9);
    assert_eq!(score_from_tt(score_to_tt(-(WIN - 6), 2), 2), -(WIN - 6));
    assert_eq!(score_to_tt(100, 9), 100);
}

#[test]
fn torn_entry_reads_as_a_miss() {
    // Two writes to the same slot: a reader that sees the check word of one and the data
    // word of the other must not accept either.
    let tt = TranspositionTable::new(64);
    let (k1, k2) = (0x9e37_79b9_7f4a_7c15u64, 0xbf58_476d_1ce4_e5b9u64);
    let c = &tt.clusters[0];
    let words = |c: &Cluster| {
        (
            c.check[0].load(Ordering::Relaxed),
            c.data[0].load(Ordering::Relaxed),
        )
    };
    tt.store(k1, Pos::new(1, 1), 10, 0, 3, Bound::Exact, false);
    let (check1, data1) = words(c);
    c.zero_shared();
    tt.store(k2, Pos::new(2, 2), 20, 0, 4, Bound::Lower, false);
    let (check2, data2) = words(c);
    for (ch, d) in [(check1, data2), (check2, data1)] {
        c.check[0].store(ch, Ordering::Relaxed);
        c.data[0].store(d, Ordering::Relaxed);
        assert!(tt.probe(k1).is_none() && tt.probe(k2).is_none());
    }
    // The same key written twice with different data: old check, new data.
    c.check[0].store(check2, Ordering::Relaxed);
    c.data[0].store(data2, Ordering::Relaxed);
    tt.store(k2, Pos::new(3, 3), 30, 0, 9, Bound::Exact, false);
    assert_eq!(tt.probe(k2).map(|e| e.depth), Some(9));
    c.check[0].store(check2, Ordering::Relaxed);
    assert!(tt.probe(k2).is_none());
}

#[test]
fn five_entries_share_a_cluster() {
    let tt = TranspositionTable::new(64);
    let keys: Vec<u64> = (1..=5u64)
        .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .collect();
    for (i, &k) in keys.iter().enumerate() {
        tt.store(k, Pos::new(i, 0), i as i32, NO_EVAL, 5, Bound::Exact, false);
    }
    for (i, &k) in keys.iter().enumerate() {
        let e = tt.probe(k).expect("stored");
        assert_eq!((e.mv, e.score, e.eval), (Pos::new(i, 0), i as i32, NO_EVAL));
    }
}

#[test]
fn clear_empties_a_written_table_and_prefault_makes_it_resident() {
    let mut tt = TranspositionTable::new(1 << 12);
    assert!(!*tt.dirty.get_mut() && !tt.resident);
    tt.clear();
    assert!(!tt.resident, "clearing a clean table touches nothing");
    tt.prefault();
    assert!(tt.resident && !*tt.dirty.get_mut());
    let keys: Vec<u64> = (1..=40u64)
        .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .collect();
    for &k in &keys {
        tt.store(k, Pos::new(4, 4), 1, 2, 3, Bound::Upper, false);
    }
    assert!(*tt.dirty.get_mut());
    assert!(keys.iter().any(|&k| tt.probe(k).is_some()));
    tt.clear();
    assert!(!*tt.dirty.get_mut());
    assert!(keys.iter().all(|&k| tt.probe(k).is_none()));
    assert!(tt.clusters.iter().all(|c| c.is_zero()));
}

#[test]
fn clear_reallocates_a_large_written_table() {
    let mut tt = TranspositionTable::new(4 << 20);
    let bytes = tt.size_bytes();
    let keys: Vec<u64> = (1..=1000u64)
        .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .collect();
    for &k in &keys {
        tt.store(k, Pos::new(4, 4), 1, 2, 3, Bound::Upper, false);
    }
    assert!(keys.iter().any(|&k| tt.probe(k).is_some()));
    tt.clear_reallocating_from(1 << 20);
    assert_eq!(tt.size_bytes(), bytes);
    assert!(!*tt.dirty.get_mut());
    assert!(keys.iter().all(|&k| tt.probe(k).is_none()));
    assert!(tt.clusters.iter().step_by(997).all(|c| c.is_zero()));
}

#[test]
fn clusters_are_cache_line_aligned() {
    for bytes in [1, 64, 100, 1 << 16, (1 << 20) + 192] {
        let tt = TranspositionTable::new(bytes);
        assert_eq!(tt.clusters.as_ptr() as usize % 64, 0);
        assert_eq!(tt.size_bytes(), (bytes / 64).max(1) * 64);
    }
}
fn start(table: TranspositionTable, plan: Plan) -> Preparation {
    Preparation::start(table, plan, Arc::default())
}

#[test]
fn a_paused_preparation_waits() {
    let (tt, _) = filled(8 << 20);
    let pause = Arc::new(AtomicBool::new(true));
    let mut p = Preparation::start(
        tt,
        Plan {
            clear: true,
            ..Plan::default()
        },
        pause.clone(),
    );
    assert!(p.take_within(Duration::from_millis(50)).is_none());
    pause.store(false, Ordering::Relaxed);
    let tt = p.wait(false);
    assert!(!tt.is_dirty() && all_zero(&tt));
}

fn filled(bytes: usize) -> (TranspositionTable, Vec<u64>) {
    let tt = TranspositionTable::new(bytes);
    let keys: Vec<u64> = (1..=2000u64)
        .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .collect();
    for &k in &keys {
        tt.store(k, Pos::new(4, 4), 1, 2, 3, Bound::Upper, false);
    }
    assert!(keys.iter().any(|&k| tt.probe(k).is_some()));
    (tt, keys)
}

fn all_zero(tt: &TranspositionTable) -> bool {
    tt.clusters.iter().all(|c| c.is_zero())
}

#[test]
fn preparation_clears_and_prefaults_in_the_background() {
    let (tt, keys) = filled(3 << 20);
    let p = start(
        tt,
        Plan {
            clear: true,
            prefault: true,
            ..Plan::default()
        },
    );
    assert_eq!(p.size_bytes(), 3 << 20);
    let mut tt = p.wait(false);
    assert_eq!(tt.size_bytes(), 3 << 20);
    assert!(!tt.is_dirty() && !tt.needs_prefault() && all_zero(&tt));
    assert!(keys.iter().all(|&k| tt.probe(k).is_none()));
    // A fresh table is made resident page by page and stays clean.
    let p = start(
        TranspositionTable::new(1 << 20),
        Plan {
            prefault: true,
            ..Plan::default()
        },
    );
    tt = p.wait(false);
    assert!(!tt.is_dirty() && !tt.needs_prefault() && all_zero(&tt));
}

#[test]
fn chained_preparations_add_up() {
    let (tt, _) = filled(2 << 20);
    // Resize, then (cancelling it) clear and prefault: the table has the new size, is
    // empty and resident.
    let p = start(
        tt,
        Plan {
            resize: Some(5 << 20),
            ..Plan::default()
        },
    );
    let p = p.then(Plan {
        clear: true,
        ..Plan::default()
    });
    let p = p.then(Plan {
        prefault: true,
        ..Plan::default()
    });
    assert_eq!(
        p.plan(),
        Plan {
            resize: Some(5 << 20),
            clear: true,
            prefault: true
        }
    );
    assert_eq!(p.size_bytes(), 5 << 20);
    let tt = p.wait(false);
    assert_eq!(tt.size_bytes(), 5 << 20);
    assert!(!tt.is_dirty() && !tt.needs_prefault() && all_zero(&tt));
}

#[test]
fn a_cancelled_clear_leaves_the_table_dirty() {
    let (mut tt, keys) = filled(4 << 20);
    assert!(!tt.clear_cancellable(&|| false));
    assert!(tt.is_dirty() && tt.needs_prefault());
    // A later plan that clears finishes the job.
    let tt = start(
        tt,
        Plan {
            clear: true,
            ..Plan::default()
        },
    )
    .wait(false);
    assert!(!tt.is_dirty() && all_zero(&tt));
    assert!(keys.iter().all(|&k| tt.probe(k).is_none()));
}
