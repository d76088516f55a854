//! The training pipeline end to end, as docs/training.md gives it: `selfplay` writes games,
//! `tune` fits weights to them and writes a weights file that loads back with its checksum;
//! `--copy TO=FROM` gives a rule another rule's tables; the engine plays with `--weights`.
//! Then the network (docs/network.md): `train-net` fits a network per rule and writes a file
//! that loads back (`--copy` gives a rule another's network), the engine evaluates with
//! `--network`, and bad arguments exit 2 with one line.
use std::process::Command;
use tianyuan::core::{Color, Rule};
use tianyuan::eval::network::Network;
use tianyuan::eval::weights::{Kind, Weights};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_pbrain-tianyuan"))
}

fn run(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{cmd:?} failed: {text}");
    text
}

/// The training loss before and after a fit from the summary `tune` prints:
/// "`stage` loss train A -> B".
fn train_loss(log: &str, stage: &str) -> (f64, f64) {
    let losses = log
        .split(&format!("{stage} loss train "))
        .nth(1)
        .and_then(|t| t.split(',').next())
        .unwrap_or_else(|| panic!("no {stage} training-loss line in\n{log}"));
    let (a, b) = losses.split_once(" -> ").expect("A -> B");
    (a.trim().parse().unwrap(), b.trim().parse().unwrap())
}

