//! The weights of the learned evaluation and move ordering: the file format, its checksum,
//! the built-in default and the expanded lookup tables (`docs/training.md` §4).
//!
//! A weights file holds, for every rule and colour, five tables of 16-bit values (evaluation
//! units, [`super::EVAL_SCALE`] per logistic unit):
//! - `mover` and `waiter`, indexed by canonical code ([`super::features::CANON_CODES`]
//!   entries): the value, for the side to move, of one empty point whose code for the colour
//!   is that code, when the colour is the side to move (`mover`) or its opponent (`waiter`);
//! - `threat`, indexed by the threat mask ([`super::features::MASKS`] entries), for the
//!   colour to move;
//! - `attack` and `defence`, indexed by canonical code: the move-ordering score of a point
//!   from the mover's code there and from the opponent's code there.
//!
//! Layout, little-endian: the magic `TYWEIGHT`, the format version (u32, [`FORMAT_VERSION`]),
//! the weights' own version (u32), the evaluation scale (u32), the number of tables (u32);
//! each table: rule index (u8, [`Rule::index`]), colour (u8, 0 black 1 white), kind (u8,
//! [`Kind`]), a zero byte, the number of values (u32), the values (i16 each); finally the
//! 64-bit FNV-1a checksum of every byte before it. Every rule, colour and kind must be
//! present exactly once.

use super::features::{self, CANON_CODES, MASKS};
use crate::board::canon::CLASS_SLOTS;
use crate::core::{Color, Rule};
use once_cell::sync::OnceCell;
use std::path::Path;
use thiserror::Error;

/// The file's magic bytes.
pub const MAGIC: &[u8; 8] = b"TYWEIGHT";
/// The version of the layout this code reads and writes.
pub const FORMAT_VERSION: u32 = 1;

/// The weights compiled into the binary (`weights/tianyuan.tyw`).
pub static DEFAULT_WEIGHTS: &[u8] = include_bytes!("../../weights/tianyuan.tyw");

/// The kind of a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Kind {
    /// Point value of the side to move's codes.
    Mover = 0,
    /// Point value of the opponent's codes (for the side to move).
    Waiter = 1,
    /// Value of the threat mask.
    Threat = 2,
    /// Move ordering: the mover's code at the point.
    Attack = 3,
    /// Move ordering: the opponent's code at the point.
    Defence = 4,
}

impl Kind {
    /// Every kind, in file order.
    pub const ALL: [Kind; 5] = [
        Kind::Mover,
        Kind::Waiter,
        Kind::Threat,
        Kind::Attack,
        Kind::Defence,
    ];
    /// Number of values of a table of this kind.
    pub fn values(self) -> usize {
        match self {
            Kind::Threat => MASKS,
            _ => CANON_CODES,
        }
    }
}

/// The tables of one rule and colour, in canonical form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColourWeights {
    /// One table per [`Kind`], in [`Kind::ALL`] order.
    pub tables: [Vec<i16>; 5],
}

impl ColourWeights {
    /// All zero.
    pub fn zero() -> ColourWeights {
        ColourWeights {
            tables: Kind::ALL.map(|k| vec![0; k.values()]),
        }
    }
    /// The table of a kind.
    pub fn table(&self, k: Kind) -> &[i16] {
        &self.tables[k as usize]
    }
    /// The table of a kind, mutable.
    pub fn table_mut(&mut self, k: Kind) -> &mut Vec<i16> {
        &mut self.tables[k as usize]
    }
}

/// A complete set of weights: every rule and colour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// The weights' own version number (which training run made them).
    pub version: u32,
    /// Evaluation units per logistic unit the weights were trained with.
    pub scale: u32,
    /// Indexed by `rule.index() * 2 + color.index()`.
    pub colours: Vec<ColourWeights>,
}

