//! Helpers shared by the integration tests: reading the data files in `tests/data/`, and
//! checks of search answers shared by several test files.
#![allow(dead_code)]

use std::collections::HashMap;
use std::path::PathBuf;
use tianyuan::core::{Pos, Rule};

/// Asserts that `best` stops white's four h8-k8, closed by black at g8 (the `blocks_a_four`
/// tests): at its five point l8, or under caro also at m8, since a five closed at both ends
/// does not win there (docs/rules.md §3.3).
pub fn assert_blocks_the_four(rule: Rule, best: Pos) {
    let blocks: &[&str] = if matches!(rule, Rule::Caro | Rule::CaroExact) {
        &["l8", "m8"]
    } else {
        &["l8"]
    };
    assert!(
        blocks.contains(&best.to_notation().as_str()),
        "{:?}: {}",
        rule,
        best
    );
}

/// Path of a file in `tests/data/`.
pub fn data_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// One case line: its id, size and `key=value` fields (the `src=` field runs to the end).
pub struct Case {
    pub id: String,
    pub size: usize,
    pub fields: HashMap<String, String>,
}

impl Case {
    pub fn get(&self, k: &str) -> &str {
        self.fields
            .get(k)
            .map(|s| s.as_str())
            .unwrap_or_else(|| panic!("{}: no field {}", self.id, k))
    }
}

/// Reads every non-comment line of a data file.
pub fn read_cases(name: &str) -> Vec<Case> {
    let text = std::fs::read_to_string(data_path(name)).expect("data file");
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (head, _src) = match line.find(" src=") {
            Some(i) => (&line[..i], &line[i + 5..]),
            None => (line, ""),
        };
        let mut parts = head.split_whitespace();
        let id = parts.next().unwrap().to_string();
        let size: usize = parts.next().unwrap().parse().unwrap();
        let mut fields = HashMap::new();
        for p in parts {
            if let Some((k, v)) = p.split_once('=') {
                fields.insert(k.to_string(), v.to_string());
            }
        }
        out.push(Case { id, size, fields });
    }
    out
}

/// Runs the engine binary with `args`: its exit status (-1 when killed by a signal), its
/// stdout and its stderr.
pub fn run_cli(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pbrain-tianyuan"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A path in cargo's temporary folder for the integration tests, unique to this process:
/// `PREFIX-PID-NAME`.
pub fn tmp_path(prefix: &str, name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(format!("{prefix}-{}-{name}", std::process::id()))
}

/// Asserts a bad-input exit of the binary run with `args`: status 2, nothing on stdout, one
/// line on stderr containing `want`.
pub fn assert_bad(args: &[&str], want: &str) {
    let (code, out, err) = run_cli(args);
    assert_eq!(code, 2, "{args:?}: {out}{err}");
    assert!(out.is_empty(), "{args:?}: {out}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.contains(want), "{args:?}: {err}");
}
