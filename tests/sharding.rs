//! `--shard K/N` and `merge` (docs/cluster.md) through the binary: shards of `selfplay`,
//! `label` and `match` merged give what the unsharded command writes; a shard run twice
//! writes the same file; a killed shard loses only its torn last record (with a message); a
//! duplicated, missing or mismatched shard is refused with a clear error.
//!
//! `label` and `match` use a small deterministic fake engine (python3, written at test time)
//! so that the comparison is about the sharding, not about an engine's timing.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_pbrain-tianyuan"))
}

/// A fresh directory for one test (kept when the test fails).
struct Dir(PathBuf);

impl Dir {
    fn new(tag: &str) -> Dir {
        static N: AtomicUsize = AtomicUsize::new(0);
        let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
            "sharding-{}-{tag}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::SeqCst)
        ));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        Dir(d)
    }
    fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

fn run(cmd: &mut Command) -> (i32, String, String) {
    let o: Output = cmd.output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn ok(cmd: &mut Command) -> String {
    let (code, out, err) = run(cmd);
    assert_eq!(code, 0, "{cmd:?}\nstdout: {out}\nstderr: {err}");
    out
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The record lines of a game file (no comments).
fn records(text: &str) -> Vec<&str> {
    text.lines().filter(|l| !l.starts_with('#')).collect()
}

/// Tiny self-play settings: a game takes a few hundred nodes a move.
const SELFPLAY: &[(&str, &str)] = &[
    ("--games", "8"),
    ("--nodes", "300"),
    ("--spread", "100"),
    ("--balance-nodes", "500"),
    ("--hash-mb", "4"),
    ("--seed", "33"),
];

/// `selfplay --quiet` with [`SELFPLAY`], where `extra` (options and their values, in pairs)
/// replaces or adds options.
fn selfplay_cmd(extra: &[&str]) -> Command {
    let mut opts: Vec<(String, String)> = SELFPLAY
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    for kv in extra.chunks(2) {
        let (k, v) = (kv[0].to_string(), kv[1].to_string());
        match opts.iter_mut().find(|(o, _)| *o == k) {
            Some(o) => o.1 = v,
            None => opts.push((k, v)),
        }
    }
    let mut c = bin();
    c.args(["selfplay", "--quiet"]);
    for (k, v) in opts {
        c.args([k, v]);
    }
    c
}

fn selfplay(extra: &[&str], out: &Path) -> String {
    ok(selfplay_cmd(extra).arg("--out").arg(out))
}

fn merge(shards: &[PathBuf], out: &Path) -> (i32, String, String) {
    run(bin().arg("merge").arg("--out").arg(out).args(shards))
}

#[test]
fn selfplay_shards_merge_into_the_unsharded_file() {
    let d = Dir::new("selfplay");
    let all = d.path("all.txt");
    selfplay(&["--concurrency", "2"], &all);
    let whole = read(&all);
    assert_eq!(records(&whole).len(), 8);
    let mut shards = Vec::new();
    for k in 0..4 {
        let p = d.path(&format!("shard{k}.txt"));
        // Different concurrencies: the games and their order must not depend on it.
        let c = if k % 2 == 0 { "1" } else { "2" };
        let said = selfplay(&["--shard", &format!("{k}/4"), "--concurrency", c], &p);
        assert!(
            said.starts_with(&format!(
                "2 games (shard {k}/4: games {}..{} of 8)",
                2 * k,
                2 * k + 2
            )),
            "{said}"
        );
        let text = read(&p);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "# tianyuan-games 1");
        assert!(
            lines[1].starts_with(&format!(
                "# shard {{\"format\":1,\"kind\":\"selfplay\",\"k\":{k},\"n\":4,\"total\":8,\"first\":{},\"count\":2,",
                2 * k
            )),
            "{}",
            lines[1]
        );
        assert!(lines[1].contains("\"nodes\":300") && lines[1].contains("\"seed\":33"));
        assert_eq!(lines[4], "# shard-end {\"records\":2}");
        // The shard's games are the unsharded run's games of its block.
        assert_eq!(records(&text), records(&whole)[2 * k..2 * k + 2]);
        shards.push(p);
    }
    // Run twice, a shard writes the same file.
    let again = d.path("shard2-again.txt");
    selfplay(&["--shard", "2/4"], &again);
    assert_eq!(read(&again), read(&shards[2]));
    // Merged in any order of the arguments: byte for byte the unsharded file.
    let merged = d.path("merged.txt");
    let order = [
        shards[3].clone(),
        shards[0].clone(),
        shards[2].clone(),
        shards[1].clone(),
    ];
    let (code, out, err) = merge(&order, &merged);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(err, "", "a clean merge says nothing on stderr");
    assert!(
        out.starts_with("merged 4 selfplay shards: 8 of 8 games -> "),
        "{out}"
    );
    assert_eq!(read(&merged), whole);
    // The merged file is an ordinary game file for the other tools.
    let games = tianyuan::train::data::read_games(&mut std::io::BufReader::new(
        std::fs::File::open(&merged).unwrap(),
    ))
    .unwrap();
    assert_eq!(games.len(), 8);
}

#[test]
fn a_killed_shard_loses_only_its_torn_record() {
    let d = Dir::new("killed");
    let all = d.path("all.txt");
    selfplay(&[], &all);
    let whole = read(&all);
    let mut shards: Vec<PathBuf> = (0..4)
        .map(|k| {
            let p = d.path(&format!("shard{k}.txt"));
            selfplay(&["--shard", &format!("{k}/4")], &p);
            p
        })
        .collect();
    // Shard 1 killed while it wrote its second game (game 3 of the run): the file ends in
    // the middle of that line, without the end line. What is left of the line may itself
    // look like a shorter game; it must be dropped all the same.
    let text = read(&shards[1]);
    let second = text.lines().nth(3).unwrap();
    assert!(!second.starts_with('#'));
    let cut_at = text.find(second).unwrap() + second.len() - 7;
    let torn = d.path("shard1-killed.txt");
    std::fs::write(&torn, &text[..cut_at]).unwrap();
    shards[1] = torn;
    let merged = d.path("merged.txt");
    let (code, out, err) = merge(&shards, &merged);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        err.contains("shard1-killed.txt: the last line (line 4, ")
            && err.contains("has no end of line: a record torn when the job was killed; dropped"),
        "{err}"
    );
    assert!(
        err.contains("shard 1/4 is incomplete, 1 of its 2 games"),
        "{err}"
    );
    assert!(
        out.starts_with("merged 4 selfplay shards: 7 of 8 games"),
        "{out}"
    );
    let mut expected: Vec<&str> = records(&whole);
    expected.remove(3);
    assert_eq!(records(&read(&merged)), expected);

    // A real kill: a shard of slower games stopped with SIGKILL once it has written its
    // first game. Its file holds that game, as the finished shard writes it, and merges.
    let long = ["--games", "4", "--shard", "1/2", "--nodes", "3000"];
    let done = d.path("long-done.txt");
    selfplay(&long, &done);
    let killed = d.path("long-killed.txt");
    let mut child = selfplay_cmd(&long)
        .arg("--out")
        .arg(&killed)
        .spawn()
        .unwrap();
    let t0 = std::time::Instant::now();
    while records(&std::fs::read_to_string(&killed).unwrap_or_default()).is_empty() {
        assert!(t0.elapsed().as_secs() < 60, "no game written in 60 s");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let (full, part) = (read(&done), read(&killed));
    let kept = records(&part);
    assert!(!kept.is_empty() && kept.len() < 2, "{} games", kept.len());
    assert_eq!(kept, records(&full)[..kept.len()]);
    assert!(!part.contains("# shard-end"));
    let first = d.path("long-0.txt");
    selfplay(
        &["--games", "4", "--shard", "0/2", "--nodes", "3000"],
        &first,
    );
    let (code, out, err) = merge(&[first, killed], &d.path("long-merged.txt"));
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        err.contains("long-killed.txt: shard 1/2 is incomplete, 1 of its 2 games"),
        "{err}"
    );

    // Killed before its header was complete: the file cannot be used, and merge says so.
    let head = d.path("shard0-head.txt");
    std::fs::write(&head, &read(&shards[0])[..40]).unwrap();
    let (code, _, err) = merge(&[head, shards[2].clone()], &d.path("m2.txt"));
    assert_eq!(code, 2);
    assert!(err.contains("no complete shard header"), "{err}");
}