/// Errors of reading a weights file or a network file ([`super::network::file`]); the
/// messages name neither kind, the tools say which file they read.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum WeightsError {
    /// The file could not be read.
    #[error("cannot read weights file {path}: {reason}")]
    Io {
        /// The path.
        path: String,
        /// The system's message.
        reason: String,
    },
    /// Not a weights file.
    #[error("not a file of this kind (its first 8 bytes are not the magic)")]
    BadMagic,
    /// A format version this code does not read.
    #[error("format version {0} is not supported (expected {FORMAT_VERSION})")]
    Version(u32),
    /// The file ends early.
    #[error("the file is truncated")]
    Truncated,
    /// The checksum does not match: the file is corrupt.
    #[error("the file is corrupt (checksum {found:016x}, expected {expected:016x})")]
    Checksum {
        /// Checksum stored in the file.
        expected: u64,
        /// Checksum of the content.
        found: u64,
    },
    /// A table has an unknown rule, colour or kind, the wrong length, or appears twice.
    #[error("bad table: {0}")]
    BadTable(String),
    /// A rule, colour and kind has no table.
    #[error("missing table: {0}")]
    Missing(String),
    /// Bytes after the checksum.
    #[error("trailing bytes after the checksum")]
    Trailing,
}

/// 64-bit FNV-1a of `bytes`.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// A little-endian reader over a file's bytes (shared with the network file,
/// [`super::network::file`]).
pub(crate) struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    /// Checks a file's magic, format version and checksum (the last 8 bytes, FNV-1a of
    /// everything before) and returns a reader over the checked body, placed after the
    /// format version.
    ///
    /// Errors: [`WeightsError::BadMagic`], [`WeightsError::Version`],
    /// [`WeightsError::Truncated`], [`WeightsError::Checksum`].
    pub(crate) fn checked(
        bytes: &'a [u8],
        magic: &[u8; 8],
        format: u32,
    ) -> Result<Reader<'a>, WeightsError> {
        if bytes.len() < magic.len() || &bytes[..magic.len()] != magic {
            return Err(WeightsError::BadMagic);
        }
        if bytes.len() < magic.len() + 8 {
            return Err(WeightsError::Truncated);
        }
        let mut r = Reader {
            b: bytes,
            at: magic.len(),
        };
        let found_format = r.u32()?;
        if found_format != format {
            return Err(WeightsError::Version(found_format));
        }
        // Check the checksum before trusting any length.
        if bytes.len() < 8 + r.at {
            return Err(WeightsError::Truncated);
        }
        let body = &bytes[..bytes.len() - 8];
        let stored = u64::from_le_bytes(bytes[bytes.len() - 8..].try_into().expect("8 bytes"));
        let found = fnv1a(body);
        if stored != found {
            return Err(WeightsError::Checksum {
                expected: stored,
                found,
            });
        }
        Ok(Reader { b: body, at: r.at })
    }
    pub(crate) fn take(&mut self, n: usize) -> Result<&'a [u8], WeightsError> {
        let s = self
            .b
            .get(self.at..self.at + n)
            .ok_or(WeightsError::Truncated)?;
        self.at += n;
        Ok(s)
    }
    pub(crate) fn u8(&mut self) -> Result<u8, WeightsError> {
        Ok(self.take(1)?[0])
    }
    pub(crate) fn u32(&mut self) -> Result<u32, WeightsError> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().expect("4 bytes"),
        ))
    }
    /// Whether every byte of the body was read.
    pub(crate) fn at_end(&self) -> bool {
        self.at == self.b.len()
    }
}

/// Appends the checksum (FNV-1a of every byte so far) that ends a file.
pub(crate) fn seal(b: &mut Vec<u8>) {
    let sum = fnv1a(b);
    b.extend_from_slice(&sum.to_le_bytes());
}

impl Weights {
    /// All zero, every rule and colour.
    pub fn zero(version: u32, scale: u32) -> Weights {
        Weights {
            version,
            scale,
            colours: vec![ColourWeights::zero(); Rule::ALL.len() * 2],
        }
    }

    /// The tables of a rule and colour.
    pub fn get(&self, rule: Rule, color: Color) -> &ColourWeights {
        &self.colours[rule.index() * 2 + color.index()]
    }

