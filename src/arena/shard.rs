//! Sharded matches (docs/cluster.md §2 and §3): the `shard.txt` a `match --shard K/N` writes
//! in its `--out` directory, and `merge` of those files into one match result.
//!
//! `shard.txt` is a shard file ([`crate::shard`]): the header (engines with their names,
//! commands, `INFO` settings and program fingerprints; every setting that decides the games,
//! the openings by count and checksum), then one JSON object per game in schedule order
//! ([`ShardGame`]: number, pair, colours, winner, how it ended, the moves), then the end
//! line. Thinking times are left out, so that a shard replayed with fixed-node engines
//! writes the same file; they stay in the shard's own `.psq` records and `results.json`.
//!
//! `merge` sums the pairs' wins, losses and draws and the forfeits over all games, prints
//! and writes the summary a match prints (score, Elo with its 95 % interval, LOS, SPRT over
//! all games), and, with an SPRT, where in schedule order the test would have stopped the
//! unsharded match.

use super::referee::GameRecord;
use super::stats::{self, SprtDecision, SprtParams};
use super::{ArenaError, Job, MatchConfig, PairResult};
use crate::core::{quote_path, Color};
use crate::shard::{end_line, InOrder, Shard, ShardError, ShardFile, ShardHeader};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Name of the shard file in a sharded match's `--out` directory.
pub const SHARD_FILE: &str = "shard.txt";

/// One game of a sharded match, as `shard.txt` holds it (one JSON object a line;
/// docs/cluster.md §2).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardGame {
    /// 1-based game number in the whole schedule.
    pub number: usize,
    /// The pair's first engine (results are counted from its side).
    pub a: usize,
    /// The pair's second engine.
    pub b: usize,
    /// The engine that played black.
    pub black: usize,
    /// The engine that played white.
    pub white: usize,
    /// The opening's name, if the game started from one.
    pub opening: Option<String>,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// The winning engine, `None` for a draw.
    pub winner: Option<usize>,
    /// Whether the loser lost by breaking the protocol or the clock.
    pub forfeit: bool,
    /// How the game ended, as in `results.json` (`{"kind": "five"}`, ...).
    pub termination: Value,
    /// Every stone in notation, opening first.
    pub moves: Vec<String>,
    /// The opening rule's decisions, if one was played.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub opening_decisions: Vec<Value>,
}

impl ShardGame {
    /// The line of a finished game of the schedule.
    pub fn of(cfg: &MatchConfig, job: &Job, rec: &GameRecord) -> ShardGame {
        let seats = job.colors(rec);
        ShardGame {
            number: job.index + 1,
            a: job.a,
            b: job.b,
            black: seats[0],
            white: seats[1],
            opening: job.opening.map(|i| cfg.openings[i].name.clone()),
            result: match rec.winner {
                Some(Color::Black) => "1-0",
                Some(Color::White) => "0-1",
                None => "1/2-1/2",
            }
            .to_string(),
            winner: rec.winner.map(|c| seats[c.index()]),
            forfeit: rec.termination.is_forfeit(),
            termination: serde_json::to_value(&rec.termination).unwrap_or(Value::Null),
            moves: rec.moves.iter().map(|m| m.pos.to_notation()).collect(),
            opening_decisions: rec
                .decisions
                .iter()
                .map(|d| serde_json::to_value(d).unwrap_or(Value::Null))
                .collect(),
        }
    }
}

/// The engines of a match for a shard header: name, command, extra `INFO` settings and the
/// fingerprint of the program file.
fn engines_identity(cfg: &MatchConfig, names: &[String]) -> Value {
    let engines: Vec<Value> = cfg
        .engines
        .iter()
        .zip(names)
        .map(|(e, n)| {
            let mut v = crate::shard::program_identity(&e.command, &e.program);
            v["name"] = json!(n);
            v["info"] = json!(e.info);
            v
        })
        .collect();
    json!({ "engines": engines })
}

/// Everything that decides a match's games, for a shard header.
fn settings(cfg: &MatchConfig, scheduled: usize) -> Value {
    let mut openings = String::new();
    for o in &cfg.openings {
        openings.push_str(&o.name);
        for m in &o.moves {
            openings.push(' ');
            openings.push_str(&m.to_notation());
        }
        openings.push('\n');
    }
    let g = &cfg.game;
    json!({
        "rule": g.rule.name(),
        "size": g.size,
        "time_control": g.tc,
        "tolerance_ms": g.tolerance_ms,
        "start_timeout_ms": g.start_timeout_ms,
        "max_memory_bytes": g.max_memory_bytes,
        "draw_200": g.draw_200,
        "opening_rule": g.opening_rule.map(|p| p.rule.name()),
        "opening_n": g.opening_rule.map(|p| p.n),
        "games_per_pair": cfg.games_per_pair,
        "games_scheduled": scheduled,
        "openings": cfg.openings.len(),
        "openings_fnv1a": format!("{:016x}", crate::eval::weights::fnv1a(openings.as_bytes())),
        "restart_each_game": cfg.restart_each_game,
        "sprt": cfg.sprt,
    })
}

