//! `pbrain-tianyuan analyze --variant fourcolour`: text and JSON output, a win in one found,
//! bad input refused with status 2 (`docs/fourcolour.md` §6).

use serde_json::Value;
use std::process::{Command, Output};

fn analyze(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pbrain-tianyuan"))
        .arg("analyze")
        .args(args)
        .output()
        .expect("run analyze")
}

fn json(args: &[&str]) -> Value {
    let mut v = vec!["--variant", "fourcolour", "--json"];
    v.extend_from_slice(args);
    let o = analyze(&v);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).expect("one JSON object")
}

#[test]
fn json_names_the_colour_player_and_move() {
    let v = json(&[
        "--mode",
        "2v2",
        "--stones",
        "h8:1,h9:2,i9:3",
        "--depth",
        "2",
    ]);
    assert_eq!(v["variant"], "fourcolour");
    assert_eq!(v["mode"], "2v2");
    assert_eq!(v["to_move"], "green");
    assert_eq!(v["player"], 4);
    assert_eq!(v["team"], 2);
    let mv = v["move"].as_str().unwrap();
    assert!(!["h8", "h9", "i9"].contains(&mv), "{mv}");
    assert_eq!(v["depth"], 2);
    assert_eq!(v["pv"][0], mv);
}

#[test]
fn finds_a_win_in_one() {
    // Row 1: black a1, white b1, purple c1, green d1, then black, white and purple far away
    // (colours implied by the order): black threatens 1 2 3 4 1 at e1.
    let v = json(&[
        "--mode",
        "ffa",
        "--stones",
        "a1,b1,c1,d1,h8,h12,l12",
        "--time-ms",
        "200",
    ]);
    // Green, the colour before black, blocks it.
    assert_eq!(v["to_move"], "green");
    assert_eq!(v["move"], "e1");
    // One more green stone elsewhere: black to move wins there at once.
    let v = json(&[
        "--mode",
        "ffa",
        "--stones",
        "a1,b1,c1,d1,h8,h12,l12,l8",
        "--depth",
        "3",
    ]);
    assert_eq!(v["to_move"], "black");
    assert_eq!(v["move"], "e1");
    assert_eq!(v["win_in"], 1);
}

#[test]
fn text_output() {
    let o = analyze(&[
        "--variant",
        "fourcolour",
        "--mode",
        "1v2",
        "--stones",
        "h8:1,h9:2",
        "--depth",
        "1",
    ]);
    assert!(o.status.success());
    let text = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "variant fourcolour mode 1v2");
    assert_eq!(lines[1], "to_move purple (player 1 (black+purple))");
    assert!(lines[2].starts_with("move "), "{text}");
    assert!(lines.iter().any(|l| l.starts_with("pv ")), "{text}");
}

#[test]
fn bad_input_exits_with_status_2() {
    let bad: &[&[&str]] = &[
        &["--variant", "fourcolour", "--stones", "h8:1,h9:3"],
        &["--variant", "fourcolour", "--stones", "h8:1,h8:2"],
        &["--variant", "fourcolour", "--stones", "h8:7"],
        &["--variant", "fourcolour", "--stones", "z99"],
        &["--variant", "fourcolour", "--mode", "4p"],
        &["--variant", "fourcolour", "--moves", "h8"],
        &["--variant", "fourcolour", "--size", "30"],
        &["--variant", "sixcolour"],
        &["--stones", "h8"],
        &[
            "--variant",
            "fourcolour",
            "--stones",
            "a1:1,b1:2,c1:3,d1:4,e1:1",
        ],
    ];
    for args in bad {
        let o = analyze(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(o.stdout.is_empty(), "{args:?}");
    }
}