    /// The tables of a rule and colour, mutable.
    pub fn get_mut(&mut self, rule: Rule, color: Color) -> &mut ColourWeights {
        &mut self.colours[rule.index() * 2 + color.index()]
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::new();
        b.extend_from_slice(MAGIC);
        b.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        b.extend_from_slice(&self.version.to_le_bytes());
        b.extend_from_slice(&self.scale.to_le_bytes());
        b.extend_from_slice(&((self.colours.len() * Kind::ALL.len()) as u32).to_le_bytes());
        for rule in Rule::ALL {
            for color in [Color::Black, Color::White] {
                for kind in Kind::ALL {
                    let t = self.get(rule, color).table(kind);
                    b.extend_from_slice(&[rule.index() as u8, color.index() as u8, kind as u8, 0]);
                    b.extend_from_slice(&(t.len() as u32).to_le_bytes());
                    for v in t {
                        b.extend_from_slice(&v.to_le_bytes());
                    }
                }
            }
        }
        seal(&mut b);
        b
    }

    /// Reads weights from the file's bytes.
    ///
    /// Errors: [`WeightsError`] (bad magic or version, truncated, corrupt, a table missing,
    /// duplicated or of the wrong length).
    pub fn from_bytes(bytes: &[u8]) -> Result<Weights, WeightsError> {
        let mut r = Reader::checked(bytes, MAGIC, FORMAT_VERSION)?;
        let version = r.u32()?;
        let scale = r.u32()?;
        let n = r.u32()? as usize;
        let mut w = Weights::zero(version, scale);
        let mut seen = vec![false; Rule::ALL.len() * 2 * Kind::ALL.len()];
        for _ in 0..n {
            let (ri, ci, ki) = (r.u8()? as usize, r.u8()? as usize, r.u8()? as usize);
            let _pad = r.u8()?;
            let len = r.u32()? as usize;
            if ri >= Rule::ALL.len() || ci >= 2 || ki >= Kind::ALL.len() {
                return Err(WeightsError::BadTable(format!(
                    "rule {ri} colour {ci} kind {ki}"
                )));
            }
            let kind = Kind::ALL[ki];
            let name = format!("{} {} {:?}", Rule::ALL[ri].name(), colour_name(ci), kind);
            // Tables of the 12-pattern set (before the open twos and ones were split) are
            // read and expanded: every finer code takes its coarse code's value.
            let legacy = kind != Kind::Threat && len == features::LEGACY_CANON_CODES;
            if len != kind.values() && !legacy {
                return Err(WeightsError::BadTable(format!(
                    "{name}: {len} values, expected {}",
                    kind.values()
                )));
            }
            let slot = (ri * 2 + ci) * Kind::ALL.len() + ki;
            if seen[slot] {
                return Err(WeightsError::BadTable(format!("{name} appears twice")));
            }
            seen[slot] = true;
            let data = r.take(len * 2)?;
            let value = |i: usize| i16::from_le_bytes([data[2 * i], data[2 * i + 1]]);
            let t = &mut w.colours[ri * 2 + ci].tables[ki];
            for (i, v) in t.iter_mut().enumerate() {
                *v = if legacy {
                    value(features::LEGACY_INDEX[i] as usize)
                } else {
                    value(i)
                };
            }
        }
        if !r.at_end() {
            return Err(WeightsError::Trailing);
        }
        if let Some(slot) = seen.iter().position(|&s| !s) {
            let (rc, ki) = (slot / Kind::ALL.len(), slot % Kind::ALL.len());
            return Err(WeightsError::Missing(format!(
                "{} {} {:?}",
                Rule::ALL[rc / 2].name(),
                colour_name(rc % 2),
                Kind::ALL[ki]
            )));
        }
        Ok(w)
    }

    /// Reads a weights file.
    ///
    /// Errors: [`WeightsError::Io`] if it cannot be read, else as [`Weights::from_bytes`].
    pub fn load(path: &Path) -> Result<Weights, WeightsError> {
        let bytes = std::fs::read(path).map_err(|e| WeightsError::Io {
            path: path.display().to_string(),
            reason: e.to_string(),
        })?;
        Weights::from_bytes(&bytes)
    }

    /// Writes a weights file.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        std::fs::write(path, self.to_bytes())
    }
}

fn colour_name(ci: usize) -> &'static str {
    if ci == 0 {
        "black"
    } else {
        "white"
    }
}