#[test]
fn selfplay_then_tune_writes_loadable_weights() {
    let dir = std::env::temp_dir().join(format!("tianyuan-train-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let games = dir.join("games.txt");
    let out = dir.join("w.tyw");
    run(bin()
        .args([
            "selfplay",
            "--rule",
            "freestyle",
            "--games",
            "6",
            "--nodes",
            "800",
        ])
        .args([
            "--spread",
            "200",
            "--balance-nodes",
            "800",
            "--seed",
            "3",
            "--quiet",
        ])
        .arg("--out")
        .arg(&games));
    let text = std::fs::read_to_string(&games).unwrap();
    let records = text.lines().filter(|l| !l.starts_with('#')).count();
    assert!(
        records >= 6,
        "expected 6 game records, got {records}:\n{text}"
    );

    let log = run(bin()
        .args([
            "tune",
            "--factor-iters",
            "20",
            "--iters",
            "20",
            "--holdout",
            "3",
        ])
        .args([
            "--copy",
            "standard=freestyle",
            "--copy",
            "caro=freestyle",
            "--version",
            "77",
            "--base",
            "prior",
        ])
        .arg("--data")
        .arg(&games)
        .arg("--out")
        .arg(&out));
    assert!(log.contains("freestyle: 6 games"), "{log}");
    assert!(log.contains("held-out loss against results"), "{log}");
    assert!(
        log.contains("standard: tables copied from freestyle"),
        "{log}"
    );
    // The fit reduces the training loss: "evaluation loss train A -> B".
    let (a, b) = train_loss(&log, "evaluation");
    assert!(b < a, "training loss {a} -> {b}\n{log}");

    let w = Weights::load(&out).expect("the written weights load");
    assert_eq!(w.version, 77);
    for c in [Color::Black, Color::White] {
        for rule in [Rule::Standard, Rule::Caro] {
            for k in [Kind::Mover, Kind::Waiter, Kind::Attack, Kind::Defence] {
                assert_eq!(w.get(rule, c).table(k), w.get(Rule::Freestyle, c).table(k));
            }
        }
    }

    // The engine plays with the new weights.
    let reply = run(bin().arg("--weights").arg(&out).args([
        "analyze", "--rule", "standard", "--moves", "h8,h9", "--depth", "4", "--json",
    ]));
    assert!(reply.contains("\"move\""), "{reply}");

    // Fine-tuning (docs/training.md §5): without the factorised stage the L2 penalty pulls
    // toward the starting tables, so a strong penalty keeps them where they were and none
    // lets the fit move them.
    let max_change = |l2: &str| -> i32 {
        let tuned = dir.join(format!("ft-{l2}.tyw"));
        run(bin()
            .args(["tune", "--factor-iters", "0", "--iters", "20", "--no-order"])
            .args(["--holdout", "3", "--l2", l2, "--base"])
            .arg(&out)
            .arg("--data")
            .arg(&games)
            .arg("--out")
            .arg(&tuned));
        let t = Weights::load(&tuned).expect("the fine-tuned weights load");
        let mut most = 0;
        for k in [Kind::Mover, Kind::Waiter] {
            let (a, b) = (
                w.get(Rule::Freestyle, Color::Black).table(k),
                t.get(Rule::Freestyle, Color::Black).table(k),
            );
            for (x, y) in a.iter().zip(b) {
                most = most.max((*x as i32 - *y as i32).abs());
            }
        }
        most
    };
    let held = max_change("1");
    let free = max_change("0");
    assert!(held <= 1, "a strong pull still moved an entry by {held}");
    assert!(
        free > 2,
        "an unpulled fit moved no entry by more than {free}"
    );

    // Records without search scores (a match against another engine converted to the game
    // format) still teach the move ordering: every move after the opening is a sample.
    let bare = dir.join("bare.txt");
    let stripped: String = text
        .lines()
        .map(|l| {
            l.split(' ')
                .map(|f| f.split(':').next().unwrap())
                .collect::<Vec<_>>()
                .join(" ")
                + "\n"
        })
        .collect();
    assert!(!stripped.contains(':') && stripped != text);
    std::fs::write(&bare, stripped).unwrap();
    let log = run(bin()
        .args([
            "tune",
            "--factor-iters",
            "0",
            "--iters",
            "20",
            "--holdout",
            "3",
        ])
        .arg("--base")
        .arg(&out)
        .arg("--data")
        .arg(&bare)
        .arg("--out")
        .arg(dir.join("bare.tyw")));
    let (a, b) = train_loss(&log, "ordering");
    assert!(a > 0.0 && b < a, "ordering loss {a} -> {b}\n{log}");

    // A bad --copy is an error with a reason, not a panic.
    let bad = bin()
        .args(["tune", "--copy", "standard"])
        .arg("--data")
        .arg(&games)
        .arg("--out")
        .arg(dir.join("x.tyw"))
        .output()
        .unwrap();
    assert!(!bad.status.success());
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("TO=FROM"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The per-epoch training losses `train-net` printed.
fn epoch_losses(log: &str) -> Vec<f64> {
    log.lines()
        .filter_map(|l| l.trim().strip_prefix("epoch"))
        .map(|l| {
            let t = l.split("train ").nth(1).expect("train loss");
            t.split_whitespace().next().unwrap().parse().unwrap()
        })
        .collect()
}

/// The `static` value `analyze --json` reports.
fn static_value(reply: &str) -> i64 {
    let v: serde_json::Value = serde_json::from_str(reply.trim()).expect("JSON");
    v["static"]
        .as_i64()
        .unwrap_or_else(|| panic!("no static in {reply}"))
}

#[test]
fn selfplay_then_train_net_writes_a_network_the_engine_uses() {
    let dir = std::env::temp_dir().join(format!("tianyuan-net-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let games = dir.join("games.txt");
    let out = dir.join("n.tyn");
    run(bin()
        .args([
            "selfplay", "--rule", "renju", "--games", "8", "--nodes", "600",
        ])
        .args(["--spread", "200", "--balance-nodes", "600", "--seed", "4"])
        .arg("--quiet")
        .arg("--out")
        .arg(&games));
    // No held-out games: every epoch is kept, the last one is written.
    let log = run(bin()
        .args([
            "train-net",
            "--epochs",
            "6",
            "--batch",
            "16",
            "--lr",
            "0.01",
        ])
        .args([
            "--holdout",
            "0",
            "--version",
            "9",
            "--copy",
            "freestyle=renju",
        ])
        .arg("--data")
        .arg(&games)
        .arg("--out")
        .arg(&out));
    assert!(log.contains("renju: 8 games"), "{log}");
    assert!(
        log.contains("freestyle: network copied from renju"),
        "{log}"
    );
    assert!(
        log.contains("none held out: the last epoch is kept"),
        "{log}"
    );
    let losses = epoch_losses(&log);
    assert_eq!(losses.len(), 6, "{log}");
    assert!(
        losses[5] < losses[0],
        "the training loss falls: {losses:?}\n{log}"
    );

    let net = Network::load(&out).expect("the written network loads");
    assert_eq!(net.version, 9);
    let renju = net.rules[Rule::Renju.index()]
        .as_ref()
        .expect("a renju network");
    assert_eq!(renju.groups, 2);
    let free = net.rules[Rule::Freestyle.index()]
        .as_ref()
        .expect("the copy");
    assert_eq!((free.groups, &free.w1, free.b2), (1, &renju.w1, renju.b2));
    assert!(net.rules[Rule::Standard.index()].is_none());

    // The engine evaluates with the network: the static value moves, and it still plays.
    let analyze = |network: bool| {
        let mut c = bin();
        if network {
            c.arg("--network").arg(&out);
        } else {
            c.args(["--eval", "tables"]);
        }
        run(c
            .args([
                "analyze",
                "--rule",
                "renju",
                "--moves",
                "h8,h9,i9,g7",
                "--depth",
                "3",
            ])
            .arg("--json"))
    };
    let (with, without) = (analyze(true), analyze(false));
    assert!(with.contains("\"move\""), "{with}");
    assert_ne!(
        static_value(&with),
        static_value(&without),
        "{with}\n{without}"
    );

    // Bad input: one line and exit 2.
    let bad = |args: &[&str]| {
        let o = bin().args(args).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr).to_string();
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        err
    };
    let g = games.to_str().unwrap();
    let o = out.to_str().unwrap();
    assert!(bad(&["train-net", "--data", g, "--out", o, "--epochs", "0"]).contains("--epochs"));
    assert!(bad(&[
        "train-net",
        "--data",
        g,
        "--out",
        o,
        "--copy",
        "caro=standard"
    ])
    .contains("no standard network"));
    assert!(bad(&["--network", g, "analyze", "--moves", "h8"]).contains("network file"));
    assert!(bad(&[
        "--eval",
        "tables",
        "--network",
        o,
        "analyze",
        "--moves",
        "h8"
    ])
    .contains("cannot go together"));
    assert!(bad(&["--eval", "nets", "analyze", "--moves", "h8"]).contains("--eval"));
    // The protocol engine says it on stdout, never on stderr (docs/protocol.md §1.1).
    let o = bin()
        .args(["--network", g])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let reply = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(reply.starts_with("ERROR network file "), "{reply}");
    assert!(o.stderr.is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}
