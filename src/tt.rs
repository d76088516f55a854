//! The transposition table shared by all search threads, lock-free.
//!
//! Design (after Stockfish `tt.cpp` and Rapfi `hashtable.cpp`):
//! - The table is an array of [`Cluster`]s of 64 bytes (one cache line) holding four entries
//!   of two `AtomicU64` words each: `check = key ^ data` and `data`. A reader loads both
//!   words with `Relaxed` ordering and accepts the entry only if `check ^ data == key`; an
//!   entry torn by a concurrent writer (one word old, one new) fails this test except with
//!   probability 2^-64 per probe, so it is read as a miss, never as wrong data.
//! - The cluster is chosen by the high bits of `key * cluster_count` (multiply-high), so any
//!   table size works and no division is needed.
//! - Replacement: an entry with the same key is overwritten (keeping its move if the new one
//!   has none); otherwise the entry with the lowest `depth - 8 * age` is replaced, where age
//!   counts searches since the entry was written (6-bit generation counter).
//! - Win and loss scores are stored relative to the node (see [`score_to_tt`]).
//!
//! Data word layout (bits): 0-15 move, 16-31 score (i16), 32-47 static eval (i16), 48-55
//! depth (i8 + 0), 56-57 bound, 58-63 generation.

use crate::core::Pos;
use crate::search::{WIN, WIN_THRESHOLD};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// How a stored score bounds the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// No bound stored.
    None = 0,
    /// The true score is at most the stored one (fail low).
    Upper = 1,
    /// The true score is at least the stored one (fail high).
    Lower = 2,
    /// The stored score is exact (PV node).
    Exact = 3,
}

/// One entry as read from the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// Best or refutation move, [`Pos::NONE`] if none.
    pub mv: Pos,
    /// Score, relative to the node (convert with [`score_from_tt`]).
    pub score: i32,
    /// Static evaluation of the node.
    pub eval: i32,
    /// Remaining depth the score was searched to, in plies.
    pub depth: i32,
    /// Bound type.
    pub bound: Bound,
}

#[repr(C, align(64))]
struct Cluster {
    words: [AtomicU64; 8],
}

const _: () = assert!(std::mem::size_of::<Cluster>() == 64);
const ENTRIES: usize = 4;

/// A lock-free transposition table; see the module documentation.
pub struct TranspositionTable {
    clusters: Box<[Cluster]>,
    generation: AtomicU8,
}

/// Converts a search score at `ply` to the form stored in the table: wins and losses become
/// distances from this node instead of from the root.
///
/// Worked example: at ply 3 the search finds a five in 2 more plies, so its score is
/// `WIN - 5` (five at ply 5 from the root). Stored: `WIN - 5 + 3 = WIN - 2` ("win in 2 from
/// here"). Read back at ply 7 in another line: `WIN - 2 - 7 = WIN - 9`, a five at ply 9.
#[inline]
pub fn score_to_tt(score: i32, ply: i32) -> i32 {
    if score >= WIN_THRESHOLD {
        score + ply
    } else if score <= -WIN_THRESHOLD {
        score - ply
    } else {
        score
    }
}

/// Inverse of [`score_to_tt`] for a node at `ply`.
#[inline]
pub fn score_from_tt(score: i32, ply: i32) -> i32 {
    if score >= WIN_THRESHOLD {
        score - ply
    } else if score <= -WIN_THRESHOLD {
        score + ply
    } else {
        score
    }
}

fn pack(mv: Pos, score: i32, eval: i32, depth: i32, bound: Bound, generation: u8) -> u64 {
    let score = score.clamp(-WIN, WIN) as i16 as u16 as u64;
    let eval = eval.clamp(-WIN, WIN) as i16 as u16 as u64;
    let depth = depth.clamp(-100, 127) as i8 as u8 as u64;
    (mv.0 as u64)
        | score << 16
        | eval << 32
        | depth << 48
        | (bound as u64) << 56
        | ((generation & 63) as u64) << 58
}

fn unpack(data: u64) -> TtEntry {
    TtEntry {
        mv: Pos(data as u16),
        score: (data >> 16) as u16 as i16 as i32,
        eval: (data >> 32) as u16 as i16 as i32,
        depth: (data >> 48) as u8 as i8 as i32,
        bound: match (data >> 56) & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => Bound::None,
        },
    }
}

impl TranspositionTable {
    /// A table of at most `bytes` bytes (at least one cluster of 64 bytes).
    ///
    /// The memory comes zeroed from the allocator, so pages the search never touches are
    /// never mapped (they do not count toward the process's working set). If the allocation
    /// fails, the size is halved until it succeeds (down to one cluster).
    pub fn new(bytes: usize) -> TranspositionTable {
        let mut n = (bytes / std::mem::size_of::<Cluster>()).max(1);
        loop {
            if let Some(clusters) = Self::alloc_zeroed(n) {
                return TranspositionTable { clusters, generation: AtomicU8::new(0) };
            }
            assert!(n > 1, "cannot allocate one transposition-table cluster");
            n /= 2;
        }
    }