/// The expanded tables of one rule and colour, indexed by canonical class
/// ([`crate::board::canon`]; [`CLASS_SLOTS`] entries, masked index).
pub struct EvalTables {
    /// Per class: the `mover` value in the low 16 bits, the `waiter` value in the high 16.
    pub value: Box<[u32; CLASS_SLOTS]>,
    /// Per class: the `attack` ordering score in the low 16 bits, `defence` in the high 16.
    pub order: Box<[u32; CLASS_SLOTS]>,
    /// Per class: the threat-count slot of its combo (0..=5 a threat class of
    /// [`features::class`], 7 none) in bits 0-2, and bit 3 set when one of its line patterns
    /// is a four or better ([`crate::board::has_four_line`]).
    pub info: Box<[u8; CLASS_SLOTS]>,
    /// Per threat mask: its value for this colour to move.
    pub threat: Box<[i16; MASKS]>,
}

impl EvalTables {
    /// Expands the canonical tables of `rule` and `color`.
    pub fn build(w: &Weights, rule: Rule, color: Color) -> EvalTables {
        let cw = w.get(rule, color);
        let pack = |a: i16, b: i16| (a as u16 as u32) | ((b as u16 as u32) << 16);
        let mut value = Box::new([0u32; CLASS_SLOTS]);
        let mut order = Box::new([0u32; CLASS_SLOTS]);
        let mut info = Box::new([0u8; CLASS_SLOTS]);
        let classes = features::class_table(rule, color);
        let combos = crate::board::ComboTable::get(rule, color);
        for i in 0..CANON_CODES {
            value[i] = pack(cw.table(Kind::Mover)[i], cw.table(Kind::Waiter)[i]);
            order[i] = pack(cw.table(Kind::Attack)[i], cw.table(Kind::Defence)[i]);
        }
        for code in (0..=u16::MAX).filter(|&c| crate::board::canon::is_valid_code(c)) {
            let i = features::canon(code);
            let k = classes[combos.combo(code) as usize] as usize;
            let slot = if k < features::CLASSES { k as u8 } else { 7 };
            info[i] = slot | (crate::board::has_four_line(code) as u8) << 3;
        }
        let mut threat = Box::new([0i16; MASKS]);
        threat.copy_from_slice(cw.table(Kind::Threat));
        EvalTables {
            value,
            order,
            info,
            threat,
        }
    }
}

static ACTIVE: OnceCell<Weights> = OnceCell::new();

/// Makes `w` the weights of this process. Must be called before the first evaluation
/// (tools call it at start-up for `--weights FILE`).
///
/// Errors: the weights in use were already fixed (returns `w` back).
pub fn install(w: Weights) -> Result<(), Weights> {
    ACTIVE.set(w)
}

/// The weights in use: those installed, else the built-in default.
///
/// Panics only if the built-in weights are corrupt, which `cargo test` rules out
/// (`weights::tests::default_weights_load`).
pub fn active() -> &'static Weights {
    ACTIVE.get_or_init(|| {
        Weights::from_bytes(DEFAULT_WEIGHTS).expect("the built-in weights file is valid")
    })
}