/// `shard.txt` being written: the games in schedule order, flushed game by game.
pub struct ShardLog {
    path: PathBuf,
    out: InOrder<std::io::BufWriter<std::fs::File>>,
    count: usize,
}

impl ShardLog {
    /// Creates `shard.txt` in the match's `--out` directory (replacing one left by an
    /// earlier run) and writes its header.
    ///
    /// Errors: [`ArenaError::Usage`] without `--out`; [`ArenaError::Io`] when the file
    /// cannot be written.
    pub fn create(
        cfg: &MatchConfig,
        names: &[String],
        shard: Shard,
        scheduled: usize,
    ) -> Result<ShardLog, ArenaError> {
        let dir = cfg
            .out
            .as_ref()
            .ok_or_else(|| ArenaError::Usage("--shard needs --out".into()))?;
        let path = dir.join(SHARD_FILE);
        let io = |source| ArenaError::Io {
            path: path.display().to_string(),
            source,
        };
        let header = ShardHeader::new(
            "match",
            shard,
            scheduled,
            engines_identity(cfg, names),
            settings(cfg, scheduled),
        );
        let mut w = std::io::BufWriter::new(std::fs::File::create(&path).map_err(io)?);
        writeln!(w, "{}", header.line())
            .and_then(|_| w.flush())
            .map_err(io)?;
        Ok(ShardLog {
            out: InOrder::new(w, header.first),
            count: header.count,
            path,
        })
    }

    /// Adds a finished game (written once every earlier game of the shard is).
    ///
    /// Errors: [`ArenaError::Io`].
    pub fn push(
        &mut self,
        cfg: &MatchConfig,
        job: &Job,
        rec: &GameRecord,
    ) -> Result<(), ArenaError> {
        let line = serde_json::to_string(&ShardGame::of(cfg, job, rec))
            .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
        self.out
            .push(job.index, line)
            .map_err(|source| ArenaError::Io {
                path: self.path.display().to_string(),
                source,
            })
    }

    /// Writes the end line: the shard played all its games.
    ///
    /// Errors: [`ArenaError::Io`].
    pub fn finish(mut self) -> Result<(), ArenaError> {
        let w = self.out.writer();
        writeln!(w, "{}", end_line(self.count))
            .and_then(|_| w.flush())
            .map_err(|source| ArenaError::Io {
                path: self.path.display().to_string(),
                source,
            })
    }
}

/// What `merge` of match shards found.
#[derive(Clone, Debug)]
pub struct MergedMatch {
    /// Engine names.
    pub names: Vec<String>,
    /// One entry per pair, from its first engine's side.
    pub pairs: Vec<PairResult>,
    /// Forfeit losses per engine.
    pub forfeits: Vec<u64>,
    /// Every game present, in schedule order.
    pub games: Vec<ShardGame>,
    /// Games of the whole schedule.
    pub scheduled: usize,
    /// The SPRT, if the match had one.
    pub sprt: Option<SprtParams>,
    /// With an SPRT: the game (1-based number) after which the test, run in schedule order,
    /// decided, and its decision.
    pub sprt_stop: Option<(usize, SprtDecision)>,
    /// The summary as printed and written to `summary.txt`.
    pub text: String,
}

