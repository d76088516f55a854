//! Sharded runs (docs/cluster.md): `--shard K/N` of `selfplay`, `label` and `match`, the
//! header and end lines of a shard's output file, reading such a file back (a torn last
//! record is dropped, not the file), and the checks `merge` makes before it joins shards.
//!
//! A shard file is a line file whose first comment lines include one header line
//!
//! ```text
//! # shard {"format":1,"kind":"selfplay","k":1,"n":4,"total":100,"first":25,"count":25,"engine":{...},"settings":{...}}
//! ```
//!
//! then one record per line (a game of docs/training.md §1, or a match game as JSON), then
//! `# shard-end {"records":25}` once the shard has finished. Shard `K` of `N` does the items
//! `K * total / N .. (K + 1) * total / N` of the whole run ([`Shard::range`]): contiguous
//! blocks, so that joining the shards in the order of `K` gives the items in the order one
//! unsharded run has them. Every shard of one run must carry the same `kind`, `n`, `total`,
//! `engine` and `settings`; [`check_shards`] says which field differs otherwise.

use crate::core::quote_path;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::Write;
use std::ops::Range;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Version of the header's layout (the `format` field).
pub const FORMAT: u32 = 1;

/// What a header line starts with.
pub const HEADER_PREFIX: &str = "# shard ";

/// What the end line starts with.
pub const END_PREFIX: &str = "# shard-end ";

/// Most shards a run may be split into.
pub const MAX_SHARDS: usize = 100_000;

/// One part of a run: shard `k` (from 0) of `n` (docs/cluster.md §1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Shard {
    /// This shard's number, `0..n` (as Slurm's `SLURM_ARRAY_TASK_ID` and Kubernetes'
    /// `JOB_COMPLETION_INDEX` count).
    pub k: usize,
    /// The number of shards, `1..=`[`MAX_SHARDS`].
    pub n: usize,
}

impl Shard {
    /// Parses `K/N` (`0 <= K < N <= MAX_SHARDS`, decimal, spaces around the numbers allowed).
    ///
    /// Errors: [`ShardError::Spec`] naming what is wrong.
    pub fn parse(text: &str) -> Result<Shard, ShardError> {
        let bad = |why: &str| {
            ShardError::Spec(format!(
                "--shard wants K/N with 0 <= K < N <= {MAX_SHARDS} (K counts from 0, as \
                 SLURM_ARRAY_TASK_ID and JOB_COMPLETION_INDEX do); '{}' {why}",
                crate::core::excerpt(text)
            ))
        };
        let (k, n) = text.split_once('/').ok_or_else(|| bad("has no '/'"))?;
        let num = |s: &str| {
            let s = s.trim();
            if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            s.parse::<usize>().ok()
        };
        let (Some(k), Some(n)) = (num(k), num(n)) else {
            return Err(bad("is not two whole numbers"));
        };
        if n == 0 || n > MAX_SHARDS {
            return Err(bad("has N out of range"));
        }
        if k >= n {
            return Err(bad("has K >= N"));
        }
        Ok(Shard { k, n })
    }

    /// [`Shard::parse`] for clap's `value_parser`.
    pub fn parse_arg(text: &str) -> Result<Shard, String> {
        Shard::parse(text).map_err(|e| e.to_string())
    }