#[test]
fn duplicated_missing_or_mismatched_shards_are_refused() {
    let d = Dir::new("refused");
    let shard = |k: usize, n: usize, extra: &[&str], name: &str| {
        let p = d.path(name);
        selfplay(&[&["--shard", &format!("{k}/{n}")], extra].concat(), &p);
        p
    };
    let s: Vec<PathBuf> = (0..4)
        .map(|k| shard(k, 4, &[], &format!("s{k}.txt")))
        .collect();
    let merged = d.path("merged.txt");
    let refused = |inputs: &[PathBuf], want: &str| {
        let (code, out, err) = merge(inputs, &merged);
        assert_eq!(code, 2, "{out}{err}");
        assert!(err.starts_with("error: merge: "), "{err}");
        assert!(err.contains(want), "wanted '{want}' in: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(!merged.exists(), "no output after a refusal");
    };
    // The same shard twice, as the same file or as a copy of it.
    let copy = d.path("s1-copy.txt");
    std::fs::copy(&s[1], &copy).unwrap();
    let mut dup = s.clone();
    dup.push(copy.clone());
    refused(&dup, "shard 1/4 given twice: ");
    refused(
        &[
            s[0].clone(),
            s[1].clone(),
            s[1].clone(),
            s[2].clone(),
            s[3].clone(),
        ],
        "shard 1/4 given twice",
    );
    // A missing shard (the copy standing in for shard 2 is still shard 1).
    refused(
        &[s[0].clone(), s[1].clone(), s[3].clone()],
        "missing shard 2/4 of a run of 4 shards (3 given)",
    );
    // A shard of a run split in 3.
    let other_n = shard(2, 3, &[], "t2.txt");
    refused(
        &[s[0].clone(), s[1].clone(), other_n, s[3].clone()],
        "different shard counts: 4 in ",
    );
    // Other settings.
    let other_nodes = shard(2, 4, &["--nodes", "301"], "nodes.txt");
    refused(
        &[s[0].clone(), s[1].clone(), other_nodes, s[3].clone()],
        "different settings (settings.nodes): 300 in ",
    );
    let other_seed = shard(2, 4, &["--seed", "34"], "seed.txt");
    refused(
        &[s[0].clone(), s[1].clone(), other_seed, s[3].clone()],
        "different settings (settings.seed): 33 in ",
    );
    // Another engine: the same binary with other weights (the built-in ones, renumbered).
    let mut w =
        tianyuan::eval::weights::Weights::from_bytes(tianyuan::eval::weights::DEFAULT_WEIGHTS)
            .unwrap();
    let built_in = w.version;
    w.version = 99;
    let wfile = d.path("other.tyw");
    w.save(&wfile).unwrap();
    let p = d.path("weights.txt");
    ok(selfplay_cmd(&["--shard", "2/4"])
        .arg("--weights")
        .arg(&wfile)
        .arg("--out")
        .arg(&p));
    refused(
        &[s[0].clone(), s[1].clone(), p, s[3].clone()],
        &format!("different engines (engine.weights.version): {built_in} in "),
    );
    // Not a shard file, and a plain unsharded output.
    let plain = d.path("plain.txt");
    selfplay(&[], &plain);
    refused(
        &[plain],
        "a record before the shard header (not a shard file?)",
    );
    // The output must not overwrite a shard.
    let (code, _, err) = run(bin().arg("merge").arg("--out").arg(&s[0]).args(&s));
    assert_eq!(code, 2);
    assert!(err.contains("is one of the shards"), "{err}");
    assert!(read(&s[0]).contains("# shard-end"));
    // All four, finally.
    let (code, out, err) = merge(&s, &merged);
    assert_eq!(code, 0, "{out}{err}");
    // Bad --shard values never start a run.
    for bad in ["4/4", "1/0", "x/4", "1-4"] {
        let (code, _, err) = run(selfplay_cmd(&["--shard", bad])
            .arg("--out")
            .arg(d.path("bad.txt")));
        assert_eq!(code, 2, "{bad}");
        assert!(err.contains("--shard wants K/N"), "{err}");
        assert!(!d.path("bad.txt").exists());
    }
}

/// The fake engine of the match tests (docs in tests/arena.rs): `eval` gives `ev <score>`
/// from the stones on the board, then the empty point nearest the centre; `rowwin` as black
/// plays along the last row and as white answers garbage (it wins exactly the games it
/// starts).
const FAKE: &str = include_str!("arena_common/fake.py");

fn fake(d: &Dir) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let p = d.path("fake.py");
    std::fs::write(&p, FAKE).unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    p
}