/// Reads the games of checked match shards (in the order of `K`) and adds them up
/// (docs/cluster.md §3).
///
/// Errors: [`ShardError::File`] for a line that is not a game of this match (bad JSON, a
/// number outside its shard, an unknown engine, a winner who did not play).
pub fn merge(files: &[ShardFile]) -> Result<MergedMatch, ShardError> {
    let h = &files[0].header;
    let engines = h.engine["engines"].as_array().cloned().unwrap_or_default();
    let names: Vec<String> = engines
        .iter()
        .enumerate()
        .map(|(i, e)| {
            e["name"]
                .as_str()
                .map_or_else(|| format!("engine {}", i + 1), str::to_string)
        })
        .collect();
    let sprt: Option<SprtParams> = serde_json::from_value(h.settings["sprt"].clone()).ok();
    let mut pairs: Vec<PairResult> = (0..names.len())
        .flat_map(|a| (a + 1..names.len()).map(move |b| PairResult::new(a, b)))
        .collect();
    let engine_pairs = pairs.len().max(1);
    let mut forfeits = vec![0u64; names.len()];
    let mut games = Vec::new();
    let mut sprt_stop = None;
    for f in files {
        let range = f.header.shard().range(f.header.total);
        let bad = |line: usize, msg: String| ShardError::File {
            path: quote_path(&f.path),
            msg: format!("line {line}: {msg}"),
        };
        let mut last = range.start;
        for (line, text) in &f.records {
            let g: ShardGame = serde_json::from_str(text)
                .map_err(|e| bad(*line, format!("not a game of a match shard: {e}")))?;
            if g.number != last + 1 || g.number > range.end {
                return Err(bad(
                    *line,
                    format!(
                        "game {} where game {} is due (shard {} has games {}..={})",
                        g.number,
                        last + 1,
                        f.header.shard(),
                        range.start + 1,
                        range.end
                    ),
                ));
            }
            last = g.number;
            let seated = [g.black, g.white];
            let pair = pairs.iter_mut().find(|p| (p.a, p.b) == (g.a, g.b));
            let ok = pair.is_some()
                && seated.contains(&g.a)
                && seated.contains(&g.b)
                && g.winner.is_none_or(|w| seated.contains(&w));
            let Some(pr) = pair.filter(|_| ok) else {
                return Err(bad(
                    *line,
                    format!(
                        "game {}: engines that are not a pair of this match",
                        g.number
                    ),
                ));
            };
            let k = (g.number - 1) / engine_pairs;
            pr.record(k, g.winner.map(|w| w == g.a), g.black == g.a);
            if g.forfeit {
                if let Some(w) = g.winner {
                    forfeits[if w == g.black { g.white } else { g.black }] += 1;
                }
            }
            if let (Some(s), None) = (&sprt, sprt_stop) {
                let d = s.decision(pairs[0].sprt_sample(s));
                if d != SprtDecision::Continue {
                    sprt_stop = Some((g.number, d));
                }
            }
            games.push(g);
        }
    }
    let mut text = super::summary_of(
        sprt.as_ref(),
        &names,
        &pairs,
        &forfeits,
        games.len(),
        h.total,
    );
    if let Some(s) = &sprt {
        text.push('\n');
        text.push_str(&match sprt_stop {
            Some((n, d)) => format!(
                "SPRT in schedule order: {} after game {n} (an unsharded match stops there)",
                match d {
                    SprtDecision::AcceptH1 => "H1 accepted",
                    _ => "H0 accepted",
                }
            ),
            None => format!(
                "SPRT in schedule order: no decision within the {} games (llr {:.2})",
                games.len(),
                s.llr(pairs[0].sprt_sample(s))
            ),
        });
    }
    Ok(MergedMatch {
        names,
        pairs,
        forfeits,
        games,
        scheduled: h.total,
        sprt,
        sprt_stop,
        text,
    })
}

/// Writes `summary.txt` and `results.json` of a merged match to `dir` (created if needed).
/// `results.json` has the keys of a match's own (engines, rule, size, time control,
/// pairs with Elo and LLR, forfeits, games without their times), plus `sprt_stop_game` and
/// `shards` (each shard's file, games and whether it finished).
///
/// Errors: [`ShardError::Io`].
pub fn write_merged(dir: &Path, m: &MergedMatch, files: &[ShardFile]) -> Result<(), ShardError> {
    let io = |path: &Path| {
        let p = quote_path(path);
        move |source| ShardError::Io { path: p, source }
    };
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let s = &files[0].header.settings;
    let engines: Vec<Value> = files[0].header.engine["engines"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .map(|e| json!({"name": e["name"], "command": e["command"], "info": e["info"]}))
        .collect();
    let decision = m.sprt.map(|p| p.decision(m.pairs[0].sprt_sample(&p)));
    let out = json!({
        "engines": engines,
        "rule": s["rule"],
        "opening_rule": s["opening_rule"],
        "size": s["size"],
        "time_control": s["time_control"],
        "tolerance_ms": s["tolerance_ms"],
        "games_scheduled": m.scheduled,
        "games_played": m.games.len(),
        "sprt_decision": decision,
        "sprt_stop_game": m.sprt_stop.map(|(n, _)| n),
        "pairs": m.pairs.iter().map(|p| json!({
            "a": p.a,
            "b": p.b,
            "wld": p.wld,
            "a_black": p.a_black,
            "elo": stats::elo_estimate(&p.wld),
            "pairs": p.penta().counts,
            "llr": m.sprt.map(|sp| sp.llr(p.sprt_sample(&sp))),
            "sprt": m.sprt,
        })).collect::<Vec<_>>(),
        "forfeits": m.forfeits,
        "games": m.games,
        "shards": files.iter().map(|f| json!({
            "shard": f.header.shard().to_string(),
            "file": f.path.display().to_string(),
            "games": f.records.len(),
            "complete": f.ended,
        })).collect::<Vec<_>>(),
    });
    let summary = dir.join("summary.txt");
    std::fs::write(&summary, format!("{}\n", m.text)).map_err(io(&summary))?;
    let results = dir.join("results.json");
    let text =
        serde_json::to_string_pretty(&out).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    std::fs::write(&results, text).map_err(io(&results))
}