    /// The items of a run of `total` items that this shard does:
    /// `k * total / n .. (k + 1) * total / n` (rounded down). The shards' ranges are
    /// disjoint, in order, and cover `0..total`; their sizes differ by at most one.
    pub fn range(&self, total: usize) -> Range<usize> {
        let at = |k: usize| (k as u128 * total as u128 / self.n as u128) as usize;
        at(self.k)..at(self.k + 1)
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

/// Errors of shards: a bad `--shard`, an unreadable or malformed shard file, and shards that
/// do not belong together.
#[derive(Debug, Error)]
pub enum ShardError {
    /// A bad `K/N`.
    #[error("{0}")]
    Spec(String),
    /// A file cannot be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file, quoted.
        path: String,
        /// The OS error.
        source: std::io::Error,
    },
    /// A file is not a shard file, or its content is malformed.
    #[error("{path}: {msg}")]
    File {
        /// The file, quoted.
        path: String,
        /// What is wrong (with the line number where there is one).
        msg: String,
    },
    /// Shards that cannot be merged: different runs, duplicates, missing shards.
    #[error("{0}")]
    Mismatch(String),
}

/// The header line of a shard file (module docs, docs/cluster.md §2): which part of which
/// run the file holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardHeader {
    /// [`FORMAT`].
    pub format: u32,
    /// The command that wrote it: `selfplay`, `label` or `match`.
    pub kind: String,
    /// This shard's number.
    pub k: usize,
    /// The number of shards.
    pub n: usize,
    /// Items (games, records) of the whole run.
    pub total: usize,
    /// The first item of this shard (0-based, in the whole run).
    pub first: usize,
    /// Items of this shard.
    pub count: usize,
    /// What played or labelled: program, version, fingerprints (equal in every shard).
    pub engine: Value,
    /// Every option that changes the output (equal in every shard).
    pub settings: Value,
}

impl ShardHeader {
    /// The header of shard `shard` of a run of `total` items.
    pub fn new(kind: &str, shard: Shard, total: usize, engine: Value, settings: Value) -> Self {
        let r = shard.range(total);
        ShardHeader {
            format: FORMAT,
            kind: kind.to_string(),
            k: shard.k,
            n: shard.n,
            total,
            first: r.start,
            count: r.len(),
            engine,
            settings,
        }
    }

    /// The shard it describes.
    pub fn shard(&self) -> Shard {
        Shard {
            k: self.k,
            n: self.n,
        }
    }

    /// The header line (no newline).
    pub fn line(&self) -> String {
        format!(
            "{HEADER_PREFIX}{}",
            serde_json::to_string(self).expect("a header serialises")
        )
    }
}

/// The end line of a shard that wrote `records` records (no newline).
pub fn end_line(records: usize) -> String {
    format!("{END_PREFIX}{}", serde_json::json!({ "records": records }))
}

/// A shard file as read back.
#[derive(Clone, Debug)]
pub struct ShardFile {
    /// Where it was read from.
    pub path: PathBuf,
    /// Its header.
    pub header: ShardHeader,
    /// Its complete records in file order: the 1-based line number and the line's text.
    pub records: Vec<(usize, String)>,
    /// Whether the end line is present (the shard finished).
    pub ended: bool,
    /// What was noticed and dropped (a torn last line), for the user.
    pub notes: Vec<String>,
}

