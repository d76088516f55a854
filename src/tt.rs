//! The transposition table shared by all search threads, lock-free.
//!
//! Design (after Stockfish `tt.cpp` and Rapfi `hashtable.cpp`):
//! - The table is an array of clusters of 64 bytes (one cache line) holding five entries of
//!   12 bytes: a 64-bit `data` word and a 32-bit `check` word, `check = key32 ^ fold(data)`
//!   where `key32` is the low half of the key and `fold` XORs the two halves of `data`. A
//!   reader loads both words with `Relaxed` ordering and accepts the entry only if the check
//!   matches; an entry torn by a concurrent writer (one word old, one new) fails this test
//!   except with probability 2^-32 per probe, so it is read as a miss. A wrong hit can only
//!   give a wrong score or a move that the search then does not find among its moves.
//! - The cluster is chosen by the high bits of `key * cluster_count` (multiply-high), so any
//!   table size works and no division is needed; the check covers the low 32 bits.
//! - Replacement: an entry with the same key is overwritten (keeping its move if the new one
//!   has none); otherwise the entry with the lowest `depth - 8 * age` is replaced, where age
//!   counts searches since the entry was written (5-bit generation counter).
//! - Win and loss scores are stored relative to the node (see [`score_to_tt`]).
//! - The static evaluation of the node is stored beside the score ([`NO_EVAL`] when none).
//!
//! Data word layout (bits): 0-15 move, 16-31 score (i16), 32-47 static eval (i16), 48-55
//! depth (i8 + 0), 56-57 bound, 58-62 generation, 63 PV mark.

use crate::core::Pos;
use crate::eval::{WIN, WIN_THRESHOLD};
use std::alloc::Layout;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicU8, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, TryRecvError};
use std::sync::Arc;
use std::time::Duration;

/// How a stored score bounds the true score.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Bound {
    /// No bound stored.
    #[default]
    None = 0,
    /// The true score is at most the stored one (fail low).
    Upper = 1,
    /// The true score is at least the stored one (fail high).
    Lower = 2,
    /// The stored score is exact (PV node).
    Exact = 3,
}

impl Bound {
    /// Whether a stored `score` with this bound settles the window (`alpha`, `beta`): an
    /// exact score always, a lower bound at or above `beta`, an upper bound at or below
    /// `alpha`, no bound never. Scores in evaluation units, as returned by the search.
    #[inline]
    pub fn settles(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
            Bound::None => false,
        }
    }
}

/// One entry as read from the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// Best or refutation move, [`Pos::NONE`] if none.
    pub mv: Pos,
    /// Score, relative to the node (convert with [`score_from_tt`]).
    pub score: i32,
    /// Static evaluation of the node, [`NO_EVAL`] if none was stored.
    pub eval: i32,
    /// Remaining depth the score was searched to, in plies.
    pub depth: i32,
    /// Bound type.
    pub bound: Bound,
    /// The node was on a principal variation when stored.
    pub pv: bool,
}

/// The stored static evaluation meaning "none".
pub const NO_EVAL: i32 = i16::MIN as i32;

/// Entries per cluster.
const ENTRIES: usize = 5;

#[repr(C, align(64))]
struct Cluster {
    data: [AtomicU64; ENTRIES],
    check: [AtomicU32; ENTRIES],
    _pad: AtomicU32,
}

const _: () = assert!(std::mem::size_of::<Cluster>() == 64);

/// The check word of an entry: the low half of the key XOR both halves of the data.
#[inline(always)]
fn check_of(key: u64, data: u64) -> u32 {
    (key as u32) ^ (data as u32) ^ ((data >> 32) as u32)
}

