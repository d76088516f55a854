//! The command-line tools as a new user meets them: pictures of positions (`--board`, `--svg`),
//! positions from game files (`--file`, `--ply`) and protocol points in `--moves`, board
//! sizes `WxH`, rule names, and the rough edges of `forbidden`, `solve`, `demo` and `bench`.

mod common;
use common::{assert_bad, run_cli as run};
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::time::Instant;

fn tmp(name: &str) -> PathBuf {
    common::tmp_path("cli", name)
}

/// What an SVG picture holds, read with an XML parser: stones by colour, coordinate labels,
/// forbidden points, line numbers, and the marked best and last moves.
#[derive(Debug, Default)]
struct Picture {
    black: BTreeSet<String>,
    white: BTreeSet<String>,
    labels: Vec<String>,
    forbidden: BTreeSet<String>,
    line_numbers: Vec<String>,
    best: Option<String>,
    last: Option<String>,
}

fn read_svg(path: &PathBuf) -> Picture {
    let text = std::fs::read_to_string(path).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("the SVG is well-formed XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    let mut p = Picture::default();
    for n in doc.descendants().filter(|n| n.is_element()) {
        let class = n.attribute("class").unwrap_or("");
        let point = n.attribute("data-point").map(str::to_string);
        match (n.tag_name().name(), class) {
            ("circle", "stone black") => drop(p.black.insert(point.unwrap())),
            ("circle", "stone white") => drop(p.white.insert(point.unwrap())),
            ("circle", "best") => p.best = point,
            ("circle", "last") => p.last = point,
            ("g", "forbidden") => drop(p.forbidden.insert(point.unwrap())),
            ("text", "coord") => p.labels.push(n.text().unwrap().to_string()),
            ("text", "line-number") => p.line_numbers.push(n.text().unwrap().to_string()),
            _ => {}
        }
    }
    p
}

fn set(list: &str) -> BTreeSet<String> {
    list.split(',').map(str::to_string).collect()
}

/// Every column letter and row number of a `w` x `h` board, each twice (both sides).
fn all_labels(w: usize, h: usize) -> Vec<String> {
    let mut v: Vec<String> = (0..w)
        .flat_map(|x| {
            let l = ((b'a' + x as u8) as char).to_string();
            [l.clone(), l]
        })
        .chain((1..=h).flat_map(|y| [y.to_string(), y.to_string()]))
        .collect();
    v.sort();
    v
}

#[test]
fn svg_pictures_hold_every_stone_and_label() {
    // analyze: a 15x20 freestyle position; the picture has the stones, the best move ringed
    // and the principal variation numbered from 1.
    let svg = tmp("analyze.svg");
    let (code, out, err) = run(&[
        "analyze",
        "--rule",
        "freestyle",
        "--size",
        "15x20",
        "--moves",
        "h8,h9,i8,a20",
        "--depth",
        "3",
        "--threads",
        "1",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let best = out.lines().next().unwrap().strip_prefix("move ").unwrap();
    let p = read_svg(&svg);
    assert_eq!(p.black, set("h8,i8"));
    assert_eq!(p.white, set("h9,a20"));
    let mut labels = p.labels.clone();
    labels.sort();
    assert_eq!(labels, all_labels(15, 20));
    assert_eq!(p.best.as_deref(), Some(best));
    assert_eq!(p.last.as_deref(), Some("a20"));
    assert_eq!(p.line_numbers.first().map(String::as_str), Some("1"));

    // forbidden: the forbidden point is drawn.
    let svg = tmp("forbidden.svg");
    let (code, _, err) = run(&[
        "forbidden",
        "--moves",
        "h8,a1,i8,a3,j8,a5,l8,a7,m8,a9",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let p = read_svg(&svg);
    assert_eq!(p.black, set("h8,i8,j8,l8,m8"));
    assert_eq!(p.white, set("a1,a3,a5,a7,a9"));
    assert_eq!(p.forbidden, set("k8"));
    let mut labels = p.labels.clone();
    labels.sort();
    assert_eq!(labels, all_labels(15, 15));

    // solve: the winning line is numbered in order (VCF of V0012: white wins from i10).
    let svg = tmp("solve.svg");
    let (code, out, err) = run(&[
        "solve",
        "--rule",
        "renju",
        "--black",
        "e6,f9,g10,h7,h8,h11,j8",
        "--white",
        "f7,g8,g9,h9,i6,i7",
        "--to-move",
        "white",
        "--json",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let p = read_svg(&svg);
    assert_eq!(p.black.len(), 7);
    assert_eq!(p.white.len(), 6);
    let n = v["line"].as_array().unwrap().len();
    let want: Vec<String> = (1..=n).map(|i| i.to_string()).collect();
    assert_eq!(p.line_numbers, want);
    assert_eq!(p.best.as_deref(), v["move"].as_str());
    for f in ["analyze.svg", "forbidden.svg", "solve.svg"] {
        let _ = std::fs::remove_file(tmp(f));
    }
}

#[test]
fn board_diagrams() {
    let (code, out, err) = run(&[
        "forbidden",
        "--black",
        "h9,g8,i8,h7",
        "--white",
        "a1,o1,a15,o15",
        "--board",
    ]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "h8 double-three");
    assert_eq!(lines[1], "    a b c d e f g h i j k l m n o");
    // Row 1 at the top: a1 and o1 are white corner stones; stone sets have no last move
    // (issue 51), so none is marked.
    assert_eq!(lines[2], " 1  O . . . . . . . . . . . . . O 1");
    assert_eq!(lines[8], " 7  . . . . . . . X . . . . . . . 7");
    assert_eq!(lines[9], " 8  . . . . . . X ! X . . . . . . 8");
    assert_eq!(lines[16], "15  O . . . . . . . . . . . . . O 15");
    assert!(out.contains("! forbidden for black"), "{out}");
    assert_bad(&["analyze", "--board", "--json"], "--board");
}

#[test]
fn positions_from_game_files() {
    // One renju game in all three forms; after 10 moves black has an overline point at k8.
    let moves = "h8,a1,i8,a3,j8,a5,l8,a7,m8,a9,o15";
    let psq = tmp("g.psq");
    let sgf = tmp("g.sgf");
    let txt = tmp("g.txt");
    std::fs::write(
        &psq,
        "Piskvorky 15x15, 11:11, 0\n8,8,0\n1,1,0\n9,8,0\n1,3,0\n10,8,0\n1,5,0\n12,8,0\n1,7,0\n13,8,0\n1,9,0\n15,15,0\nA\nB\n0\n",
    )
    .unwrap();
    std::fs::write(
        &sgf,
        "(;FF[4]GM[4]SZ[15]RU[4];B[hh];W[aa];B[ih];W[ac];B[jh];W[ae];B[lh];W[ag];B[mh];W[ai];B[oo])",
    )
    .unwrap();
    std::fs::write(
        &txt,
        "# protocol points and notation mixed\n7,7 0,0 i8 a3\nj8,a5 11,7 0,6\n12,7 a9\no15\n",
    )
    .unwrap();
    let reference = run(&["forbidden", "--moves", moves, "--ply", "10", "--json"]);
    assert_eq!(
        reference.1.trim(),
        r#"{"forbidden":[{"point":"k8","kind":"overline"}]}"#
    );
    for f in [&psq, &sgf, &txt] {
        let file = f.to_str().unwrap();
        let r = run(&["forbidden", "--file", file, "--ply", "10", "--json"]);
        assert_eq!(r, reference, "{file}");
        // The whole game (11 moves): white to move, black's points listed all the same.
        let (code, _, err) = run(&["analyze", "--file", file, "--depth", "2", "--threads", "1"]);
        assert_eq!(code, 0, "{file}: {err}");
        assert_bad(
            &["forbidden", "--file", file, "--ply", "12"],
            "only 11 moves",
        );
    }
    assert_bad(
        &["forbidden", "--file", psq.to_str().unwrap(), "--size", "20"],
        "is a game on 15x15 but --size says 20x20",
    );
    assert_bad(
        &[
            "forbidden",
            "--file",
            psq.to_str().unwrap(),
            "--moves",
            "h8",
        ],
        "give one of --moves, --file or --black/--white",
    );
    assert_bad(
        &["forbidden", "--file", "/nonexistent/game.psq"],
        "cannot read",
    );
    std::fs::write(&txt, "h8 h8\n").unwrap();
    assert_bad(
        &["forbidden", "--file", txt.to_str().unwrap()],
        "move 2 (h8)",
    );
    for f in [psq, sgf, txt] {
        let _ = std::fs::remove_file(f);
    }
}

#[test]
fn moves_take_protocol_points() {
    let notation = run(&[
        "forbidden",
        "--moves",
        "h8,a1,i8,a3,j8,a5,l8,a7,m8,a9",
        "--json",
    ]);
    for text in [
        "7,7 0,0 8,7 0,2 9,7 0,4 11,7 0,6 12,7 0,8",
        "7,7;0,0;8,7;0,2;9,7;0,4;11,7;0,6;12,7;0,8",
        "7,7,0,0,8,7,0,2,9,7,0,4,11,7,0,6,12,7,0,8",
        "h8 0,0 i8 a3 9,7 a5 l8 0,6 m8 a9",
    ] {
        assert_eq!(
            run(&["forbidden", "--moves", text, "--json"]),
            notation,
            "{text}"
        );
    }
    assert_bad(&["forbidden", "--moves", "7,7,8"], "x,y pairs");
    assert_bad(&["forbidden", "--moves", "7,7 15,0"], "off the 15x15 board");
}

#[test]
fn rectangular_boards() {
    let (code, out, err) = run(&["forbidden", "--size", "20x15", "--moves", "t15", "--board"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("no forbidden point\n"), "{out}");
    assert!(
        out.contains("15  . . . . . . . . . . . . . . . . . . .(X)15"),
        "{out}"
    );
    let (code, _, err) = run(&[
        "analyze",
        "--rule",
        "caro",
        "--size",
        "15x20",
        "--moves",
        "h8,h20",
        "--depth",
        "2",
        "--threads",
        "1",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_bad(
        &["analyze", "--size", "15x23"],
        "unsupported board size 15x23",
    );
    assert_bad(
        &["analyze", "--size", "15by20"],
        "expected N (N x N) or WxH",
    );
    assert_bad(
        &["forbidden", "--size", "20x15", "--moves", "a16"],
        "off the 20x15 board",
    );
}

#[test]
fn rule_names_are_checked_and_listed() {
    let valid = "valid rules: freestyle (0), standard (1), renju (4), caro (8), caro-exact (9)";
    for tool in ["analyze", "solve", "forbidden", "demo", "play"] {
        assert_bad(&[tool, "--rule", "renjuu"], valid);
        assert_bad(&[tool, "--rule", "2"], "rule 2 is renju to Yixin-Board");
        assert_bad(&[tool, "--rule", "5"], "rule 5 is a combination");
    }
    let (code, _, err) = run(&[
        "match", "--engine", "a", "--engine", "b", "--rule", "renjuu",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains(valid), "{err}");
    // The numbers that name one rule still work.
    let (code, out, _) = run(&["forbidden", "--rule", "4", "--moves", "h8"]);
    assert_eq!((code, out.as_str()), (0, "no forbidden point\n"));
    assert_bad(
        &["forbidden", "--rule", "0", "--moves", "h8"],
        "only under renju, not freestyle",
    );
}

#[test]
fn forbidden_says_when_there_is_none() {
    let (code, out, err) = run(&["forbidden", "--moves", "h8,h9"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "no forbidden point\n");
    let (_, out, _) = run(&["forbidden", "--moves", "h8,h9", "--json"]);
    assert_eq!(out.trim(), r#"{"forbidden":[]}"#);
}

#[test]
fn solve_refuses_a_finished_game() {
    // Black already has five (h8-l8), as analyze reports too.
    let five = "h8,a1,i8,a3,j8,a5,k8,a7,l8";
    assert_bad(
        &["solve", "--rule", "freestyle", "--moves", five],
        "the game is over: black wins: move 9 (l8) makes a five under freestyle",
    );
    assert_bad(
        &["analyze", "--rule", "freestyle", "--moves", five],
        "the game is over: black wins: move 9 (l8) makes a five under freestyle",
    );
    assert_bad(
        &[
            "solve",
            "--rule",
            "freestyle",
            "--moves",
            five,
            "--vct",
            "--json",
        ],
        "the game is over",
    );
}

#[test]
fn demo_counts_engine_moves_paces_and_saves() {
    let save = tmp("demo.sgf");
    let start = Instant::now();
    let (code, out, err) = run(&[
        "demo",
        "--rule",
        "freestyle",
        "--move-ms",
        "50",
        "--max-moves",
        "2",
        "--pause-ms",
        "300",
        "--save",
        save.to_str().unwrap(),
    ]);
    let elapsed = start.elapsed();
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("stopped after 2 moves"), "{out}");
    let played: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("4. ") || l.starts_with("5. ") || l.starts_with("6. "))
        .collect();
    assert_eq!(played.len(), 2, "{out}");
    assert!(played[0].starts_with("4. white "), "{out}");
    // Two pauses of 300 ms after the two moves.
    assert!(elapsed.as_millis() >= 600, "{elapsed:?}");
    let g = tianyuan::gamefile::read_game(&save, (15, 15)).unwrap();
    assert_eq!(g.moves.len(), 5);
    assert_eq!(g.size, Some((15, 15)));
    let _ = std::fs::remove_file(save);
    assert_bad(
        &["demo", "--save", "/nonexistent/dir/x.psq"],
        "cannot write",
    );
}

#[test]
fn bench_reports_each_position_and_search_nps() {
    let (code, out, err) = run(&["bench", "--depth", "1"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with("Bench: 12 positions, depth 1"),
        "{out}"
    );
    let per_position: Vec<u64> = lines[1..13]
        .iter()
        .map(|l| l.split_whitespace().nth(1).unwrap().parse().unwrap())
        .collect();
    // The set-up (boards, rule tables, table) is reported apart from the search time.
    let times = lines[13];
    assert!(
        times.starts_with("Setup ") && times.contains(" ms (boards, rule tables"),
        "{out}"
    );
    let search_ms: f64 = times
        .rsplit("search ")
        .next()
        .unwrap()
        .trim_end_matches(" ms")
        .parse()
        .unwrap();
    let last: Vec<&str> = lines[14].split_whitespace().collect();
    assert_eq!(last[0], "Bench:");
    let nodes: u64 = last[1].parse().unwrap();
    let nps: f64 = last[3].parse().unwrap();
    assert_eq!(nodes, per_position.iter().sum::<u64>());
    // nps is the nodes over the search time alone (to the printed precision).
    let expected = nodes as f64 * 1000.0 / search_ms;
    assert!(
        (nps - expected).abs() <= expected * 0.01 + 2.0,
        "{nps} vs {expected}: {out}"
    );
    assert_eq!(lines.len(), 15, "{out}");
}

/// The position of issue 34: black's ninth move h9 is a double three under renju.
const FOUL: &str = "h8,a1,i9,a3,h10,a5,g9,a7,h9";

/// Issue 34, fault 1: a renju foul inside a move list ends the game for every tool that
/// reads a position, from `--moves`, a psq and an SGF file: they refuse it, naming the foul
/// and the rule (`forbidden`, which asks only about black's points, answers with that as a
/// note, issue 51); a stone after the foul, or after a five, is refused too.
#[test]
fn a_renju_foul_in_a_game_is_refused_with_the_rule() {
    let want = "the game is over: white wins: black's move 9 (h9) is a double three, \
                forbidden to black under renju";
    for tool in ["analyze", "solve"] {
        assert_bad(&[tool, "--moves", FOUL], want);
    }
    let (code, out, err) = run(&["forbidden", "--moves", FOUL]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with(&format!("note: {want}")), "{out}");
    let psq = tmp("foul.psq");
    std::fs::write(
        &psq,
        "Piskvorky 15x15, 11:11, 0\n8,8,0\n1,1,0\n9,9,0\n1,3,0\n8,10,0\n1,5,0\n7,9,0\n1,7,0\n8,9,0\n",
    )
    .unwrap();
    let sgf = tmp("foul.sgf");
    std::fs::write(
        &sgf,
        "(;GM[4]SZ[15]RU[renju];B[hh];W[aa];B[ii];W[ac];B[hj];W[ae];B[gi];W[ag];B[hi])",
    )
    .unwrap();
    for file in [&psq, &sgf] {
        assert_bad(&["analyze", "--file", file.to_str().unwrap()], want);
        let (code, out, err) = run(&["forbidden", "--file", file.to_str().unwrap(), "--json"]);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert!(v["note"].as_str().unwrap().starts_with(want), "{out}");
    }
    // The position before the foul is still a position to analyse.
    let (code, out, err) = run(&["forbidden", "--moves", FOUL, "--ply", "8"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("h9 double-three"), "{out}");
    // Stones after the end of the game.
    assert_bad(
        &["analyze", "--moves", &format!("{FOUL},o15")],
        "move 10 (o15) comes after the end of the game (white wins: black's move 9 (h9)",
    );
    assert_bad(
        &[
            "analyze",
            "--rule",
            "freestyle",
            "--moves",
            "h8,a1,i8,a2,j8,a3,k8,a4,l8,o15",
        ],
        "move 10 (o15) comes after the end of the game (black wins: move 9 (l8) makes a five",
    );
    let _ = std::fs::remove_file(psq);
    let _ = std::fs::remove_file(sgf);
}

/// Issue 34, fault 3: a freestyle game saved by `demo` keeps its rule through psq, SGF and
/// a move list; a file that names no rule is read with the default, and the output says so.
#[test]
fn saved_games_keep_their_rule_and_a_missing_rule_is_named() {
    for ext in ["psq", "sgf", "txt"] {
        let save = tmp(&format!("free.{ext}"));
        let (code, _, err) = run(&[
            "demo",
            "--rule",
            "freestyle",
            "--move-ms",
            "20",
            "--max-moves",
            "2",
            "--save",
            save.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{err}");
        let g = tianyuan::gamefile::read_game(&save, (15, 15)).unwrap();
        assert_eq!(g.rule, Some(tianyuan::core::Rule::Freestyle), "{ext}");
        // analyze reads the file's rule: the JSON has no note, the board is freestyle.
        let (code, out, err) = run(&[
            "analyze",
            "--file",
            save.to_str().unwrap(),
            "--depth",
            "2",
            "--threads",
            "1",
            "--board",
        ]);
        assert_eq!(code, 0, "{err}");
        assert!(!out.contains("note:"), "{ext}: {out}");
        let _ = std::fs::remove_file(save);
    }
    // Piskvork's own psq has no rule line: the default is used and named.
    let plain = tmp("plain.psq");
    std::fs::write(&plain, "Piskvorky 15x15, 11:11, 0\n8,8,0\n8,9,0\nA\nB\n0\n").unwrap();
    let (code, out, err) = run(&[
        "analyze",
        "--file",
        plain.to_str().unwrap(),
        "--depth",
        "2",
        "--threads",
        "1",
    ]);
    assert_eq!(code, 0, "{err}");
    let first = out.lines().next().unwrap();
    assert!(
        first.starts_with("note: ")
            && first.ends_with("names no rule: using the default, renju (--rule to choose)"),
        "{out}"
    );
    let (code, out, _) = run(&[
        "analyze",
        "--file",
        plain.to_str().unwrap(),
        "--depth",
        "2",
        "--threads",
        "1",
        "--json",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert!(
        v["note"]
            .as_str()
            .unwrap()
            .contains("using the default, renju"),
        "{v}"
    );
    // --rule wins over the default, silently.
    let (_, out, _) = run(&[
        "analyze",
        "--file",
        plain.to_str().unwrap(),
        "--rule",
        "freestyle",
        "--depth",
        "2",
        "--threads",
        "1",
    ]);
    assert!(!out.contains("note:"), "{out}");
    let _ = std::fs::remove_file(plain);
    // demo --save refuses a name whose format it would have to guess.
    assert_bad(
        &["demo", "--save", "game.xyz"],
        "ending in .psq, .sgf or .txt",
    );
}

/// Issue 34: one meaning, one check and one message for time limits, threads and table
/// size in every tool (and `serve`); stone sets with counts no game reaches need --to-move.
#[test]
fn options_are_checked_alike_in_every_tool() {
    let pos = ["--moves", "h8,h9"];
    let with = |tool: &str, extra: &[&str]| {
        let mut v = vec![tool];
        if tool != "demo" && tool != "serve" {
            v.extend(pos);
        }
        v.extend(extra.iter().copied());
        v.into_iter().map(String::from).collect::<Vec<String>>()
    };
    for tool in ["analyze", "solve", "play"] {
        let a = with(tool, &["--time-ms", "0"]);
        assert_bad(
            &a.iter().map(String::as_str).collect::<Vec<_>>(),
            "--time-ms must be 1..=86400000 (milliseconds)",
        );
        let a = with(tool, &["--threads", "0"]);
        assert_bad(
            &a.iter().map(String::as_str).collect::<Vec<_>>(),
            "--threads must be at least 1 (default: every core)",
        );
    }
    // `serve` exists only in builds with the `web` feature (the default).
    let hash_tools: &[&str] = if cfg!(feature = "web") {
        &["analyze", "play", "serve"]
    } else {
        &["analyze", "play"]
    };
    for &tool in hash_tools {
        let a = with(tool, &["--hash-mb", "0"]);
        assert_bad(
            &a.iter().map(String::as_str).collect::<Vec<_>>(),
            "--hash-mb must be 1..=65536 (MiB)",
        );
    }
    if cfg!(feature = "web") {
        assert_bad(
            &["serve", "--threads", "0"],
            "--threads must be at least 1 (default: every core)",
        );
    }
    assert_bad(
        &["demo", "--move-ms", "0"],
        "--move-ms must be 1..=86400000 (milliseconds)",
    );
    assert_bad(
        &["analyze", "--black", "h8,h9,h10", "--white", "a1"],
        "3 black and 1 white stones: no game has these counts",
    );
    let (code, _, err) = run(&[
        "forbidden",
        "--black",
        "h8,h9,h10",
        "--white",
        "a1",
        "--to-move",
        "black",
    ]);
    assert_eq!(code, 0, "{err}");
}

/// Issue 34: "win in 1 ply", not "1 plies".
#[test]
fn one_ply_is_singular() {
    let (code, out, err) = run(&[
        "analyze",
        "--rule",
        "freestyle",
        "--moves",
        "h8,a1,i8,a2,j8,a3,k8,a4",
        "--depth",
        "3",
        "--threads",
        "1",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("score win in 1 ply\n"), "{out}");
}

/// Issue 34: a binary file given as a game is refused with a short, escaped excerpt; its
/// bytes never reach the terminal.
#[test]
fn a_binary_game_file_is_not_echoed() {
    let bin = tmp("game.bin");
    let mut bytes = b"\x1b]0;pwned\x07\x1b[2J".to_vec();
    bytes.extend((0u8..=255).cycle().take(4096));
    std::fs::write(&bin, &bytes).unwrap();
    let (code, out, err) = run(&["analyze", "--file", bin.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.contains("not a game file"), "{err}");
    assert!(!err.trim_end().chars().any(|c| c.is_control()), "{err:?}");
    assert!(err.len() < 300, "{} bytes: {err:?}", err.len());
    // Text that is mostly fine but holds an escape sequence in a "move".
    let text = format!(
        "# {}\nh8 \x1b[31mh9\x1b[0m\n",
        "a comment long enough to be text ".repeat(4)
    );
    std::fs::write(&bin, text).unwrap();
    let (code, _, err) = run(&["analyze", "--file", bin.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(!err.trim_end().chars().any(|c| c.is_control()), "{err:?}");
    assert!(err.contains("\\u{1b}"), "{err}");
    let _ = std::fs::remove_file(bin);
}

/// Issue 51: `forbidden` answers on a diagram with a finished line elsewhere (a white five,
/// as test diagrams have), with a note saying so once (not `the game is over: the game is
/// over`); stone sets whose counts no game has need no `--to-move`; a diagram of stone sets
/// marks no last move.
#[test]
fn forbidden_answers_finished_diagrams_and_any_stone_counts() {
    // A cross of four black stones around h8 (a double three there) and a white five.
    let args = [
        "forbidden",
        "--black",
        "h9,g8,i8,h7",
        "--white",
        "a1,a2,a3,a4,a5",
        "--board",
    ];
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with(
            "note: the game is over: white has a five (the points are black's, as the stones \
             stand)\nh8 double-three\n"
        ),
        "{out}"
    );
    assert!(
        !out.lines().any(|l| l.contains("(X)") || l.contains("(O)")),
        "no last move: {out}"
    );
    // Four black stones and no white one: no game has these counts, no --to-move needed.
    let (code, out, err) = run(&["forbidden", "--black", "h9,g8,i8,h7", "--json"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out.trim(),
        r#"{"forbidden":[{"point":"h8","kind":"double-three"}]}"#
    );
}

/// Issue 51: an occupied point in a game file names the file (and the move, which every
/// format numbers the same way); an empty game file is read as the empty board with a note
/// saying so.
#[test]
fn game_file_errors_name_the_file_and_an_empty_file_is_noted() {
    let moves = tmp("occupied.txt");
    std::fs::write(&moves, "# rule=freestyle\nh8\nh9\nh8\n").unwrap();
    let name = moves.to_str().unwrap();
    assert_bad(
        &["analyze", "--file", name],
        &format!("{name}: move 3 (h8): point 'h8' is already occupied"),
    );
    let empty = tmp("empty.psq");
    std::fs::write(&empty, "").unwrap();
    let (code, out, err) = run(&["forbidden", "--file", empty.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(&format!(
            "{} holds no moves: the empty board",
            empty.display()
        )),
        "{out}"
    );
    let _ = std::fs::remove_file(moves);
    let _ = std::fs::remove_file(empty);
}