/// Reads a shard file (docs/cluster.md §2 and §3). Blank lines and `#` comments other than the header and end lines are
/// skipped. A last line without its end of line is the torn write of a killed job: it is
/// dropped with a note in [`ShardFile::notes`] (its prefix may look like a complete but
/// shorter record, so it is never kept).
///
/// Errors: [`ShardError::Io`] when the file cannot be read; [`ShardError::File`] when there
/// is no complete header line, a second header, a bad header, a record before the header or
/// after the end line, a line that is not UTF-8, or an end line whose count differs from
/// the records present.
pub fn read_shard_file(path: &Path) -> Result<ShardFile, ShardError> {
    let p = quote_path(path);
    let bytes = std::fs::read(path).map_err(|source| ShardError::Io {
        path: p.clone(),
        source,
    })?;
    let file_err = |msg: String| ShardError::File {
        path: p.clone(),
        msg,
    };
    let mut notes = Vec::new();
    let mut pieces: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    // After the last '\n' comes either nothing (a complete file) or a torn line.
    let torn = pieces.pop().filter(|t| !t.is_empty());
    let mut header: Option<ShardHeader> = None;
    let mut records = Vec::new();
    let mut ended: Option<(usize, usize)> = None;
    for (i, raw) in pieces.iter().enumerate() {
        let no = i + 1;
        let line = std::str::from_utf8(raw)
            .map_err(|_| file_err(format!("line {no} is not UTF-8 text")))?
            .trim_end_matches('\r');
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if let Some((end_no, _)) = ended {
            return Err(file_err(format!(
                "line {no} comes after the end line (line {end_no})"
            )));
        }
        if let Some(json) = t.strip_prefix(END_PREFIX) {
            let v: Value = serde_json::from_str(json)
                .map_err(|e| file_err(format!("line {no}: bad end line: {e}")))?;
            let n = v
                .get("records")
                .and_then(Value::as_u64)
                .ok_or_else(|| file_err(format!("line {no}: end line without 'records'")))?;
            ended = Some((no, n as usize));
            continue;
        }
        if let Some(json) = t.strip_prefix(HEADER_PREFIX) {
            if header.is_some() {
                return Err(file_err(format!("line {no}: a second shard header")));
            }
            header = Some(parse_header(json).map_err(|m| file_err(format!("line {no}: {m}")))?);
            continue;
        }
        if t.starts_with('#') {
            continue;
        }
        if header.is_none() {
            return Err(file_err(format!(
                "line {no}: a record before the shard header (not a shard file?)"
            )));
        }
        records.push((no, t.to_string()));
    }
    let Some(header) = header else {
        let in_header = torn.is_some_and(|t| t.starts_with(HEADER_PREFIX.trim_end().as_bytes()));
        let why = if in_header {
            "no complete shard header (the file ends inside it: the job was killed at once?)"
        } else {
            "no shard header line ('# shard {...}'): not the output of a --shard run"
        };
        return Err(file_err(why.to_string()));
    };
    if let Some(t) = torn {
        notes.push(format!(
            "{p}: the last line (line {}, {} bytes) has no end of line: a record torn when \
             the job was killed; dropped",
            pieces.len() + 1,
            t.len()
        ));
    }
    if let Some((no, n)) = ended {
        if n != records.len() {
            return Err(file_err(format!(
                "line {no}: the end line counts {n} records, the file has {}",
                records.len()
            )));
        }
    }
    if records.len() > header.count {
        return Err(file_err(format!(
            "{} records where shard {} has {}",
            records.len(),
            header.shard(),
            header.count
        )));
    }
    Ok(ShardFile {
        path: path.to_path_buf(),
        header,
        records,
        ended: ended.is_some(),
        notes,
    })
}

/// A header line's JSON, checked: the format, `k < n <= MAX_SHARDS`, and `first`/`count`
/// equal to the shard's [`Shard::range`] of `total`.
fn parse_header(json: &str) -> Result<ShardHeader, String> {
    let h: ShardHeader =
        serde_json::from_str(json).map_err(|e| format!("bad shard header: {e}"))?;
    if h.format != FORMAT {
        return Err(format!(
            "shard format {} (this program reads {FORMAT})",
            h.format
        ));
    }
    if h.n == 0 || h.n > MAX_SHARDS || h.k >= h.n {
        return Err(format!("shard header says shard {}/{}", h.k, h.n));
    }
    let r = h.shard().range(h.total);
    if (h.first, h.count) != (r.start, r.len()) {
        return Err(format!(
            "shard header says items {}..{} but shard {} of {} items is {}..{}",
            h.first,
            h.first.saturating_add(h.count),
            h.shard(),
            h.total,
            r.start,
            r.end
        ));
    }
    Ok(h)
}