impl Cluster {
    /// Empties every entry (no other thread may use the cluster).
    fn zero(&mut self) {
        for w in &mut self.data {
            *w.get_mut() = 0;
        }
        for w in &mut self.check {
            *w.get_mut() = 0;
        }
    }
    /// Empties every entry through shared access.
    fn zero_shared(&self) {
        for w in &self.data {
            w.store(0, Ordering::Relaxed);
        }
        for w in &self.check {
            w.store(0, Ordering::Relaxed);
        }
    }
    /// Whether every entry is empty.
    #[cfg(test)]
    fn is_zero(&self) -> bool {
        self.data.iter().all(|w| w.load(Ordering::Relaxed) == 0)
            && self.check.iter().all(|w| w.load(Ordering::Relaxed) == 0)
    }
    /// The data word of entry `i` if its check matches `key`.
    #[inline(always)]
    fn read(&self, i: usize, key: u64) -> Option<u64> {
        let data = self.data[i].load(Ordering::Relaxed);
        let check = self.check[i].load(Ordering::Relaxed);
        (data != 0 && check == check_of(key, data)).then_some(data)
    }
    /// Writes entry `i`.
    #[inline(always)]
    fn write(&self, i: usize, key: u64, data: u64) {
        self.data[i].store(data, Ordering::Relaxed);
        self.check[i].store(check_of(key, data), Ordering::Relaxed);
    }
}

/// The cluster array: one zeroed block from the allocator, aligned to 64 bytes by hand.
///
/// Not a `Box<[Cluster]>`: for an alignment above the platform minimum (16 bytes) Rust's
/// system allocator zero-fills the block itself, touching every page, so a 64 MiB table
/// would be resident from the start. Asking for alignment 8 takes the `calloc` path, which
/// for large blocks returns fresh pages from the operating system that become resident only
/// when the search writes to them.
struct ClusterArray {
    base: *mut u8,
    layout: Layout,
    clusters: *mut Cluster,
    len: usize,
}

// SAFETY: the array owns its block exclusively (like a Box) and Cluster is Send + Sync
// (atomics only).
unsafe impl Send for ClusterArray {}
// SAFETY: as above; shared access goes through `&[Cluster]`.
unsafe impl Sync for ClusterArray {}

impl ClusterArray {
    /// `n >= 1` zeroed clusters, or `None` if the allocator refuses.
    fn zeroed(n: usize) -> Option<ClusterArray> {
        let size = n
            .checked_mul(std::mem::size_of::<Cluster>())?
            .checked_add(64)?;
        let layout = Layout::from_size_align(size, std::mem::align_of::<u64>()).ok()?;
        // SAFETY: the layout has a non-zero size. The block is zeroed and has 64 spare bytes,
        // so rounding its address up to a multiple of 64 leaves room for `n` clusters; an
        // all-zero Cluster is valid (AtomicU64 has the representation of u64).
        unsafe {
            let base = std::alloc::alloc_zeroed(layout);
            if base.is_null() {
                return None;
            }
            advise_huge_pages(base, size);
            let offset = base.align_offset(std::mem::align_of::<Cluster>());
            debug_assert!(offset < 64);
            let clusters = base.add(offset) as *mut Cluster;
            Some(ClusterArray {
                base,
                layout,
                clusters,
                len: n,
            })
        }
    }
}

/// Asks Linux to back the block at `base` (`size` bytes) with 2 MiB pages where it can
/// (transparent huge pages, `madvise`): a probe of a large table then needs one address
/// translation entry for 2 MiB instead of one for 4 KiB, and most probes no longer miss
/// the processor's translation cache (docs/architecture.md §3). Only the whole
/// 4 KiB pages inside the block are advised; a refusal changes nothing but speed. Pages
/// still become resident only when written. Elsewhere: nothing.
#[allow(unused_variables)]
fn advise_huge_pages(base: *mut u8, size: usize) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        const HUGE: usize = 2 << 20;
        if size >= 2 * HUGE {
            let start = (base as usize).next_multiple_of(PAGE);
            let end = (base as usize + size) / PAGE * PAGE;
            // SAFETY: [start, end) lies within the block just allocated, whole pages; the
            // advice changes how the kernel backs the pages, not their contents.
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
    }
}

