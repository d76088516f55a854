//! The bench signature check (docs/strength.md §5): the bench's total node count equals the
//! value recorded in `tests/data/bench_signature.txt`, so a change of search behaviour cannot
//! land unnoticed.

use tianyuan::bench::{run_bench, DEFAULT_DEPTH};

/// The recorded signature: the one line of the file that is not a comment.
fn recorded() -> u64 {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/bench_signature.txt"
    ))
    .expect("tests/data/bench_signature.txt");
    let values: Vec<u64> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.parse().expect("a node count"))
        .collect();
    assert_eq!(values.len(), 1, "one recorded value: {:?}", values);
    values[0]
}

#[test]
fn bench_node_count_matches_the_recorded_signature() {
    let (lines, _) = run_bench(DEFAULT_DEPTH, &mut |_| {});
    assert_eq!(lines.len(), tianyuan::bench::POSITIONS.len());
    assert!(lines.iter().all(|l| l.nodes > 0), "every position searched");
    let total: u64 = lines.iter().map(|l| l.nodes).sum();
    assert_eq!(
        total,
        recorded(),
        "the bench signature changed: if the search change is intended, record the new value \
         in tests/data/bench_signature.txt and give a match result in the commit message"
    );
}
