//! Canonical classes of point codes.
//!
//! A point's *code* for one colour packs its four line [`super::Pattern`]s (15 values) in
//! four nibbles, direction `d` in bits `4d..4d+4`. Nothing that is read from a code (its
//! [`super::Combo`], its evaluation value, its move-ordering score, whether it holds a four)
//! depends on the order of the directions, so every code maps to the index of its multiset of
//! four patterns, its *class*: [`CANON_CODES`] = C(18, 4) = 3060 classes
//! (docs/training.md §3). The board keeps the class of every empty point beside its code
//! ([`super::Board::class`]), so that the per-point tables of the evaluation, the move
//! ordering and the combos have 3060 entries (a few KiB, cache-resident) instead of 65536.

/// Number of pattern values ([`super::Pattern`] `0..=14`).
pub const PATTERNS: usize = 15;
/// Number of classes: multisets of four patterns.
pub const CANON_CODES: usize = multichoose(PATTERNS, 4);

/// Length of tables indexed by class: the power of two above [`CANON_CODES`], so that an
/// index masked with `CLASS_SLOTS - 1` needs no bounds check (the slots from
/// [`CANON_CODES`] on are never read).
pub const CLASS_SLOTS: usize = 4096;
const _: () = assert!(CANON_CODES <= CLASS_SLOTS);

/// Number of multisets of size `k` (at most 4) from `n` values: C(n + k - 1, k).
pub const fn multichoose(n: usize, k: usize) -> usize {
    let m = n + k - 1;
    match k {
        0 => 1,
        1 => m,
        2 => m * (m - 1) / 2,
        3 => m * (m - 1) * (m - 2) / 6,
        _ => m * (m - 1) * (m - 2) * (m - 3) / 24,
    }
}

/// Index of the sorted multiset `p` (ascending, values below `n`) among all sorted multisets
/// of four values below `n`, in lexicographic order.
pub const fn canon_index_of(p: [usize; 4], n: usize) -> usize {
    // Count the multisets that come before p, position by position.
    let mut idx = 0;
    let mut lo = 0;
    let mut i = 0;
    while i < 4 {
        let rest = 3 - i;
        let mut x = lo;
        while x < p[i] {
            // Multisets with this position = x and the rest from x..n.
            idx += multichoose(n - x, rest);
            x += 1;
        }
        lo = p[i];
        i += 1;
    }
    idx
}

/// The class of every 16-bit code; codes with a nibble above 14 never occur and map to 0.
const fn build_canon() -> [u16; 1 << 16] {
    let mut t = [0u16; 1 << 16];
    let mut code = 0usize;
    while code < 1 << 16 {
        let mut p = [
            code & 0xF,
            (code >> 4) & 0xF,
            (code >> 8) & 0xF,
            (code >> 12) & 0xF,
        ];
        if p[0] < PATTERNS && p[1] < PATTERNS && p[2] < PATTERNS && p[3] < PATTERNS {
            // Insertion sort of four values.
            let mut i = 1;
            while i < 4 {
                let mut j = i;
                while j > 0 && p[j - 1] > p[j] {
                    let t = p[j - 1];
                    p[j - 1] = p[j];
                    p[j] = t;
                    j -= 1;
                }
                i += 1;
            }
            t[code] = canon_index_of(p, PATTERNS) as u16;
        }
        code += 1;
    }
    t
}

/// The class of every 16-bit code, computed at compile time (128 KiB, shared by every rule
/// and colour).
pub static CANON: [u16; 1 << 16] = build_canon();

/// Whether every nibble of `code` is a pattern (`0..=14`): the codes the board can hold.
/// Tables built by class from codes must skip the others (they all map to class 0).
pub const fn is_valid_code(code: u16) -> bool {
    let mut d = 0;
    while d < 4 {
        if (code >> (4 * d)) & 0xF >= PATTERNS as u16 {
            return false;
        }
        d += 1;
    }
    true
}

/// The class of a code.
#[inline(always)]
pub fn canon(code: u16) -> usize {
    CANON[code as usize] as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_ignore_the_order_of_directions() {
        let code = |p: [u16; 4]| p[0] | p[1] << 4 | p[2] << 8 | p[3] << 12;
        assert_eq!(canon(code([7, 2, 2, 12])), canon(code([2, 12, 7, 2])));
        assert_ne!(canon(code([7, 2, 2, 12])), canon(code([7, 2, 3, 12])));
        assert_eq!(canon(0), 0);
        assert_eq!(canon(code([14, 14, 14, 14])), CANON_CODES - 1);
        let max = (0..=u16::MAX).map(canon).max().unwrap();
        assert_eq!(max, CANON_CODES - 1);
    }
}