impl std::ops::Deref for ClusterArray {
    type Target = [Cluster];
    fn deref(&self) -> &[Cluster] {
        // SAFETY: `clusters` points to `len` initialised clusters owned by self.
        unsafe { std::slice::from_raw_parts(self.clusters, self.len) }
    }
}

impl std::ops::DerefMut for ClusterArray {
    fn deref_mut(&mut self) -> &mut [Cluster] {
        // SAFETY: as in `deref`, and `&mut self` gives exclusive access.
        unsafe { std::slice::from_raw_parts_mut(self.clusters, self.len) }
    }
}

impl Drop for ClusterArray {
    fn drop(&mut self) {
        // SAFETY: `base` was allocated by the global allocator with `layout`.
        unsafe { std::alloc::dealloc(self.base, self.layout) }
    }
}

/// A lock-free transposition table; see the module documentation.
pub struct TranspositionTable {
    clusters: ClusterArray,
    generation: AtomicU8,
    /// Whether any entry may be non-zero (set by [`TranspositionTable::store`], reset by
    /// [`TranspositionTable::clear`]).
    dirty: AtomicBool,
    /// Whether [`TranspositionTable::clear`] has zeroed every page since the allocation (so
    /// all of them are resident).
    resident: bool,
}

/// Converts a search score at `ply` to the form stored in the table: wins and losses become
/// distances from this node instead of from the root.
///
/// Worked example: at ply 3 the search finds a five in 2 more plies, so its score is
/// `WIN - 5` (five at ply 5 from the root). Stored: `WIN - 5 + 3 = WIN - 2` ("win in 2 from
/// here"). Read back at ply 7 in another line: `WIN - 2 - 7 = WIN - 9`, a five at ply 9.
#[inline]
pub fn score_to_tt(score: i32, ply: i32) -> i32 {
    win_to_node(score, ply, WIN_THRESHOLD)
}

/// Inverse of [`score_to_tt`] for a node at `ply`.
#[inline]
pub fn score_from_tt(score: i32, ply: i32) -> i32 {
    win_from_node(score, ply, WIN_THRESHOLD)
}

/// [`score_to_tt`] on any score scale: scores at or beyond `±threshold` are wins and losses
/// counted in plies from the root, and become counted from the node at `ply`. The
/// four-colour search uses it with its own scale (`crate::fourcolour::search::WIN`).
#[inline(always)]
pub fn win_to_node(score: i32, ply: i32, threshold: i32) -> i32 {
    if score >= threshold {
        score + ply
    } else if score <= -threshold {
        score - ply
    } else {
        score
    }
}

/// Inverse of [`win_to_node`] for a node at `ply`.
#[inline(always)]
pub fn win_from_node(score: i32, ply: i32, threshold: i32) -> i32 {
    if score >= threshold {
        score - ply
    } else if score <= -threshold {
        score + ply
    } else {
        score
    }
}

/// Bits of the generation counter.
const GENERATION_MASK: u8 = 31;

fn pack(mv: Pos, score: i32, eval: i32, depth: i32, bound: Bound, generation: u8, pv: bool) -> u64 {
    let score = score.clamp(-WIN, WIN) as i16 as u16 as u64;
    let eval = eval.clamp(NO_EVAL, i16::MAX as i32) as i16 as u16 as u64;
    let depth = depth.clamp(-100, 127) as i8 as u8 as u64;
    (mv.0 as u64)
        | score << 16
        | eval << 32
        | depth << 48
        | (bound as u64) << 56
        | ((generation & GENERATION_MASK) as u64) << 58
        | (pv as u64) << 63
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
        pv: data >> 63 != 0,
    }
}

/// Largest stand-in table searches use while the real one is being prepared in the
/// background (see [`Preparation`]), in bytes (4 MiB: 262 144 entries, enough for moves of
/// a few hundred milliseconds).
pub const STAND_IN_BYTES: usize = 4 << 20;