    fn alloc_zeroed(n: usize) -> Option<Box<[Cluster]>> {
        let layout = std::alloc::Layout::array::<Cluster>(n).ok()?;
        // SAFETY: the layout has a non-zero size (n >= 1, Cluster is 64 bytes). An all-zero
        // Cluster is valid (AtomicU64 has the same representation as u64), so the zeroed
        // block is `n` initialised Clusters, and Box::from_raw takes ownership with the same
        // layout the global allocator used.
        unsafe {
            let ptr = std::alloc::alloc_zeroed(layout) as *mut Cluster;
            if ptr.is_null() {
                return None;
            }
            Some(Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, n)))
        }
    }

    /// Size in bytes.
    pub fn size_bytes(&self) -> usize {
        self.clusters.len() * std::mem::size_of::<Cluster>()
    }

    /// Empties every entry (in parallel for large tables).
    pub fn clear(&mut self) {
        use rayon::prelude::*;
        self.clusters.par_chunks_mut(1 << 14).for_each(|chunk| {
            for c in chunk {
                for w in &c.words {
                    w.store(0, Ordering::Relaxed);
                }
            }
        });
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: entries written before age by one.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    #[inline(always)]
    fn cluster(&self, key: u64) -> &Cluster {
        let idx = ((key as u128 * self.clusters.len() as u128) >> 64) as usize;
        &self.clusters[idx]
    }

    /// Prefetch hint for the cluster of `key` (no-op where unsupported).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: prefetch is only a hint and never faults; the pointer is to a live cluster.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch(self.cluster(key) as *const Cluster as *const i8, _MM_HINT_T0);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks up `key`; `None` on a miss (or a torn entry).
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        let c = self.cluster(key);
        for i in 0..ENTRIES {
            let check = c.words[2 * i].load(Ordering::Relaxed);
            let data = c.words[2 * i + 1].load(Ordering::Relaxed);
            if check ^ data == key && data != 0 {
                return Some(unpack(data));
            }
        }
        None
    }

    /// Stores an entry for `key` (see the module doc for the replacement rule).
    #[inline]
    pub fn store(&self, key: u64, mv: Pos, score: i32, eval: i32, depth: i32, bound: Bound) {
        let generation = self.generation.load(Ordering::Relaxed) & 63;
        let c = self.cluster(key);
        let mut victim = 0;
        let mut victim_value = i32::MAX;
        for i in 0..ENTRIES {
            let check = c.words[2 * i].load(Ordering::Relaxed);
            let data = c.words[2 * i + 1].load(Ordering::Relaxed);
            if data == 0 || check ^ data == key {
                let mut mv = mv;
                if data != 0 && mv.is_none() {
                    mv = unpack(data).mv;
                }
                if data != 0 && check ^ data == key {
                    // Keep a deeper exact result of the same search.
                    let old = unpack(data);
                    let old_gen = ((data >> 58) & 63) as u8;
                    if old_gen == generation && old.depth > depth + 2 && bound != Bound::Exact {
                        return;
                    }
                }
                let d = pack(mv, score, eval, depth, bound, generation);
                c.words[2 * i + 1].store(d, Ordering::Relaxed);
                c.words[2 * i].store(key ^ d, Ordering::Relaxed);
                return;
            }
            let e = unpack(data);
            let age = (generation.wrapping_sub(((data >> 58) & 63) as u8) & 63) as i32;
            let value = e.depth - 8 * age;
            if value < victim_value {
                victim_value = value;
                victim = i;
            }
        }
        let d = pack(mv, score, eval, depth, bound, generation);
        c.words[2 * victim + 1].store(d, Ordering::Relaxed);
        c.words[2 * victim].store(key ^ d, Ordering::Relaxed);
    }

    /// Per mille of sampled entries written in the current search (for `YXSHOWHASHUSAGE`).
    pub fn hashfull(&self) -> usize {
        let generation = self.generation.load(Ordering::Relaxed) & 63;
        let n = self.clusters.len().min(1000);
        let mut used = 0;
        for c in &self.clusters[..n] {
            for i in 0..ENTRIES {
                let data = c.words[2 * i + 1].load(Ordering::Relaxed);
                if data != 0 && ((data >> 58) & 63) as u8 == generation {
                    used += 1;
                }
            }
        }
        used * 1000 / (n * ENTRIES)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe() {
        let tt = TranspositionTable::new(1 << 16);
        let key = 0x1234_5678_9abc_def0;
        assert!(tt.probe(key).is_none());
        tt.store(key, Pos::new(3, 4), -120, 55, 7, Bound::Lower);
        let e = tt.probe(key).unwrap();
        assert_eq!(e, TtEntry { mv: Pos::new(3, 4), score: -120, eval: 55, depth: 7, bound: Bound::Lower });
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
}