#[test]
fn label_shards_merge_into_the_unsharded_file() {
    let d = Dir::new("label");
    let engine = format!("{} eval", fake(&d).display());
    let data = d.path("games.txt");
    selfplay(&[], &data);
    let label = |extra: &[&str], out: &Path| {
        ok(bin()
            .args(["label", "--engine", &engine, "--nodes", "100", "--quiet"])
            .args(["--engine-option", "thread_num=1", "--data"])
            .arg(&data)
            .args(extra)
            .arg("--out")
            .arg(out))
    };
    let all = d.path("all.txt");
    label(&[], &all);
    let whole = read(&all);
    assert_eq!(records(&whole).len(), 8);
    // The first searched move of the first game got the fake engine's evaluation of the
    // position before it: the sum of 7x + 3y over the side to move's stones minus the
    // opponent's, taken mod 400, minus 200.
    let g = tianyuan::train::data::GameRecord::parse(records(&whole)[0], 1).unwrap();
    let upto = g.opening;
    let sum: i64 = g.moves[..upto]
        .iter()
        .enumerate()
        .map(|(j, p)| {
            let v = p.x() as i64 * 7 + p.y() as i64 * 3;
            if (upto - j).is_multiple_of(2) {
                v
            } else {
                -v
            }
        })
        .sum();
    assert_eq!(g.scores[upto], Some((sum.rem_euclid(400) - 200) as i32));
    assert!(g.best[upto].is_some(), "the fake's move is kept as >point");
    let shards: Vec<PathBuf> = (0..3)
        .map(|k| {
            let p = d.path(&format!("label{k}.txt"));
            let said = label(&["--shard", &format!("{k}/3")], &p);
            assert!(said.contains(&format!("(shard {k}/3: records ")), "{said}");
            let text = read(&p);
            assert!(text.lines().nth(1).unwrap().contains("\"kind\":\"label\""));
            assert!(text.contains("\"engine_options\":[[\"thread_num\",\"1\"]]"));
            p
        })
        .collect();
    // 8 records in 3 shards: 2, 3 and 3.
    assert_eq!(
        shards
            .iter()
            .map(|p| records(&read(p)).len())
            .collect::<Vec<_>>(),
        [2, 3, 3]
    );
    let merged = d.path("merged.txt");
    let (code, out, err) = merge(
        &[shards[2].clone(), shards[1].clone(), shards[0].clone()],
        &merged,
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.starts_with("merged 3 label shards: 8 of 8 records"),
        "{out}"
    );
    assert_eq!(read(&merged), whole);
    // Labels of other input data are not the same run.
    let other = d.path("other.txt");
    std::fs::write(&other, records(&read(&data))[1..].join("\n") + "\n").unwrap();
    let p = d.path("other0.txt");
    ok(bin()
        .args(["label", "--engine", &engine, "--nodes", "100", "--quiet"])
        .args([
            "--engine-option",
            "thread_num=1",
            "--shard",
            "0/3",
            "--data",
        ])
        .arg(&other)
        .arg("--out")
        .arg(&p));
    let (code, _, err) = merge(&[p, shards[1].clone(), shards[2].clone()], &d.path("m.txt"));
    assert_eq!(code, 2);
    assert!(err.contains("different run sizes: 7 items in "), "{err}");
}