/// Clusters handled between two looks at the cancel flag by the background preparation
/// (2 MiB: well under a millisecond of zeroing).
const SLICE_CLUSTERS: usize = 1 << 15;

/// Tables of at least this many bytes are cleared by reallocation rather than zeroing
/// (see [`TranspositionTable::clear`]); 1 GiB.
pub const REALLOCATE_BYTES: usize = 1 << 30;

impl TranspositionTable {
    /// A table of at most `bytes` bytes (at least one cluster of 64 bytes); the size is a
    /// whole number of 64-byte clusters, any number of them.
    ///
    /// The memory comes zeroed from the allocator's `calloc` path (see `ClusterArray`), so
    /// pages the search never writes are never made resident. If the allocation fails, the
    /// size is halved until it succeeds (down to one cluster; panics only if even that
    /// fails).
    pub fn new(bytes: usize) -> TranspositionTable {
        let mut n = (bytes / std::mem::size_of::<Cluster>()).max(1);
        loop {
            if let Some(clusters) = ClusterArray::zeroed(n) {
                return TranspositionTable {
                    clusters,
                    generation: AtomicU8::new(0),
                    dirty: AtomicBool::new(false),
                    resident: false,
                };
            }
            assert!(n > 1, "cannot allocate one transposition-table cluster");
            n /= 2;
        }
    }

    /// Size in bytes (a multiple of 64; at most the size asked for, unless that was under
    /// 64 bytes, and less if the allocation had to be halved).
    pub fn size_bytes(&self) -> usize {
        self.clusters.len() * std::mem::size_of::<Cluster>()
    }

    /// Empties every entry. A table not written since it was allocated or last cleared is
    /// left alone (clearing a fresh table makes none of its pages resident). A written
    /// table under [`REALLOCATE_BYTES`] is zeroed in parallel, which leaves all of it
    /// resident; a larger one is replaced by a fresh allocation of the same size (the old one
    /// freed first; zeroing a 4 GiB table took 11 s on a loaded machine). If that
    /// allocation fails the size is halved as in [`Self::new`].
    pub fn clear(&mut self) {
        self.clear_reallocating_from(REALLOCATE_BYTES);
    }

    /// Makes every page of a table under [`REALLOCATE_BYTES`] resident (by zeroing it in
    /// parallel; its entries are lost) unless that was done and nothing written since. For
    /// the start of a game, outside the clock: a table fresh from the allocator costs a page
    /// fault at each first write to a page, and two search threads faulting at once contend
    /// in the kernel (measured: 150 000 nodes in a 1 s move on 2 threads with a fresh
    /// 240 MiB table, 490 000 with a resident one; prefaulting it takes about 0.1 s).
    pub fn prefault(&mut self) {
        if self.size_bytes() < REALLOCATE_BYTES && !self.resident {
            *self.dirty.get_mut() = true;
            self.clear();
        }
    }

