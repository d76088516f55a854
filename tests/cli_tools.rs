//! The one-shot command-line tools: `forbidden` and `analyze`, their output formats and their
//! handling of bad input (exit status 2, one line on stderr, never a panic), and the way up
//! their pictures are drawn (`--orientation`).
mod common;
use common::{assert_bad, run_cli as run};
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

fn tmp(name: &str) -> PathBuf {
    common::tmp_path("tools", name)
}

#[test]
fn forbidden_plain_and_json() {
    // A cross of four black stones around h8: a double three at h8 (docs/rules.md §3.2).
    let args = [
        "forbidden",
        "--black",
        "h9,g8,i8,h7",
        "--white",
        "a1,o1,a15,o15",
        "--to-move",
        "black",
    ];
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{}", err);
    assert!(err.is_empty());
    assert!(out.lines().any(|l| l == "h8 double-three"), "{}", out);
    let mut json_args = args.to_vec();
    json_args.push("--json");
    let (code, out, _) = run(&json_args);
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 1);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let list = v["forbidden"].as_array().unwrap();
    assert!(
        list.iter()
            .any(|e| e["point"] == "h8" && e["kind"] == "double-three"),
        "{}",
        out
    );
    assert_eq!(v.as_object().unwrap().len(), 1);
}

#[test]
fn forbidden_moves_list_overline() {
    // Black: h8 i8 j8 l8 m8 (moves interleaved with far white stones): k8 is an overline.
    let (code, out, _) = run(&[
        "forbidden",
        "--moves",
        "h8,a1,i8,a3,j8,a5,l8,a7,m8,a9",
        "--json",
    ]);
    assert_eq!(code, 0);
    assert_eq!(
        out.trim(),
        r#"{"forbidden":[{"point":"k8","kind":"overline"}]}"#
    );
}

#[test]
fn bad_input_exits_2_with_one_line() {
    for args in [
        vec!["forbidden", "--moves", "h8,h8"],
        vec!["forbidden", "--moves", "z9"],
        vec!["forbidden", "--moves", "8h"],
        vec!["forbidden", "--size", "40"],
        vec!["forbidden", "--size", "4"],
        vec!["forbidden", "--black", "h8", "--white", "h8"],
        vec!["forbidden", "--moves", "h8", "--black", "h9"],
        vec!["analyze", "--rule", "nonsense"],
        vec!["analyze", "--moves", "a1,a1"],
        vec![
            "analyze",
            "--rule",
            "freestyle",
            "--moves",
            "h8,a1,h9,a2,h10,a3,h11,a4,h12",
        ],
        vec!["analyze", "--time-ms", "-1"],
        vec!["forbidden", "--moves"],
        vec!["forbidden", "--rule", "bogus", "--moves", "h8"],
        vec!["forbidden", "--rule", "freestyle", "--moves", "h8"],
        vec!["forbidden", "--size", "15", "--size", "16"],
        vec!["no-such-command"],
        vec!["sprt", "--sprt=0,10,0.05,0.05"],
        vec!["sprt", "--sprt", "0,10,0.05,0.05", "--pairs", "1,2"],
        vec!["sprt", "--sprt", "10,0,0.05,0.05", "--wld", "1,2,3"],
        vec!["sprt", "--pairs", "1,0,0,0,1"],
    ] {
        let (code, out, err) = run(&args);
        assert_eq!(code, 2, "{:?}: {} {}", args, out, err);
        assert_eq!(err.lines().count(), 1, "{:?}: {}", args, err);
        assert!(err.starts_with("error: "), "{:?}: {}", args, err);
        assert!(!err.contains("panicked"));
    }
}

/// `sprt` adds up runs: two halves give the lines of the whole, as `match` prints them (50 - 50:
/// score 0.5 +/- 1.96 * 0.05, Elo of 0.598 is 69.0).
#[test]
fn sprt_adds_up_runs() {
    let (code, out, err) = run(&[
        "sprt",
        "--sprt=-10,0,0.05,0.05",
        "--pairs",
        "4,0,20,0,2",
        "--pairs",
        "2,0,19,1,2",
        "--wld",
        "50,50,0",
    ]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[..3],
        [
            "Pairs (0, 1/2, 1, 3/2, 2 points): 6, 0, 39, 1, 4; Elo -10.4 +/- 43.8",
            "Games: 50 - 50 - 0",
            "Elo difference: 0.0 +/- 69.0, LOS: 50.0 %",
        ]
    );
    assert!(lines[3].starts_with("SPRT: llr "), "{out}");
    assert!(lines[3].ends_with("pairs)"), "{out}");
    assert_eq!(lines.len(), 4, "{out}");
}