#[test]
fn match_shards_merge_into_the_unsharded_result() {
    let d = Dir::new("match");
    let f = fake(&d).display().to_string();
    let openings = d.path("openings.txt");
    std::fs::write(&openings, "h8\nh8,h9\nh8,i9,j10\n").unwrap();
    let play = |extra: &[&str], out: &Path| {
        ok(bin()
            .args([
                "match",
                "--engine",
                &format!("{f} rowwin"),
                "--engine",
                &format!("{f} sane"),
            ])
            .args(["--games", "12", "--tc-turn-ms", "3000", "--tc-game-ms", "0"])
            .arg("--openings")
            .arg(&openings)
            .args(extra)
            .arg("--out")
            .arg(out))
    };
    // Game by game: rowwin's pairs are all 1 - 1, which the default (pairs) reads as no
    // evidence at all (tests/arena.rs).
    let sprt = ["--sprt", "0,10,0.05,0.05", "--sprt-model", "trinomial"];
    let all = d.path("all");
    play(&sprt, &all);
    let shards: Vec<PathBuf> = (0..3)
        .map(|k| {
            let p = d.path(&format!("m{k}"));
            let said = play(
                &[
                    &sprt[..],
                    &["--shard", &format!("{k}/3"), "--concurrency", "2"],
                ]
                .concat(),
                &p,
            );
            assert!(
                said.contains(&format!(
                    "shard {k}/3: games {}..={} of 12",
                    4 * k + 1,
                    4 * k + 4
                )),
                "{said}"
            );
            // The shard's records carry the schedule's game numbers.
            assert!(p.join(format!("game-{:04}.psq", 4 * k + 1)).exists());
            p
        })
        .collect();
    let merged = d.path("merged");
    let (code, out, err) = merge(&shards, &merged);
    assert_eq!(code, 0, "{out}{err}");
    // rowwin wins its black games on the board and loses its white ones by forfeit.
    let whole = read(&all.join("summary.txt"));
    assert!(
        whole.contains("Score of fake-rowwin vs fake-sane: 6 - 6 - 0"),
        "{whole}"
    );
    assert!(
        whole.contains("Forfeit losses: fake-rowwin 6, fake-sane 0"),
        "{whole}"
    );
    let m = read(&merged.join("summary.txt"));
    // The merged summary is the unsharded one (score, Elo and interval, points, forfeits,
    // SPRT over all games), and then where the SPRT would have stopped.
    assert!(m.starts_with(&whole), "merged:\n{m}\nunsharded:\n{whole}");
    assert_eq!(
        m[whole.len()..].trim(),
        "SPRT in schedule order: no decision within the 12 games (llr -0.00)"
    );
    assert!(
        out.contains("merged 3 match shards: 12 of 12 games"),
        "{out}"
    );
    let a: serde_json::Value = serde_json::from_str(&read(&all.join("results.json"))).unwrap();
    let b: serde_json::Value = serde_json::from_str(&read(&merged.join("results.json"))).unwrap();
    assert_eq!(a["pairs"], b["pairs"]);
    assert_eq!(a["forfeits"], b["forfeits"]);
    for (x, y) in a["games"]
        .as_array()
        .unwrap()
        .iter()
        .zip(b["games"].as_array().unwrap())
    {
        for k in [
            "number",
            "black",
            "white",
            "opening",
            "result",
            "winner",
            "termination",
            "moves",
        ] {
            assert_eq!(x[k], y[k], "{k}");
        }
    }
    assert_eq!(b["games"].as_array().unwrap().len(), 12);

    // An SPRT that decides early: the unsharded match stops after game 6 (3 - 3, LLR
    // -2.96 < -2.94, stats.rs), the shards play on, and merge says where it would have
    // stopped.
    let hard = ["--sprt", "0,1000,0.05,0.05", "--sprt-model", "trinomial"];
    let early = d.path("early");
    let said = play(&hard, &early);
    assert!(said.contains("SPRT decided after 6 games"), "{said}");
    let parts: Vec<PathBuf> = (0..2)
        .map(|k| {
            let p = d.path(&format!("h{k}"));
            play(&[&hard[..], &["--shard", &format!("{k}/2")]].concat(), &p);
            p
        })
        .collect();
    let (code, out, err) = merge(&parts, &d.path("hard"));
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("Score of fake-rowwin vs fake-sane: 6 - 6 - 0"),
        "{out}"
    );
    assert!(
        out.contains("SPRT in schedule order: H0 accepted after game 6"),
        "{out}"
    );
    let r: serde_json::Value =
        serde_json::from_str(&read(&d.path("hard").join("results.json"))).unwrap();
    assert_eq!(r["sprt_stop_game"], 6);
    assert_eq!(r["sprt_decision"], "AcceptH0");
    assert_eq!(r["shards"][1]["games"], 6);
    assert_eq!(r["shards"][1]["complete"], true);
    // Merging into a shard's own directory would replace its summary: refused.
    let (code, _, err) = merge(&parts, &parts[1]);
    assert_eq!(code, 2);
    assert!(err.contains("is one of the shards (or holds it)"), "{err}");
    // Shards of matches with other settings are refused.
    let other = d.path("other");
    play(
        &[
            "--sprt",
            "0,1000,0.05,0.05",
            "--sprt-model",
            "trinomial",
            "--shard",
            "1/2",
            "--tolerance-ms",
            "999",
        ],
        &other,
    );
    let (code, _, err) = merge(&[parts[0].clone(), other], &d.path("x"));
    assert_eq!(code, 2);
    assert!(
        err.contains("different settings (settings.tolerance_ms): 1000 in "),
        "{err}"
    );
}