    /// [`Self::clear`] with the reallocation threshold as a parameter (tests use a small one).
    fn clear_reallocating_from(&mut self, threshold: usize) {
        use rayon::prelude::*;
        if !*self.dirty.get_mut() {
            // Nothing written: nothing to do.
        } else if self.size_bytes() >= threshold {
            let bytes = self.size_bytes();
            *self = TranspositionTable::new(std::mem::size_of::<Cluster>());
            *self = TranspositionTable::new(bytes);
        } else {
            self.resident = true;
            self.clusters.par_chunks_mut(1 << 14).for_each(|chunk| {
                for c in chunk {
                    c.zero_shared();
                }
            });
            *self.dirty.get_mut() = false;
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Whether [`Self::clear`] has something to do: an entry may have been written since the
    /// table was allocated or last cleared.
    pub fn is_dirty(&self) -> bool {
        self.dirty.load(Ordering::Relaxed)
    }

    /// Whether [`Self::prefault`] has something to do: the table is under
    /// [`REALLOCATE_BYTES`] and not known to be resident.
    pub fn needs_prefault(&self) -> bool {
        self.size_bytes() < REALLOCATE_BYTES && !self.resident
    }

    /// [`Self::clear`] on one thread, in slices of [`SLICE_CLUSTERS`] clusters, asking
    /// `go` before each slice (it may wait) and giving up when it answers `false`. Returns
    /// whether it finished; a table left half-cleared stays dirty (so a later clear redoes
    /// it).
    fn clear_cancellable(&mut self, go: &dyn Fn() -> bool) -> bool {
        if !*self.dirty.get_mut() {
            // Nothing written: nothing to do.
        } else if self.size_bytes() >= REALLOCATE_BYTES {
            let bytes = self.size_bytes();
            *self = TranspositionTable::new(std::mem::size_of::<Cluster>());
            *self = TranspositionTable::new(bytes);
        } else {
            for slice in self.clusters.chunks_mut(SLICE_CLUSTERS) {
                if !go() {
                    return false;
                }
                for c in slice {
                    c.zero();
                }
            }
            self.resident = true;
            *self.dirty.get_mut() = false;
        }
        self.generation.store(0, Ordering::Relaxed);
        true
    }

    /// [`Self::prefault`] on one thread, asking `go` before each slice as
    /// [`Self::clear_cancellable`] does. A clean table is made resident by writing one word
    /// per 4 KiB page (its pages are zero already), a dirty one by clearing it. Returns
    /// whether it finished.
    fn prefault_cancellable(&mut self, go: &dyn Fn() -> bool) -> bool {
        if !self.needs_prefault() {
            return true;
        }
        if *self.dirty.get_mut() {
            return self.clear_cancellable(go);
        }
        const PAGE_CLUSTERS: usize = 4096 / std::mem::size_of::<Cluster>();
        for slice in self.clusters.chunks_mut(SLICE_CLUSTERS) {
            if !go() {
                return false;
            }
            for c in slice.iter_mut().step_by(PAGE_CLUSTERS) {
                *c.data[0].get_mut() = 0;
            }
        }
        self.resident = true;
        true
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
            _mm_prefetch(
                self.cluster(key) as *const Cluster as *const i8,
                _MM_HINT_T0,
            );
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks up `key`; `None` on a miss (or a torn entry).
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        let c = self.cluster(key);
        (0..ENTRIES).find_map(|i| c.read(i, key).map(unpack))
    }

    /// Stores an entry for `key` (see the module doc for the replacement rule).
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        key: u64,
        mv: Pos,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
        pv: bool,
    ) {
        if !self.dirty.load(Ordering::Relaxed) {
            self.dirty.store(true, Ordering::Relaxed);
        }
        let generation = self.generation.load(Ordering::Relaxed) & GENERATION_MASK;
        let c = self.cluster(key);
        let mut victim = 0;
        let mut victim_value = i32::MAX;
        for i in 0..ENTRIES {
            let data = c.data[i].load(Ordering::Relaxed);
            let same = data != 0 && c.check[i].load(Ordering::Relaxed) == check_of(key, data);
            if data == 0 || same {
                let mut mv = mv;
                if same && mv.is_none() {
                    mv = unpack(data).mv;
                }
                if same {
                    // Keep a deeper exact result of the same search.
                    let old = unpack(data);
                    let old_gen = (data >> 58) as u8 & GENERATION_MASK;
                    if old_gen == generation && old.depth > depth + 2 && bound != Bound::Exact {
                        return;
                    }
                }
                c.write(i, key, pack(mv, score, eval, depth, bound, generation, pv));
                return;
            }
            let e = unpack(data);
            let age = (generation.wrapping_sub((data >> 58) as u8 & GENERATION_MASK)
                & GENERATION_MASK) as i32;
            let value = e.depth - 8 * age;
            if value < victim_value {
                victim_value = value;
                victim = i;
            }
        }
        c.write(
            victim,
            key,
            pack(mv, score, eval, depth, bound, generation, pv),
        );
    }

    /// Per mille of sampled entries written in the current search (for `YXSHOWHASHUSAGE`).
    pub fn hashfull(&self) -> usize {
        let generation = self.generation.load(Ordering::Relaxed) & GENERATION_MASK;
        let n = self.clusters.len().min(1000);
        let mut used = 0;
        for c in &self.clusters[..n] {
            for i in 0..ENTRIES {
                let data = c.data[i].load(Ordering::Relaxed);
                if data != 0 && ((data >> 58) as u8 & GENERATION_MASK) == generation {
                    used += 1;
                }
            }
        }
        used * 1000 / (n * ENTRIES)
    }
}

/// What a [`Preparation`] makes of a table: its size, and whether it is cleared and made
/// resident.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Plan {
    /// Reallocate to at most this many bytes (as [`TranspositionTable::new`]) unless the
    /// table already has that size; `None`: keep the size.
    pub resize: Option<usize>,
    /// Empty every entry ([`TranspositionTable::clear`]).
    pub clear: bool,
    /// Make the table resident ([`TranspositionTable::prefault`]).
    pub prefault: bool,
}