/// `static` is the static evaluation of the position analysed, from the side to move's view,
/// in the text and the JSON answer alike.
#[test]
fn analyze_reports_the_static_evaluation() {
    use tianyuan::board::Board;
    use tianyuan::core::{parse_point_list, Rule};
    for (rule, moves) in [("freestyle", "h8,i9,h9"), ("renju", "h8,i9,h9,i8")] {
        let r = Rule::parse(rule).unwrap();
        let mut board = Board::new(15, 15, r).unwrap();
        board
            .play_all(&parse_point_list(moves, 15, 15).unwrap())
            .unwrap();
        let want = tianyuan::eval::evaluate(&board);
        let args = ["analyze", "--rule", rule, "--moves", moves, "--depth", "4"];
        let (code, out, err) = run(&[&args[..], &["--threads", "1", "--json"]].concat());
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(v["static"], want, "{out}");
        let (code, out, err) = run(&[&args[..], &["--threads", "1"]].concat());
        assert_eq!(code, 0, "{err}");
        assert!(out.lines().any(|l| l == format!("static {want}")), "{out}");
    }
}

#[test]
fn analyze_finds_win_in_one_json() {
    // Freestyle: black has four in a row h8..k8 with both ends open; black to move wins.
    let (code, out, err) = run(&[
        "analyze",
        "--rule",
        "freestyle",
        "--moves",
        "h8,h9,i8,i9,j8,j9,k8,a1",
        "--depth",
        "4",
        "--json",
    ]);
    assert_eq!(code, 0, "{}", err);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert!(v["move"] == "g8" || v["move"] == "l8", "{}", out);
    assert_eq!(v["win_in"], 1);
    for k in ["score", "depth", "nodes", "nps", "pv"] {
        assert!(v.get(k).is_some(), "missing {}", k);
    }
}

#[test]
fn analyze_multipv_json() {
    let (code, out, err) = run(&[
        "analyze",
        "--rule",
        "freestyle",
        "--moves",
        "h8,h9,i9,g7",
        "--depth",
        "5",
        "--multipv",
        "3",
        "--threads",
        "1",
        "--json",
    ]);
    assert_eq!(code, 0, "{}", err);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let lines = v["lines"].as_array().expect("lines");
    assert_eq!(lines.len(), 3, "{}", out);
    assert_eq!(lines[0]["move"], v["move"]);
    assert_eq!(lines[0]["pv"], v["pv"]);
    assert_ne!(lines[1]["move"], lines[2]["move"]);
    let (code, _, err) = run(&["analyze", "--multipv", "0"]);
    assert_eq!((code, err.trim().lines().count()), (2, 1), "{}", err);
}

/// Issue 51: a deep `analyze --depth` with no time limit says on stderr how to stop it, and
/// Ctrl-C (SIGINT) stops it with the last completed iteration printed (exit status 130).
#[cfg(unix)]
#[test]
fn an_interrupted_deep_analysis_prints_its_last_iteration() {
    use std::io::{BufRead, BufReader, Read};
    use std::process::Stdio;
    use std::sync::mpsc;
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-tianyuan"))
        .args([
            "analyze",
            "--moves",
            "h8,h9,i9",
            "--depth",
            "100",
            "--threads",
            "1",
            "--hash-mb",
            "8",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // stderr read on a thread, so that a missing first line fails the test instead of
    // waiting for the whole search.
    let (tx, rx) = mpsc::channel();
    let stderr = child.stderr.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let Ok(first) = rx.recv_timeout(std::time::Duration::from_secs(30)) else {
        let _ = child.kill();
        panic!("no line on stderr");
    };
    if !first.starts_with("analyze: searching") {
        let _ = child.kill();
    }
    assert!(
        first.starts_with("analyze: searching to depth 100 with no time limit; Ctrl-C stops"),
        "{first}"
    );
    // Let a few iterations complete (not a timing assertion: any depth from 1 will do).
    std::thread::sleep(std::time::Duration::from_millis(300));
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    let rest: Vec<String> = rx.iter().collect();
    let rest = rest.join("\n");
    let code = child.wait().unwrap().code();
    assert_eq!(code, Some(130), "{out}{rest}");
    assert!(rest.contains("interrupted"), "{rest}");
    let depth: i32 = out
        .lines()
        .find_map(|l| l.strip_prefix("depth "))
        .unwrap_or_else(|| panic!("{out}"))
        .parse()
        .unwrap();
    assert!((1..100).contains(&depth), "{out}");
    assert!(out.lines().any(|l| l.starts_with("move ")), "{out}");
}

/// Issue 51: a weights file that cannot be used is named in the message; the protocol
/// engine (no tool) says it on stdout as an `ERROR` line, never on stderr.
#[test]
fn weights_errors_name_the_file_and_spare_the_protocols_stderr() {
    let bad = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("not-weights-{}.tyw", std::process::id()));
    std::fs::create_dir_all(bad.parent().unwrap()).unwrap();
    std::fs::write(&bad, b"hello, not weights").unwrap();
    let name = bad.to_str().unwrap();
    let (code, out, err) = run(&["--weights", name, "forbidden", "--moves", "h8"]);
    assert_eq!(code, 2, "{out}");
    assert!(err.contains(&format!("weights file {name}: ")), "{err}");
    let (code, out, err) = run(&["--weights", name]);
    assert_eq!(code, 2);
    assert!(err.is_empty(), "{err}");
    assert!(
        out.starts_with(&format!("ERROR weights file {name}: ")),
        "{out}"
    );
    let _ = std::fs::remove_file(&bad);
}

/// The pictures `forbidden` draws of the moves `7,7 7,8 8,7` (h8, h9, i8) with
/// `--orientation orientation`: the diagram's 17 lines (letters, 15 rows, letters) and the
/// SVG's text.
fn pictures(orientation: &str) -> (Vec<String>, String) {
    // A file of its own for every call: the tests run in parallel.
    static CALLS: AtomicUsize = AtomicUsize::new(0);
    let n = CALLS.fetch_add(1, Ordering::Relaxed);
    let svg = tmp(&format!("{orientation}-{n}.svg"));
    let args = ["forbidden", "--moves", "7,7 7,8 8,7", "--board", "--svg"];
    let (code, out, err) = run(&[
        &args[..],
        &[svg.to_str().unwrap(), "--orientation", orientation],
    ]
    .concat());
    assert_eq!(code, 0, "{err}");
    let lines: Vec<String> = out.lines().map(str::to_string).collect();
    let header = lines.iter().position(|l| l.starts_with("    a b")).unwrap();
    let text = std::fs::read_to_string(&svg).unwrap();
    let _ = std::fs::remove_file(&svg);
    (lines[header..header + 17].to_vec(), text)
}

/// In an SVG picture: the `cx` and `cy` of the one white stone (which must be h9), and the
/// row labels of the left side from top to bottom.
fn white_stone_and_row_labels(svg: &str) -> (String, String, Vec<String>) {
    let doc = roxmltree::Document::parse(svg).unwrap();
    let h9 = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("stone white"))
        .unwrap();
    assert_eq!(h9.attribute("data-point"), Some("h9"));
    let mut left: Vec<(u32, String)> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("coord") && n.attribute("x") == Some("18"))
        .map(|n| {
            let y = n.attribute("y").unwrap().parse().unwrap();
            (y, n.text().unwrap().to_string())
        })
        .collect();
    left.sort();
    let at = |a: &str| h9.attribute(a).unwrap().to_string();
    (
        at("cx"),
        at("cy"),
        left.into_iter().map(|(_, t)| t).collect(),
    )
}