/// The first place where two JSON values differ: a dotted path (`settings.nodes`,
/// `engine.weights.fnv1a`, `settings.engine_options[1]`) and the two values there as JSON
/// text. `None` when equal.
pub fn first_difference(a: &Value, b: &Value, path: &str) -> Option<(String, String, String)> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, va) in x {
                let sub = format!("{path}.{k}");
                match y.get(k) {
                    Some(vb) => {
                        if let Some(d) = first_difference(va, vb, &sub) {
                            return Some(d);
                        }
                    }
                    None => return Some((sub, va.to_string(), "nothing".into())),
                }
            }
            y.iter()
                .find(|(k, _)| !x.contains_key(*k))
                .map(|(k, vb)| (format!("{path}.{k}"), "nothing".into(), vb.to_string()))
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (va, vb))| first_difference(va, vb, &format!("{path}[{i}]"))),
        _ => (a != b).then(|| (path.to_string(), a.to_string(), b.to_string())),
    }
}

/// Checks that `files` are the `N` shards of one run, each once, and returns them in the
/// order of `K` (docs/cluster.md §3).
///
/// Errors ([`ShardError::Mismatch`], naming the files): no files; shards of different kinds,
/// shard counts, formats, run sizes, engines or settings (with the first field that
/// differs); a shard given twice; missing shards.
pub fn check_shards(mut files: Vec<ShardFile>) -> Result<Vec<ShardFile>, ShardError> {
    let Some(first) = files.first() else {
        return Err(ShardError::Mismatch("no shard files given".into()));
    };
    let h0 = first.header.clone();
    let name = |f: &ShardFile| format!("{} (shard {})", quote_path(&f.path), f.header.shard());
    let name0 = name(first);
    for f in &files[1..] {
        let h = &f.header;
        let differ = |what: &str, a: String, b: String| {
            ShardError::Mismatch(format!(
                "{what}: {a} in {name0}, {b} in {}: not shards of one run",
                name(f)
            ))
        };
        if h.kind != h0.kind {
            return Err(differ(
                "different commands",
                format!("'{}'", h0.kind),
                format!("'{}'", h.kind),
            ));
        }
        if h.n != h0.n {
            return Err(differ(
                "different shard counts",
                h0.n.to_string(),
                h.n.to_string(),
            ));
        }
        if h.total != h0.total {
            return Err(differ(
                "different run sizes",
                format!("{} items", h0.total),
                format!("{} items", h.total),
            ));
        }
        if let Some((at, a, b)) = first_difference(&h0.engine, &h.engine, "engine") {
            return Err(differ(&format!("different engines ({at})"), a, b));
        }
        if let Some((at, a, b)) = first_difference(&h0.settings, &h.settings, "settings") {
            return Err(differ(&format!("different settings ({at})"), a, b));
        }
    }
    let mut by_k: BTreeMap<usize, &ShardFile> = BTreeMap::new();
    for f in &files {
        if let Some(other) = by_k.insert(f.header.k, f) {
            return Err(ShardError::Mismatch(format!(
                "shard {} given twice: {} and {}",
                f.header.shard(),
                quote_path(&other.path),
                quote_path(&f.path)
            )));
        }
    }
    let missing: Vec<String> = (0..h0.n)
        .filter(|k| !by_k.contains_key(k))
        .map(|k| format!("{k}/{}", h0.n))
        .collect();
    if !missing.is_empty() {
        let shown = if missing.len() > 10 {
            format!(
                "{} ... ({} in all)",
                missing[..10].join(", "),
                missing.len()
            )
        } else {
            missing.join(", ")
        };
        return Err(ShardError::Mismatch(format!(
            "missing shard{} {shown} of a run of {} shards ({} given)",
            if missing.len() == 1 { "" } else { "s" },
            h0.n,
            files.len()
        )));
    }
    files.sort_by_key(|f| f.header.k);
    Ok(files)
}

/// A note for each shard that did not finish (no end line): how many of its items (`unit`:
/// "games", "records") it has.
pub fn incomplete_notes(files: &[ShardFile], unit: &str) -> Vec<String> {
    files
        .iter()
        .filter(|f| !f.ended)
        .map(|f| {
            format!(
                "{}: shard {} is incomplete, {} of its {} {unit} (no end line: the job was \
                 killed or is still running); merged what it has",
                quote_path(&f.path),
                f.header.shard(),
                f.records.len(),
                f.header.count
            )
        })
        .collect()
}