impl Plan {
    /// This plan followed by `next`: the later size wins; clearing and prefaulting add up.
    pub fn then(self, next: Plan) -> Plan {
        Plan {
            resize: next.resize.or(self.resize),
            clear: self.clear || next.clear,
            prefault: self.prefault || next.prefault,
        }
    }

    /// The size in bytes a table of `current` bytes has after this plan (assuming the
    /// allocation succeeds).
    pub fn bytes_after(&self, current: usize) -> usize {
        match self.resize {
            Some(b) => (b / std::mem::size_of::<Cluster>()).max(1) * std::mem::size_of::<Cluster>(),
            None => current,
        }
    }
}

/// A transposition table being resized, cleared and made resident on a background thread,
/// so that the caller (the protocol, whose clock may be running) never waits for it.
///
/// The table is moved to the thread and comes back through [`Self::try_take`] or
/// [`Self::wait`]. A preparation followed by another ([`Self::then`]) is cancelled: it
/// stops between 2 MiB slices and hands its table to the next, which redoes what was left
/// (plans add up, see [`Plan::then`]). Only one table exists at a time: the thread frees the
/// old one before allocating the new one.
///
/// While the `pause` flag given to [`Self::start`] is raised (the engine raises it while it
/// searches), the thread waits between slices, so that clearing and prefaulting never take
/// CPU time or memory bandwidth from a search (on a loaded 2-core machine they slowed a
/// search to a twentieth of its speed and made it overrun its time). Pausing between slices
/// rather than lowering the thread's priority keeps it from being preempted while it holds
/// a kernel or allocator lock the search needs.
pub struct Preparation {
    rx: Receiver<TranspositionTable>,
    cancel: Arc<AtomicBool>,
    pause: Arc<AtomicBool>,
    plan: Plan,
    size: usize,
}

/// Where a preparation takes its table from.
enum Source {
    Table(TranspositionTable),
    Pending(Receiver<TranspositionTable>),
}

impl Preparation {
    /// Starts carrying out `plan` on `table` on a new thread, pausing while `pause` is
    /// raised (if no thread can be started, the table is replaced by a fresh one of the
    /// planned size, not resident).
    pub fn start(table: TranspositionTable, plan: Plan, pause: Arc<AtomicBool>) -> Preparation {
        let size = plan.bytes_after(table.size_bytes());
        Self::spawn(Source::Table(table), plan, size, pause)
    }

    /// Cancels this preparation and starts one that carries out this plan and then `next`
    /// on its table (with the same pause flag).
    pub fn then(self, next: Plan) -> Preparation {
        self.cancel.store(true, Ordering::Relaxed);
        let plan = self.plan.then(next);
        let size = next.bytes_after(self.size);
        Self::spawn(Source::Pending(self.rx), plan, size, self.pause)
    }

