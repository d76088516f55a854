//! Every link in README.md resolves (issue 32): a link to a file of the repository names a
//! file or directory that exists, and a link with `#anchor` names a heading of that file (or
//! of README.md itself), slugged as GitHub slugs headings. Web links are not fetched. Also
//! README.md stays under 200 lines, and its test command is the one `.ci/run` runs.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The lines of a Markdown text outside fenced code blocks (the fences left out).
fn prose_lines(text: &str) -> impl Iterator<Item = &str> {
    let mut fenced = false;
    text.lines().filter(move |line| {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            return false;
        }
        !fenced
    })
}

/// The targets of the inline links `[text](target)` of a Markdown text, outside code blocks
/// and code spans.
fn link_targets(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in prose_lines(text) {
        // Drop code spans, whose brackets are not links.
        let mut plain = String::new();
        let mut in_code = false;
        for ch in line.chars() {
            if ch == '`' {
                in_code = !in_code;
            } else if !in_code {
                plain.push(ch);
            }
        }
        let mut rest = plain.as_str();
        while let Some(i) = rest.find("](") {
            let after = &rest[i + 2..];
            let Some(j) = after.find(')') else { break };
            out.push(after[..j].trim().to_string());
            rest = &after[j + 1..];
        }
    }
    out
}

/// GitHub's anchor of a heading: lower case, spaces to `-`, punctuation other than `-` and
/// `_` dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown file's headings (outside code blocks).
fn anchors(text: &str) -> Vec<String> {
    prose_lines(text)
        .filter(|line| line.starts_with('#'))
        .map(|line| line.trim_start_matches('#'))
        .filter(|heading| heading.starts_with(' '))
        .map(slug)
        .collect()
}

/// The links of `file` (relative to the repository) that do not resolve, with the reason.
fn broken_links(file: &str) -> Vec<String> {
    let path = root().join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let dir = path.parent().unwrap();
    let mut broken = Vec::new();
    for target in link_targets(&text) {
        if target.contains("://") || target.starts_with("mailto:") {
            continue;
        }
        let (file_part, anchor) = match target.split_once('#') {
            Some((f, a)) => (f, Some(a)),
            None => (target.as_str(), None),
        };
        let linked: PathBuf = if file_part.is_empty() {
            path.clone()
        } else {
            dir.join(file_part)
        };
        if !linked.exists() {
            broken.push(format!("{target}: no file {}", linked.display()));
            continue;
        }
        if let Some(a) = anchor {
            let linked_text = std::fs::read_to_string(&linked).unwrap_or_default();
            if !anchors(&linked_text).iter().any(|h| h == a) {
                broken.push(format!(
                    "{target}: no heading with anchor #{a} in {}",
                    Path::new(file_part).display()
                ));
            }
        }
    }
    broken
}

#[test]
fn every_link_in_the_readme_resolves() {
    let text = std::fs::read_to_string(root().join("README.md")).unwrap();
    assert!(
        link_targets(&text).len() >= 10,
        "the README's links were not found"
    );
    let broken = broken_links("README.md");
    assert!(
        broken.is_empty(),
        "broken links in README.md:\n{}",
        broken.join("\n")
    );
}

#[test]
fn the_checker_finds_broken_links() {
    let text = "[a](docs/rules.md) [b](docs/none.md) `[c](x.md)` [d](#the-tools)\n\
                ```\n[e](f.md)\n```\n[g](https://example.org/x)";
    assert_eq!(
        link_targets(text),
        [
            "docs/rules.md",
            "docs/none.md",
            "#the-tools",
            "https://example.org/x"
        ]
    );
    assert_eq!(
        slug(" 6. The gauntlet, run by run"),
        "6-the-gauntlet-run-by-run"
    );
    assert_eq!(
        slug(" forbidden: black's forbidden points in renju"),
        "forbidden-blacks-forbidden-points-in-renju"
    );
    assert_eq!(
        anchors("# A b\n```\n# not\n```\n## C: d\n#no"),
        ["a-b", "c-d"]
    );
}

#[test]
fn the_readme_fits_and_names_the_ci_test_command() {
    let text = std::fs::read_to_string(root().join("README.md")).unwrap();
    let lines = text.lines().count();
    assert!(
        lines < 200,
        "README.md has {lines} lines (fewer than 200 wanted)"
    );
    assert!(
        text.contains(
            "cargo test                               # run every test (what CI runs: .ci/run)"
        ),
        "README.md no longer gives `cargo test` as the test command"
    );
    let ci = std::fs::read_to_string(root().join(".ci/run")).unwrap();
    assert!(
        ci.lines().any(|l| l.trim() == "cargo test"),
        ".ci/run no longer runs the README's test command `cargo test`"
    );
}