/// Writes lines in the order of their index, whatever order they arrive in: a line waits
/// until every earlier index has been written. The writer is flushed after each batch, so a
/// killed process leaves whole lines (and at most one torn line) behind.
pub struct InOrder<W: Write> {
    out: W,
    next: usize,
    pending: BTreeMap<usize, String>,
}

impl<W: Write> InOrder<W> {
    /// Lines from index `first` on go to `out`.
    pub fn new(out: W, first: usize) -> Self {
        InOrder {
            out,
            next: first,
            pending: BTreeMap::new(),
        }
    }

    /// Adds line `index` (without its newline) and writes every line that is now due.
    ///
    /// Errors: the writer's.
    pub fn push(&mut self, index: usize, line: String) -> std::io::Result<()> {
        self.pending.insert(index, line);
        let mut wrote = false;
        while let Some(line) = self.pending.remove(&self.next) {
            writeln!(self.out, "{line}")?;
            self.next += 1;
            wrote = true;
        }
        if wrote {
            self.out.flush()?;
        }
        Ok(())
    }

    /// Lines written so far (the next index due, minus the first).
    pub fn next_index(&self) -> usize {
        self.next
    }

    /// The writer, for a last line.
    pub fn writer(&mut self) -> &mut W {
        &mut self.out
    }
}

/// FNV-1a (64-bit) of a file's bytes as 16 hex digits, or `None` when it cannot be read.
pub fn file_fingerprint(path: &Path) -> Option<String> {
    let bytes = std::fs::read(path).ok()?;
    Some(format!("{:016x}", crate::eval::weights::fnv1a(&bytes)))
}

/// The file a program name runs: itself when it contains a `/`, else the first executable
/// of that name on `PATH`.
pub fn resolve_program(program: &str) -> Option<PathBuf> {
    if program.contains('/') || program.contains(std::path::MAIN_SEPARATOR) {
        let p = PathBuf::from(program);
        return p.is_file().then_some(p);
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|d| d.join(program))
        .find(|p| p.is_file())
}

/// The identity of an engine run as a program (`label`'s and `match`'s engines): its
/// command line and the fingerprint of the program file (`null` when it cannot be found).
pub fn program_identity(command: &str, program: &str) -> Value {
    serde_json::json!({
        "command": command,
        "program_fnv1a": resolve_program(program).and_then(|p| file_fingerprint(&p)),
    })
}