    /// What the preparation carries out.
    pub fn plan(&self) -> Plan {
        self.plan
    }

    /// Size in bytes of the table it makes (unless an allocation has to be halved).
    pub fn size_bytes(&self) -> usize {
        self.size
    }

    /// The table if it is ready, without waiting.
    pub fn try_take(&mut self) -> Option<TranspositionTable> {
        match self.rx.try_recv() {
            Ok(t) => Some(t),
            Err(TryRecvError::Empty) => None,
            // The thread died (allocation failure): a minimal table rather than none.
            Err(TryRecvError::Disconnected) => Some(TranspositionTable::new(1)),
        }
    }

    /// The table once ready, waiting at most `timeout`.
    pub fn take_within(&mut self, timeout: Duration) -> Option<TranspositionTable> {
        match self.rx.recv_timeout(timeout) {
            Ok(t) => Some(t),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => Some(TranspositionTable::new(1)),
        }
    }

    /// The table, waiting as long as it takes. With `cancel` the remaining clearing and
    /// prefaulting are skipped (a cancelled clear leaves the table dirty, see
    /// [`TranspositionTable::is_dirty`]).
    pub fn wait(self, cancel: bool) -> TranspositionTable {
        if cancel {
            self.cancel.store(true, Ordering::Relaxed);
        }
        self.rx
            .recv()
            .unwrap_or_else(|_| TranspositionTable::new(1))
    }

    fn spawn(source: Source, plan: Plan, size: usize, pause: Arc<AtomicBool>) -> Preparation {
        let cancel = Arc::new(AtomicBool::new(false));
        let (tx, rx) = sync_channel(1);
        let (flag, paused) = (cancel.clone(), pause.clone());
        let spawned = std::thread::Builder::new()
            .name("tt-prepare".into())
            .spawn(move || {
                let table = match source {
                    Source::Table(t) => t,
                    Source::Pending(rx) => rx.recv().unwrap_or_else(|_| TranspositionTable::new(1)),
                };
                let go = || {
                    while paused.load(Ordering::Relaxed) && !flag.load(Ordering::Relaxed) {
                        std::thread::sleep(Duration::from_millis(1));
                    }
                    !flag.load(Ordering::Relaxed)
                };
                let _ = tx.send(carry_out(table, plan, &go));
            });
        if spawned.is_err() {
            // No thread: the closure and the table it held are gone (a pending one is freed
            // by its thread). A fresh table of the planned size, resident only as used.
            let (tx, rx) = sync_channel(1);
            let _ = tx.send(TranspositionTable::new(size));
            return Preparation {
                rx,
                cancel,
                pause,
                plan,
                size,
            };
        }
        Preparation {
            rx,
            cancel,
            pause,
            plan,
            size,
        }
    }
}

/// Keeps a [`Preparation`]'s pause flag raised until dropped (also when a search panics).
pub struct PauseGuard(Arc<AtomicBool>);

impl PauseGuard {
    /// Raises `flag` until the guard is dropped.
    pub fn new(flag: &Arc<AtomicBool>) -> PauseGuard {
        flag.store(true, Ordering::Relaxed);
        PauseGuard(flag.clone())
    }
}

impl Drop for PauseGuard {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Relaxed);
    }
}

/// Carries out `plan` on `table`, asking `go` between slices (see [`Preparation`]).
fn carry_out(
    mut table: TranspositionTable,
    plan: Plan,
    go: &dyn Fn() -> bool,
) -> TranspositionTable {
    if let Some(bytes) = plan.resize {
        if plan.bytes_after(table.size_bytes()) != table.size_bytes() {
            drop(table);
            table = TranspositionTable::new(bytes);
        }
    }
    if plan.clear && !table.clear_cancellable(go) {
        return table;
    }
    if plan.prefault {
        table.prefault_cancellable(go);
    }
    table
}

#[cfg(test)]
mod tests;
