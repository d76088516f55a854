//! The layers of docs/architecture.md §1, checked on the source text: every `crate::M`
//! path in a module's code (comments and doc comments left out) names a module the layer
//! table below allows, and no two files of one module use each other (`super::X` or
//! `crate::M::X` both ways). A new module must be given a row here.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each top-level module and the layers right below it; a module may use these and,
/// through them, everything they may use (the closure, [`allowed`]).
const LAYERS: &[(&str, &[&str])] = &[
    ("core", &[]),
    ("board", &["core"]),
    ("eval", &["board"]),
    ("tt", &["eval"]),
    ("time", &["core"]),
    ("gamefile", &["board"]),
    ("view", &["board"]),
    ("search", &["eval", "tt", "time"]),
    ("fourcolour", &["search"]),
    ("engine", &["search"]),
    ("opening", &["engine", "gamefile", "view"]),
    ("shard", &["engine"]),
    ("protocol", &["opening", "fourcolour"]),
    ("arena", &["opening", "fourcolour", "shard"]),
    ("train", &["opening", "shard"]),
    ("cli", &["protocol", "arena", "train"]),
    ("openings_cli", &["cli"]),
    ("bench", &["cli"]),
    ("web", &["cli"]),
];

/// The modules `module` may use: its row of [`LAYERS`] and, recursively, theirs.
fn allowed(module: &str) -> BTreeSet<&'static str> {
    let rows: BTreeMap<&str, &[&'static str]> = LAYERS.iter().copied().collect();
    let mut out = BTreeSet::new();
    let mut todo: Vec<&str> = rows.get(module).map_or(Vec::new(), |r| r.to_vec());
    while let Some(m) = todo.pop() {
        if out.insert(m) {
            todo.extend(rows.get(m).map_or(&[][..], |r| *r).iter().copied());
        }
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable src directory") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a file without its comments (line comments and doc comments; block
/// comments are not used in src/).
fn code_of(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("//") {
            continue;
        }
        // A trailing comment: cut at a `//` that is not inside a string literal.
        let mut in_str = false;
        let mut prev = ' ';
        let mut cut = line.len();
        for (i, c) in line.char_indices() {
            if c == '"' && prev != '\\' {
                in_str = !in_str;
            }
            if !in_str && c == '/' && prev == '/' {
                cut = i - 1;
                break;
            }
            prev = c;
        }
        out.push_str(&line[..cut]);
        out.push('\n');
    }
    out
}

/// The identifiers that follow `prefix` in `code` (`crate::` gives `board` for
/// `crate::board::Board`).
fn names_after(code: &str, prefix: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let mut rest = code;
    while let Some(i) = rest.find(prefix) {
        let before = rest[..i].chars().next_back();
        rest = &rest[i + prefix.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() {
            names.insert(name);
        }
    }
    names
}

/// The names in `use` groups right after `prefix` (`super::{a, b::C}` gives `a`, `b`).
fn grouped_after(code: &str, prefix: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let open = format!("{prefix}{{");
    let mut rest = code;
    while let Some(i) = rest.find(&open) {
        rest = &rest[i + open.len()..];
        let end = rest.find('}').unwrap_or(rest.len());
        for item in rest[..end].split(',') {
            let name: String = item
                .trim()
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                names.insert(name);
            }
        }
    }
    names
}

#[test]
fn no_module_uses_a_higher_layer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let layers: BTreeMap<&str, BTreeSet<&str>> =
        LAYERS.iter().map(|&(m, _)| (m, allowed(m))).collect();
    let mut wrong = Vec::new();
    let mut seen = BTreeSet::new();
    // For the sibling check: (module, file's submodule) -> siblings it names.
    let mut uses: BTreeMap<(String, String), BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let rel = file.strip_prefix(&src).expect("under src");
        let parts: Vec<String> = rel
            .iter()
            .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
            .collect();
        let module = parts[0].clone();
        if module == "lib" || module == "main" {
            continue;
        }
        seen.insert(module.clone());
        let Some(allowed) = layers.get(module.as_str()) else {
            wrong.push(format!(
                "{}: module `{module}` has no row in LAYERS",
                rel.display()
            ));
            continue;
        };
        let code = code_of(&std::fs::read_to_string(file).expect("readable source"));
        let mut named = names_after(&code, "crate::");
        named.extend(grouped_after(&code, "crate::"));
        for m in &named {
            if m != &module && layers.contains_key(m.as_str()) && !allowed.contains(m.as_str()) {
                wrong.push(format!("{}: `{module}` uses `crate::{m}`", rel.display()));
            }
        }
        // Which sibling files of the module this file names. A file directly in the
        // module's folder (or the module's own `mod.rs`) is submodule parts[1].
        if parts.len() >= 2 {
            let sub = parts[1].clone();
            if sub != "mod" {
                let mut siblings = BTreeSet::new();
                if parts.len() == 2 {
                    siblings.extend(names_after(&code, "super::"));
                    siblings.extend(grouped_after(&code, "super::"));
                }
                siblings.extend(names_after(&code, &format!("crate::{module}::")));
                siblings.extend(grouped_after(&code, &format!("crate::{module}::")));
                siblings.remove(&sub);
                uses.entry((module.clone(), sub))
                    .or_default()
                    .extend(siblings);
            }
        }
    }
    for ((module, a), named) in &uses {
        for b in named {
            if a < b {
                if let Some(back) = uses.get(&(module.clone(), b.clone())) {
                    if back.contains(a) {
                        wrong.push(format!("{module}: `{a}` and `{b}` use each other"));
                    }
                }
            }
        }
    }
    for (m, _) in LAYERS {
        assert!(
            seen.contains(*m),
            "LAYERS names `{m}`, which src/ does not have"
        );
    }
    assert!(wrong.is_empty(), "layer violations:\n{}", wrong.join("\n"));
}