/// The identity of this build as an engine (`selfplay`): name, version, the fingerprint of
/// the running executable, and the version and checksum of the evaluation weights in use
/// (built-in or `--weights`); with the cargo feature `tune`, the `TIANYUAN_PARAMS` in force.
pub fn this_engine() -> Value {
    static EXE: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    let exe = EXE.get_or_init(|| {
        std::env::current_exe()
            .ok()
            .and_then(|p| file_fingerprint(&p))
    });
    let w = crate::eval::weights::active();
    let mut v = serde_json::json!({
        "program": "tianyuan",
        "version": env!("CARGO_PKG_VERSION"),
        "binary_fnv1a": exe,
        "weights": {
            "version": w.version,
            "fnv1a": format!("{:016x}", crate::eval::weights::fnv1a(&w.to_bytes())),
        },
    });
    if cfg!(feature = "tune") {
        v["tune_params"] = serde_json::json!(std::env::var("TIANYUAN_PARAMS").ok());
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parse_shards() {
        assert_eq!(Shard::parse("0/1").unwrap(), Shard { k: 0, n: 1 });
        assert_eq!(Shard::parse(" 3 / 4 ").unwrap(), Shard { k: 3, n: 4 });
        assert_eq!(Shard::parse("2/4").unwrap().to_string(), "2/4");
        for bad in [
            "4/4", "1/0", "-1/4", "1", "a/4", "1/4/2", "", "/", "1/100001", "+1/4",
        ] {
            let e = Shard::parse(bad).unwrap_err().to_string();
            assert!(e.starts_with("--shard wants K/N"), "{bad}: {e}");
        }
        assert!(Shard::parse("4/4")
            .unwrap_err()
            .to_string()
            .ends_with("has K >= N"));
    }

    #[test]
    fn ranges_cover_the_run_in_order() {
        // 10 items in 4 shards: 0..2, 2..5, 5..7, 7..10 (k * 10 / 4 rounded down).
        let r: Vec<Range<usize>> = (0..4).map(|k| Shard { k, n: 4 }.range(10)).collect();
        assert_eq!(r, [0..2, 2..5, 5..7, 7..10]);
        for (total, n) in [(0, 3), (1, 5), (7, 7), (100, 4), (101, 10), (5, 1)] {
            let mut next = 0;
            for k in 0..n {
                let r = Shard { k, n }.range(total);
                assert_eq!(r.start, next, "{total} in {n}");
                assert!(r.len() == total / n || r.len() == total / n + 1);
                next = r.end;
            }
            assert_eq!(next, total);
        }
        // No overflow at the extremes.
        let big = Shard {
            k: MAX_SHARDS - 1,
            n: MAX_SHARDS,
        };
        assert_eq!(big.range(usize::MAX).end, usize::MAX);
    }

    fn unit_dir() -> PathBuf {
        std::env::temp_dir().join(format!("tianyuan-shard-unit-{}", std::process::id()))
    }

    fn write(name: &str, text: &str) -> PathBuf {
        let dir = unit_dir();
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    }

    fn header(k: usize, n: usize, settings: Value) -> ShardHeader {
        ShardHeader::new("selfplay", Shard { k, n }, 4, json!({"v": 1}), settings)
    }

    #[test]
    fn torn_last_line_is_dropped() {
        let h = header(1, 2, json!({"nodes": 10}));
        let whole = format!(
            "# tianyuan-games 1\n{}\nrec a\nrec b\n{}\n",
            h.line(),
            end_line(2)
        );
        let f = read_shard_file(&write("whole.txt", &whole)).unwrap();
        assert_eq!(f.header, h);
        assert_eq!((f.header.first, f.header.count), (2, 2));
        assert_eq!(
            f.records,
            [(3, "rec a".to_string()), (4, "rec b".to_string())]
        );
        assert!(f.ended && f.notes.is_empty());
        // Killed while writing the second record: the first is kept, the torn one dropped.
        let cut = format!("# tianyuan-games 1\n{}\nrec a\nrec", h.line());
        let f = read_shard_file(&write("cut.txt", &cut)).unwrap();
        assert_eq!(f.records, [(3, "rec a".to_string())]);
        assert!(!f.ended);
        assert_eq!(f.notes.len(), 1);
        assert!(
            f.notes[0].contains("line 4, 3 bytes) has no end of line")
                && f.notes[0].ends_with("dropped"),
            "{:?}",
            f.notes
        );
        // Killed inside the header: no usable file.
        let e = read_shard_file(&write("head.txt", "# tianyuan-games 1\n# shard {\"form"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("no complete shard header"), "{e}");
        // Not a shard file at all.
        let e = read_shard_file(&write("plain.txt", "# tianyuan-games 1\nrec a\n"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("before the shard header"), "{e}");
        // Too many records, a wrong end count, a record after the end.
        let more = format!("{}\na\nb\nc\n", h.line());
        assert!(read_shard_file(&write("more.txt", &more)).is_err());
        let wrong = format!("{}\na\n{}\n", h.line(), end_line(2));
        let e = read_shard_file(&write("wrong.txt", &wrong))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("the end line counts 2 records, the file has 1"),
            "{e}"
        );
        let after = format!("{}\na\n{}\nb\n", h.line(), end_line(1));
        let e = read_shard_file(&write("after.txt", &after))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("line 4 comes after the end line (line 3)"),
            "{e}"
        );
        // A header whose range does not match its shard.
        let mut lie = h.clone();
        lie.first = 0;
        let e = read_shard_file(&write("lie.txt", &format!("{}\n", lie.line())))
            .unwrap_err()
            .to_string();
        assert!(e.contains("shard 1/2 of 4 items is 2..4"), "{e}");
        let _ = std::fs::remove_dir_all(unit_dir());
    }

    fn file(k: usize, n: usize, settings: Value) -> ShardFile {
        ShardFile {
            path: PathBuf::from(format!("s{k}.txt")),
            header: header(k, n, settings),
            records: Vec::new(),
            ended: true,
            notes: Vec::new(),
        }
    }

    #[test]
    fn shards_must_belong_together() {
        let s = json!({"nodes": 10, "opts": ["a", "b"]});
        let ok = check_shards(vec![file(1, 2, s.clone()), file(0, 2, s.clone())]).unwrap();
        assert_eq!(ok.iter().map(|f| f.header.k).collect::<Vec<_>>(), [0, 1]);
        let e = check_shards(vec![file(0, 2, s.clone()), file(0, 2, s.clone())])
            .unwrap_err()
            .to_string();
        assert_eq!(e, "shard 0/2 given twice: s0.txt and s0.txt");
        let e = check_shards(vec![file(0, 3, s.clone()), file(2, 3, s.clone())])
            .unwrap_err()
            .to_string();
        assert_eq!(e, "missing shard 1/3 of a run of 3 shards (2 given)");
        let e = check_shards(vec![file(0, 2, s.clone()), file(1, 3, s.clone())])
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("different shard counts: 2 in s0.txt (shard 0/2), 3 in s1.txt"));
        let other = json!({"nodes": 10, "opts": ["a", "c"]});
        let e = check_shards(vec![file(0, 2, s.clone()), file(1, 2, other)])
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "different settings (settings.opts[1]): \"b\" in s0.txt (shard 0/2), \"c\" in \
             s1.txt (shard 1/2): not shards of one run"
        );
        let mut g = file(1, 2, s.clone());
        g.header.engine = json!({"v": 2});
        let e = check_shards(vec![file(0, 2, s.clone()), g])
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("different engines (engine.v): 1 in"), "{e}");
        let mut m = file(1, 2, s);
        m.header.kind = "label".into();
        let first = file(0, 2, json!({"nodes": 10, "opts": ["a", "b"]}));
        let e = check_shards(vec![first, m]).unwrap_err().to_string();
        assert!(e.starts_with("different commands: 'selfplay' in"), "{e}");
        assert!(check_shards(Vec::new()).is_err());
    }

    #[test]
    fn differences_are_located() {
        let a = json!({"x": 1, "y": {"z": [1, 2]}});
        assert_eq!(first_difference(&a, &a, "s"), None);
        let b = json!({"x": 1, "y": {"z": [1, 3]}});
        assert_eq!(
            first_difference(&a, &b, "s"),
            Some(("s.y.z[1]".into(), "2".into(), "3".into()))
        );
        let c = json!({"x": 1, "y": {"z": [1, 2]}, "w": true});
        assert_eq!(
            first_difference(&a, &c, "s"),
            Some(("s.w".into(), "nothing".into(), "true".into()))
        );
    }

    #[test]
    fn lines_are_written_in_index_order() {
        let mut w = InOrder::new(Vec::new(), 5);
        w.push(6, "six".into()).unwrap();
        assert!(w.writer().is_empty());
        w.push(5, "five".into()).unwrap();
        w.push(8, "eight".into()).unwrap();
        w.push(7, "seven".into()).unwrap();
        assert_eq!(w.next_index(), 9);
        assert_eq!(
            String::from_utf8(w.out).unwrap(),
            "five\nsix\nseven\neight\n"
        );
    }
}
