//! The training pipeline end to end, as docs/training.md gives it: `selfplay` writes games,
//! `tune` fits weights to them and writes a weights file that loads back with its checksum;
//! `--copy TO=FROM` gives a rule another rule's tables; the engine plays with `--weights`.
use std::process::Command;
use tianyuan::core::{Color, Rule};
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