/// `--orientation book` draws the diagram with row 1 on its last board line; the notation
/// does not change (the white stone `7,8` is h9 either way, on the line labelled 9), only
/// where it is drawn. The default is screen, row 1 first.
#[test]
fn book_orientation_turns_the_diagram_over() {
    let (book, _) = pictures("book");
    let (screen, _) = pictures("screen");
    assert_eq!(book[0], "    a b c d e f g h i j k l m n o");
    assert_eq!(book[1], "15  . . . . . . . . . . . . . . . 15");
    assert_eq!(book[7], " 9  . . . . . . . O . . . . . . . 9");
    assert_eq!(book[8], " 8  . . . . . . . X(X). . . . . . 8");
    assert_eq!(book[15], " 1  . . . . . . . . . . . . . . . 1");
    assert_eq!(book[16], book[0]);
    assert_eq!(screen[1], " 1  . . . . . . . . . . . . . . . 1");
    assert_eq!(screen[9], book[7]);
    let (code, out, _) = run(&["forbidden", "--moves", "h8,h9,i8", "--board"]);
    assert_eq!(code, 0);
    assert!(out.contains(&screen[1..16].join("\n")), "{out}");
}

/// `--orientation book` in the SVG: the white stone h9 moves from the ninth grid line from
/// the top (y 40 + 8 x 32) to the seventh (40 + 6 x 32), its column stays, and the row
/// labels read 15 down to 1.
#[test]
fn book_orientation_turns_the_svg_over() {
    let (screen_x, screen_y, screen_rows) = white_stone_and_row_labels(&pictures("screen").1);
    let (book_x, book_y, book_rows) = white_stone_and_row_labels(&pictures("book").1);
    assert_eq!((screen_y.as_str(), book_y.as_str()), ("296", "232"));
    assert_eq!(screen_x, book_x);
    let rows: Vec<String> = (1..=15).map(|r| r.to_string()).collect();
    assert_eq!(screen_rows, rows);
    assert_eq!(book_rows, rows.into_iter().rev().collect::<Vec<_>>());
}

/// A way up that is neither book nor screen: exit 2 and one line naming the flag and the
/// choices, on every tool that takes `--orientation`.
#[test]
fn a_bad_orientation_exits_2_with_one_line() {
    for tool in ["forbidden", "analyze", "solve", "demo", "play"] {
        assert_bad(
            &[tool, "--orientation", "upside-down"],
            "invalid value 'upside-down' for '--orientation <ORIENTATION>'",
        );
    }
    assert_bad(&["forbidden", "--orientation", "sideways"], "book, screen");
}
