//! The `solve` tool end to end: JSON and text output, and bad input (exit 2, one line on
//! stderr, nothing on stdout, no panic).
use std::process::Command;

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_pbrain-tianyuan"))
        .arg("solve")
        .args(args)
        .output()
        .expect("binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// V0012 of the data set: white wins by a forbidden-point capture.
const V0012: [&str; 8] = [
    "--rule",
    "renju",
    "--black",
    "e6,f9,g10,h7,h8,h11,j8",
    "--white",
    "f7,g8,g9,h9,i6,i7",
    "--to-move",
    "white",
];

#[test]
fn json_win() {
    let mut args = V0012.to_vec();
    args.push("--json");
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{}", err);
    assert_eq!(out.lines().count(), 1, "exactly one line: {}", out);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let obj = v.as_object().unwrap();
    let mut keys: Vec<&str> = obj.keys().map(|k| k.as_str()).collect();
    keys.sort();
    assert_eq!(
        keys,
        ["line", "move", "nodes", "plies", "result", "time_ms"]
    );
    assert_eq!(v["result"], "win");
    assert_eq!(v["move"], "i10");
    assert_eq!(v["line"][0], "i10");
    assert_eq!(v["line"].as_array().unwrap().len() % 2, 1);
    assert_eq!(v["plies"], v["line"].as_array().unwrap().len());
    assert_line_ends_in_five(&V0012, &v["line"]);
    assert!(v["nodes"].as_u64().unwrap() >= 1);
    assert!(v["time_ms"].is_u64());
}

/// Plays the stones of `args` (`--black`, `--white`, `--to-move`) and then `line`; the
/// line's last move must make the attacker's five (issue 51: the line goes to the five).
fn assert_line_ends_in_five(args: &[&str], line: &serde_json::Value) {
    use tianyuan::board::Board;
    use tianyuan::core::{parse_point_list, Color, Rule};
    let arg = |k: &str| args[args.iter().position(|a| *a == k).unwrap() + 1];
    let stones = |k: &str| parse_point_list(arg(k), 15, 15).unwrap();
    let to_move = Color::parse(arg("--to-move")).unwrap();
    let rule = Rule::parse(arg("--rule")).unwrap();
    let mut b = Board::from_stones_to_move(
        15,
        15,
        rule,
        &stones("--black"),
        &stones("--white"),
        to_move,
    )
    .unwrap();
    let attacker = b.side_to_move();
    for m in line.as_array().unwrap() {
        let p = parse_point_list(m.as_str().unwrap(), 15, 15).unwrap()[0];
        assert!(b.last_move_won().is_none(), "{line}: a move after the five");
        b.make(p);
    }
    assert_eq!(b.last_move_won(), Some(attacker), "{line}");
}

/// Issue 51: `plies` counts the plies to the five, as `analyze` does (`win in 3 plies`); the
/// line goes on past the open four to the five: the defender blocks one end, the attacker
/// plays the other.
#[test]
fn plies_and_line_go_to_the_five() {
    let args = ["--rule", "freestyle", "--moves", "h8,h9,i8,i9,j8,a1"];
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    assert!(out.lines().any(|l| l == "plies 3"), "{out}");
    assert!(out.lines().any(|l| l == "line g8 f8 k8"), "{out}");
    let mut json = args.to_vec();
    json.push("--json");
    let (_, out, _) = run(&json);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["plies"], 3, "{out}");
    assert_eq!(v["line"], serde_json::json!(["g8", "f8", "k8"]));
    let (_, out, _) = run(&[
        "--rule",
        "freestyle",
        "--moves",
        "h8,h9,i8,i9,j8,a1,k8,a2",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["plies"], 1, "a five at once: {out}");
    assert_eq!(v["line"].as_array().unwrap().len(), 1, "{out}");
}

/// V0112 of the data set (a VCT puzzle): no VCF, but a VCT.
const V0112: [&str; 8] = [
    "--rule",
    "renju",
    "--black",
    "e7,g8,h7,h8,i7,i8,i11",
    "--white",
    "f8,g6,g7,g9,h10,i6,i9",
    "--to-move",
    "black",
];

#[test]
fn json_none_then_vct_win() {
    let mut args = V0112.to_vec();
    args.push("--json");
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{}", err);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["result"], "none");
    assert_eq!(v["move"], serde_json::Value::Null);
    assert_eq!(v["line"], serde_json::json!([]));
    args.extend(["--vct", "--time-ms", "5000"]);
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{}", err);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["result"], "win");
    assert_eq!(v["move"], v["line"][0]);
}

/// `--threads`: the VCT of V0112 on 1 and 2 threads (the portfolio), same verdict; a VCF
/// with `--threads 2` too; `--threads 0` is refused as by every tool (issue 34).
#[test]
fn threads_option() {
    let mut args = V0112.to_vec();
    args.extend(["--vct", "--threads", "0"]);
    let (code, _, err) = run(&args);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--threads must be at least 1"), "{err}");
    for threads in ["1", "2"] {
        let mut args = V0112.to_vec();
        args.extend(["--vct", "--time-ms", "5000", "--json", "--threads", threads]);
        let (code, out, err) = run(&args);
        assert_eq!(code, 0, "{}: {}", threads, err);
        let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(v["result"], "win", "{} threads: {}", threads, out);
        assert_eq!(v["move"], v["line"][0]);
    }
    let mut args = V0012.to_vec();
    args.extend(["--json", "--threads", "2"]);
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{}", err);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["move"], "i10");
    let (code, _, err) = run(&["--threads", "x"]);
    assert_eq!((code, err.trim().lines().count()), (2, 1), "{}", err);
}

/// `--memory-mb`: a VCT that needs a large proof table (V1815 of the data set, unsettled in
/// 10 s on one thread) ends `unknown` as soon as the cap would be passed, long before its
/// 60 s time limit; 9 MiB leaves under 1 MiB beside the VCF sub-solver's fixed 8 MiB.
#[test]
fn memory_cap_ends_a_vct() {
    let (code, out, err) = run(&[
        "--rule",
        "renju",
        "--black",
        "f9,g9,g11,h6,h8,h10,i7,i8,j10,k9",
        "--white",
        "f6,f10,g7,g8,i5,i9,i10,i11,j5,j8",
        "--to-move",
        "black",
        "--vct",
        "--threads",
        "1",
        "--time-ms",
        "60000",
        "--memory-mb",
        "9",
        "--json",
    ]);
    assert_eq!(code, 0, "{}", err);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["result"], "unknown", "{}", out);
    assert!(v["time_ms"].as_u64().unwrap() < 30_000, "{}", out);
}

