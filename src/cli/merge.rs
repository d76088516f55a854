//! `merge`: joins the output files of a `--shard K/N` run into the output of the whole run
//! (docs/cluster.md §3).
//!
//! The shards are read ([`crate::shard::read_shard_file`]: a torn last record is dropped with
//! a message), checked to be the `N` shards of one run, each once
//! ([`crate::shard::check_shards`]), and joined in the order of `K`. Game shards (`selfplay`,
//! `label`) give one game file: the format's header line and every record, byte for byte
//! what the unsharded command writes. Match shards give `summary.txt` and `results.json`
//! ([`crate::arena::shard`]). A shard without its end line (killed, or still running) is
//! merged with what it has and named on stderr.

use crate::arena::shard::{merge as merge_match, write_merged, SHARD_FILE};
use crate::core::quote_path;
use crate::shard::{check_shards, incomplete_notes, read_shard_file, ShardError, ShardFile};
use crate::train::data::{GameRecord, HEADER};
use clap::Args;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Options of `merge` (docs/cluster.md §3).
#[derive(Args, Debug, Clone)]
pub struct MergeArgs {
    /// The shards' files in any order: `selfplay --shard` and `label --shard` outputs, or a
    /// sharded match's `shard.txt` (or its `--out` directory).
    #[arg(required = true, num_args = 1.., value_name = "SHARD")]
    pub shards: Vec<PathBuf>,
    /// Output: for game shards a game file (replaced), for match shards a directory
    /// (`summary.txt` and `results.json`).
    #[arg(long)]
    pub out: PathBuf,
}

/// What a merge did, for the caller to print.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MergeReport {
    /// Messages about data left out (torn records, incomplete shards).
    pub notes: Vec<String>,
    /// The closing lines (for a match, its summary).
    pub text: String,
}

/// A shard path as given, or the `shard.txt` in it when it is a directory.
fn shard_path(p: &Path) -> PathBuf {
    if p.is_dir() {
        p.join(SHARD_FILE)
    } else {
        p.to_path_buf()
    }
}

/// Merges the shards `inputs` into `out` (see the module docs).
///
/// Errors ([`ShardError`]): an unreadable or malformed shard file, shards that are not the
/// `N` shards of one run (a duplicate, a missing shard, a different engine, setting or
/// `N`), a record that is not valid for its kind, `out` being one of the inputs, or an
/// unwritable output.
pub fn merge(inputs: &[PathBuf], out: &Path) -> Result<MergeReport, ShardError> {
    let mut files = Vec::new();
    let mut notes = Vec::new();
    for p in inputs {
        let f = read_shard_file(&shard_path(p))?;
        notes.extend(f.notes.iter().cloned());
        files.push(f);
    }
    let files = check_shards(files)?;
    // The output must not replace a shard, nor (for a match) a shard's own summary.
    let target = std::fs::canonicalize(out).ok();
    let hits = |p: Option<&Path>| {
        target.is_some() && p.and_then(|p| std::fs::canonicalize(p).ok()) == target
    };
    let is_match = files[0].header.kind == "match";
    if files
        .iter()
        .any(|f| hits(Some(&f.path)) || (is_match && hits(f.path.parent())))
    {
        return Err(ShardError::Mismatch(format!(
            "--out {} is one of the shards (or holds it): give another output",
            quote_path(out)
        )));
    }
    let h = &files[0].header;
    let unit = if h.kind == "label" {
        "records"
    } else {
        "games"
    };
    notes.extend(incomplete_notes(&files, unit));
    let present: usize = files.iter().map(|f| f.records.len()).sum();
    let text = match h.kind.as_str() {
        "selfplay" | "label" => {
            write_games(&files, out)?;
            format!(
                "merged {} {} shards: {present} of {} {unit} -> {}",
                h.n,
                h.kind,
                h.total,
                out.display()
            )
        }
        "match" => {
            let m = merge_match(&files)?;
            write_merged(out, &m, &files)?;
            format!(
                "merged {} match shards: {present} of {} games -> {}\n{}",
                h.n,
                h.total,
                out.display(),
                m.text
            )
        }
        other => {
            return Err(ShardError::Mismatch(format!(
                "{}: shards of '{}', which merge does not know (selfplay, label, match)",
                quote_path(&files[0].path),
                crate::core::excerpt(other)
            )))
        }
    };
    Ok(MergeReport { notes, text })
}

/// Checks every record of game shards and writes the header line and the records, in the
/// order of the shards, to `out` (through a temporary file renamed at the end, so a failed
/// merge leaves no partial output).
fn write_games(files: &[ShardFile], out: &Path) -> Result<(), ShardError> {
    for f in files {
        for (line, text) in &f.records {
            GameRecord::parse(text, *line).map_err(|e| ShardError::File {
                path: quote_path(&f.path),
                msg: e.to_string(),
            })?;
        }
    }
    let mut name = out.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".merge-{}", std::process::id()));
    let tmp = out.with_file_name(name);
    let io = |p: &Path| {
        let q = quote_path(p);
        move |source| ShardError::Io { path: q, source }
    };
    let result = (|| {
        let mut w = std::io::BufWriter::new(std::fs::File::create(&tmp)?);
        writeln!(w, "{HEADER}")?;
        for f in files {
            for (_, text) in &f.records {
                writeln!(w, "{text}")?;
            }
        }
        w.into_inner().map_err(|e| e.into_error())?.sync_all()
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(io(out)(e));
    }
    std::fs::rename(&tmp, out).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        io(out)(e)
    })
}

/// Runs `merge`; returns the exit status: 0 when merged (notes about dropped records and
/// incomplete shards go to stderr), 2 with one line on stderr for anything that stops it
/// ([`merge`]'s errors).
pub fn run(args: &MergeArgs) -> i32 {
    match merge(&args.shards, &args.out) {
        Ok(r) => {
            for n in &r.notes {
                eprintln!("merge: {n}");
            }
            println!("{}", r.text);
            0
        }
        Err(e) => crate::cli::bad_input(&format!("merge: {e}")),
    }
}