/// The expanded tables of `rule` and `color` for the weights in use (built for a rule on
/// its first use: about 1 MiB per rule).
pub fn tables(rule: Rule, color: Color) -> &'static EvalTables {
    static TABLES: [OnceCell<[EvalTables; 2]>; 5] = [
        OnceCell::new(),
        OnceCell::new(),
        OnceCell::new(),
        OnceCell::new(),
        OnceCell::new(),
    ];
    let pair = TABLES[rule.index()].get_or_init(|| {
        let w = active();
        [
            EvalTables::build(w, rule, Color::Black),
            EvalTables::build(w, rule, Color::White),
        ]
    });
    &pair[color.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Weights {
        let mut w = Weights::zero(7, 200);
        for (i, cw) in w.colours.iter_mut().enumerate() {
            for (k, t) in cw.tables.iter_mut().enumerate() {
                for (j, v) in t.iter_mut().enumerate() {
                    *v = ((i * 31 + k * 7 + j) % 2001) as i16 - 1000;
                }
            }
        }
        w
    }

    #[test]
    fn round_trip() {
        let w = sample();
        let b = w.to_bytes();
        assert_eq!(Weights::from_bytes(&b).unwrap(), w);
        let dir = std::env::temp_dir().join(format!("tyw-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("w.tyw");
        w.save(&path).unwrap();
        assert_eq!(Weights::load(&path).unwrap(), w);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn corrupt_files_are_errors() {
        let b = sample().to_bytes();
        // One flipped bit anywhere in the body.
        for at in [8, 13, 40, 5000, b.len() - 9] {
            let mut c = b.clone();
            c[at] ^= 0x10;
            let e = Weights::from_bytes(&c).unwrap_err();
            assert!(
                matches!(e, WeightsError::Checksum { .. } | WeightsError::Version(_)),
                "{at}: {e}"
            );
        }
        assert_eq!(
            Weights::from_bytes(b"nonsense"),
            Err(WeightsError::BadMagic)
        );
        assert_eq!(
            Weights::from_bytes(&b[..20]),
            Err(WeightsError::Checksum {
                expected: u64::from_le_bytes(b[12..20].try_into().unwrap()),
                found: fnv1a(&b[..12]),
            })
        );
        assert_eq!(Weights::from_bytes(&b[..10]), Err(WeightsError::Truncated));
        // A missing table (a valid file with one table dropped).
        let mut w = sample().to_bytes();
        w.truncate(w.len() - 8);
        let last = 8 + 2 * CANON_CODES;
        w.truncate(w.len() - last);
        let n = u32::from_le_bytes(w[20..24].try_into().unwrap()) - 1;
        w[20..24].copy_from_slice(&n.to_le_bytes());
        let s = fnv1a(&w);
        w.extend_from_slice(&s.to_le_bytes());
        assert!(matches!(
            Weights::from_bytes(&w),
            Err(WeightsError::Missing(_))
        ));
        let e = Weights::load(Path::new("/nonexistent/w.tyw")).unwrap_err();
        assert!(e.to_string().contains("cannot read weights file"));
    }

    /// A file of the 12-pattern set (tables of [`features::LEGACY_CANON_CODES`] values) is
    /// read, and every finer code gets its coarse code's value.
    #[test]
    fn legacy_tables_are_expanded() {
        use crate::board::Pattern::*;
        let mut w = sample();
        for cw in w.colours.iter_mut() {
            for (k, t) in cw.tables.iter_mut().enumerate() {
                if Kind::ALL[k] != Kind::Threat {
                    t.truncate(features::LEGACY_CANON_CODES);
                }
            }
        }
        let b = w.to_bytes();
        let e = Weights::from_bytes(&b).expect("legacy file");
        let legacy = w.get(Rule::Freestyle, Color::White).table(Kind::Mover);
        let table = e.get(Rule::Freestyle, Color::White).table(Kind::Mover);
        assert_eq!(table.len(), CANON_CODES);
        let code = |p: [crate::board::Pattern; 4]| {
            p.iter()
                .enumerate()
                .fold(0u16, |c, (d, &x)| c | (x as u16) << (4 * d))
        };
        let idx = |p| features::canon(code(p));
        // The split patterns share the value of the pattern they were split from ...
        let a = table[idx([OpenTwo4, One, Dead, Four])];
        assert_eq!(a, table[idx([OpenTwo, ClosedOne, Dead, Four])]);
        assert_eq!(a, table[idx([OpenTwo3, One, Dead, Four])]);
        // ... which is the legacy table's value of the multiset {Dead, One, OpenTwo, Four}
        // (old pattern values 0, 2, 4, 8), counted in lexicographic order of the old set.
        let mut old_index = 0;
        'count: for a in 0..12 {
            for b in a..12 {
                for c in b..12 {
                    for d in c..12 {
                        if [a, b, c, d] == [0, 2, 4, 8] {
                            break 'count;
                        }
                        old_index += 1;
                    }
                }
            }
        }
        assert_eq!(a, legacy[old_index]);
        assert_ne!(a, table[idx([OpenTwo, ClosedTwo, Dead, Four])]);
        // The threat tables are unchanged.
        assert_eq!(
            e.get(Rule::Renju, Color::Black).table(Kind::Threat),
            w.get(Rule::Renju, Color::Black).table(Kind::Threat)
        );
    }

    #[test]
    fn default_weights_load() {
        let w = Weights::from_bytes(DEFAULT_WEIGHTS).expect("built-in weights");
        assert!(w.scale > 0);
    }
}