#[test]
fn text_output() {
    let (code, out, err) = run(&V0012);
    assert_eq!(code, 0, "{}", err);
    assert!(out.contains("result win"), "{}", out);
    assert!(out.contains("move i10"), "{}", out);
    assert!(out.lines().any(|l| l.starts_with("line i10 ")), "{}", out);
}

#[test]
fn empty_board_has_no_vcf() {
    let (code, out, _) = run(&["--rule", "freestyle", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["result"], "none");
    assert_eq!(v["move"], serde_json::Value::Null);
    assert_eq!(v["line"], serde_json::json!([]));
}

#[test]
fn bad_input_exits_2() {
    for args in [
        vec!["--rule", "nonsense", "--moves", "h8"],
        vec!["--moves", "h8,h8"],
        vec!["--moves", "h8,z99"],
        vec!["--moves", "8h"],
        vec!["--size", "40", "--moves", "h8"],
        vec!["--size", "3"],
        vec!["--moves", "h8", "--black", "a1"],
        vec!["--black", "a1", "--white", "b1", "--to-move", "purple"],
        vec!["--black", "a1,a1"],
    ] {
        let (code, out, err) = run(&args);
        assert_eq!(code, 2, "{:?}: out {} err {}", args, out, err);
        assert!(out.is_empty(), "{:?}: stdout {}", args, out);
        assert_eq!(err.trim().lines().count(), 1, "{:?}: stderr {}", args, err);
        assert!(!err.contains("panicked"), "{:?}: {}", args, err);
    }
}
