//! The network training end to end, as docs/network.md gives it: `selfplay` writes games,
//! `train-net` fits a network per rule and writes a file that loads back with its checksum
//! (`--copy TO=FROM` gives a rule another's network), and the engine evaluates with
//! `--network`; bad arguments exit 2 with one line.
use std::process::Command;
use tianyuan::core::Rule;
use tianyuan::eval::network::Network;

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
        log.contains("held-out loss against the targets: tables"),
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
