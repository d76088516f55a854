//! `label`: re-scores the moves of game records with a search of another engine (or of this
//! one), for the evaluation fit (docs/training.md §6).
//!
//! For every move after a record's opening the position before it is sent to the engine
//! with `BOARD` (a node limit by `INFO max_node`, a turn limit by `INFO timeout_turn`), and
//! the last evaluation the engine prints in its `MESSAGE` lines before its move becomes
//! that move's `:score` (from the mover's view, as the records keep it), and the move the
//! engine answers with becomes its `>point` (the teacher's move, for the move-ordering fit
//! of `tune --order-target best`). Moves, results and openings are copied unchanged; a
//! position the engine gives no evaluation for keeps no score. Each record starts a new
//! game for the engine (`START`), so that a record's labels do not depend on the records
//! before it; with `--shard K/N` the run labels only its block of the records (all `--data`
//! files in order) and writes a shard file for `merge` (docs/cluster.md).

use crate::arena::player::{board_request, is_info_line, EngineSpec, MoveReply, Player, Reply};
use crate::core::Pos;
use crate::shard::{end_line, Shard, ShardHeader};
use crate::train::data::{write_header, GameRecord};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Options of `label`.
#[derive(Args, Debug, Clone)]
pub struct LabelArgs {
    /// The labelling engine's command line (a Piskvork/Gomocup brain that prints its
    /// evaluation in `MESSAGE` lines, as `Eval 35` / `Eval +M7` or `ev 35` / `ev -M4`).
    #[arg(long)]
    pub engine: String,
    /// Game files (the `selfplay` format, docs/training.md §1).
    #[arg(long, num_args = 1.., required = true)]
    pub data: Vec<PathBuf>,
    /// Output game file (overwritten).
    #[arg(long)]
    pub out: PathBuf,
    /// Node limit of each search (`INFO max_node`).
    #[arg(long, default_value_t = 10_000)]
    pub nodes: u64,
    /// Turn limit of each search in milliseconds (`INFO timeout_turn`), a cap in case the
    /// engine ignores the node limit.
    #[arg(long, default_value_t = 300)]
    pub turn_ms: u64,
    /// Pause after each answer before the next request, in milliseconds (some engines drop
    /// a request that arrives while their search thread is still winding down).
    #[arg(long, default_value_t = 5)]
    pub pause_ms: u64,
    /// Extra `INFO KEY VALUE` line sent after the standard ones (e.g. `thread_num=1`, which
    /// with a node limit makes Tianyuan's labels repeatable). Repeatable.
    #[arg(long = "engine-option", value_name = "KEY=VALUE")]
    pub engine_options: Vec<String>,
    /// Label only shard K of N (K from 0): its block of the records of all `--data` files
    /// in order (records `K * R / N` up to `(K + 1) * R / N` of `R`, from 0); the output is
    /// a shard file for `merge` (docs/cluster.md).
    #[arg(long, value_name = "K/N", value_parser = Shard::parse_arg)]
    pub shard: Option<Shard>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// The `--engine-option` settings as `(key, value)` pairs.
///
/// Errors: a setting without `=` or with an empty or spaced key, quoted.
fn engine_options(opts: &[String]) -> Result<Vec<(String, String)>, String> {
    opts.iter()
        .map(|o| {
            o.split_once('=')
                .map(|(k, v)| (k.trim(), v.trim()))
                .filter(|(k, v)| {
                    !k.is_empty() && !k.contains(char::is_whitespace) && !v.contains(['\n', '\r'])
                })
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .ok_or_else(|| {
                    format!(
                        "--engine-option wants KEY=VALUE, got '{}'",
                        crate::core::excerpt(o)
                    )
                })
        })
        .collect()
}

/// The evaluation in an engine's `MESSAGE` line, in the records' units (wins `30000 -
/// plies`): the value after a word `eval` or `ev` (any case), a plain integer or a mate
/// `+M<n>` / `-M<n>` / `M<n>`. `None` when the line has none.
pub fn parse_eval(line: &str) -> Option<i32> {
    let mut words = line.split_whitespace();
    while let Some(w) = words.next() {
        let w = w.trim_end_matches([':', '=']);
        if !(w.eq_ignore_ascii_case("eval") || w.eq_ignore_ascii_case("ev")) {
            continue;
        }
        let v = words.next()?.trim_end_matches([',', '|']);
        let (neg, body) = match v.as_bytes().first()? {
            b'-' => (true, &v[1..]),
            b'+' => (false, &v[1..]),
            _ => (false, v),
        };
        let value = if let Some(n) = body.strip_prefix(['M', 'm']) {
            30_000 - n.parse::<i32>().ok()?.clamp(0, 1_000)
        } else {
            body.parse::<i32>().ok()?.clamp(-30_000, 30_000)
        };
        return Some(if neg { -value } else { value });
    }
    None
}

/// The `BOARD` request of the position before move `upto` of `g` (the side to move's
/// stones, those of `upto`'s parity, are its own).
fn board_block(g: &GameRecord, upto: usize) -> String {
    board_request(
        g.moves[..upto]
            .iter()
            .enumerate()
            .map(|(j, &p)| (p, (upto - j).is_multiple_of(2))),
    )
}

/// A running labelling engine, and whether it has been given the current record's game.
struct Labeller {
    spec: Arc<EngineSpec>,
    player: Option<Player>,
    /// Whether `START` and the `INFO` block of the current record have been sent.
    started: bool,
    info: Vec<(String, String)>,
    args: LabelArgs,
}

impl Labeller {
    /// Starts a new record: its first position sends `START` again.
    fn new_record(&mut self) {
        self.started = false;
    }

    /// The engine, started, and given `START` and the `INFO` block (with `g`'s rule) once
    /// per record.
    fn ready(&mut self, g: &GameRecord) -> Result<&mut Player, String> {
        if self.player.is_none() {
            self.player = Some(Player::spawn(self.spec.clone()).map_err(|e| e.to_string())?);
            self.started = false;
        }
        let p = self.player.as_mut().expect("spawned");
        if !self.started {
            let start = if g.width == g.height {
                format!("START {}\n", g.width)
            } else {
                format!("RECTSTART {},{}\n", g.width, g.height)
            };
            let t = p.send(&start).map_err(|e| e.to_string())?;
            match p.read_reply(t, Duration::from_secs(30)) {
                Reply::Line(l, _) if l.eq_ignore_ascii_case("OK") => {}
                other => return Err(format!("engine refused {}: {other:?}", start.trim())),
            }
            let a = &self.args;
            let mut info = format!(
                "INFO timeout_match 100000000\nINFO time_left 100000000\n\
                 INFO timeout_turn {}\nINFO max_node {}\nINFO max_memory 268435456\n\
                 INFO rule {}\n",
                a.turn_ms,
                a.nodes,
                g.rule.gomocup_value()
            );
            for (k, v) in &self.info {
                info.push_str(&format!("INFO {k} {v}\n"));
            }
            p.send(&info).map_err(|e| e.to_string())?;
            self.started = true;
        }
        Ok(p)
    }

    /// The engine's evaluation of the position before move `upto` of `g`, and the move it
    /// chose there (`None` when it is off the board or occupied). A timeout or a garbled
    /// answer gives `(None, None)` and restarts the engine; a crash is an error.
    fn label(&mut self, g: &GameRecord, upto: usize) -> Result<(Option<i32>, Option<Pos>), String> {
        let limit = Duration::from_millis(self.args.turn_ms + 10_000);
        let pause = Duration::from_millis(self.args.pause_ms);
        let p = self.ready(g)?;
        // Lines the engine printed after its last move (a late `MESSAGE` of the previous
        // search) must not be read as this position's evaluation.
        p.drain();
        p.start_log(Instant::now());
        let t = p.send(&board_block(g, upto)).map_err(|e| e.to_string())?;
        let reply = p.read_move(t, Some(limit));
        let eval = p
            .take_log()
            .iter()
            .filter(|e| e.dir == '<' && is_info_line(&e.text))
            .filter_map(|e| parse_eval(&e.text))
            .next_back();
        match reply {
            MoveReply::Move { x, y, .. } => {
                std::thread::sleep(pause);
                let on_board = |v: i64, n: usize| usize::try_from(v).ok().filter(|&v| v < n);
                let best = match (on_board(x, g.width), on_board(y, g.height)) {
                    (Some(x), Some(y)) => Some(Pos::new(x, y)),
                    _ => None,
                }
                .filter(|p| !g.moves[..upto].contains(p));
                Ok((eval, best))
            }
            MoveReply::Timeout(_) | MoveReply::Garbage(..) => {
                if let Some(mut p) = self.player.take() {
                    p.kill();
                }
                Ok((None, None))
            }
            MoveReply::Crash(why) => Err(format!("engine crashed: {why}")),
        }
    }
}

/// Runs `label` (see the module docs); returns the exit status (2 on bad input, an
/// unreadable file or an engine that cannot be run).
pub fn run(args: &LabelArgs) -> i32 {
    match label_files(args) {
        Ok(()) => 0,
        Err(e) => crate::cli::bad_input(&e),
    }
}

/// The whole of `label`; errors are the one line `run` prints.
fn label_files(args: &LabelArgs) -> Result<(), String> {
    let spec = Arc::new(EngineSpec::new(&args.engine).map_err(|e| format!("bad --engine: {e}"))?);
    let paths: Vec<String> = args.data.iter().map(|p| p.display().to_string()).collect();
    let mut games = crate::train::read_game_files(&paths).map_err(|e| e.to_string())?;
    let info = engine_options(&args.engine_options)?;
    let records = match args.shard {
        Some(sh) => sh.range(games.len()),
        None => 0..games.len(),
    };
    let header = args
        .shard
        .map(|sh| shard_header(args, sh, &games, &spec, &info));
    let games: Vec<GameRecord> = games.drain(records.clone()).collect();
    let cannot_write = |e: std::io::Error| format!("cannot write {}: {e}", args.out.display());
    let file = std::fs::File::create(&args.out)
        .map_err(|e| format!("cannot create {}: {e}", args.out.display()))?;
    let mut out = std::io::BufWriter::new(file);
    write_header(&mut out)
        .and_then(|_| match &header {
            Some(h) => writeln!(out, "{}", h.line()),
            None => Ok(()),
        })
        .and_then(|_| out.flush())
        .map_err(cannot_write)?;
    let mut lab = Labeller {
        spec,
        player: None,
        started: false,
        info,
        args: args.clone(),
    };
    let count = games.len();
    let (labelled, missing) = label_games(&mut lab, games, &mut out)?;
    if let Some(p) = lab.player.take() {
        p.end(Duration::from_secs(2));
    }
    match header {
        Some(_) => writeln!(out, "{}", end_line(count)).and_then(|_| out.flush()),
        None => out.flush(),
    }
    .map_err(cannot_write)?;
    let part = match args.shard {
        Some(sh) => format!(
            " (shard {sh}: records {}..{} of {})",
            records.start,
            records.end,
            header.as_ref().map_or(0, |h| h.total)
        ),
        None => String::new(),
    };
    println!(
        "{labelled} positions labelled, {missing} without an evaluation{part} -> {}",
        args.out.display()
    );
    Ok(())
}

/// The header of a `--shard` output: the settings that decide the labels and a checksum
/// of the whole input, so that `merge` joins only shards of one run.
fn shard_header(
    args: &LabelArgs,
    sh: crate::shard::Shard,
    games: &[GameRecord],
    spec: &EngineSpec,
    info: &[(String, String)],
) -> ShardHeader {
    let mut all = String::new();
    for g in games {
        all.push_str(&g.to_line());
        all.push('\n');
    }
    let settings = serde_json::json!({
        "nodes": args.nodes,
        "turn_ms": args.turn_ms,
        "engine_options": info,
        "records": games.len(),
        "data_fnv1a": format!("{:016x}", crate::eval::weights::fnv1a(all.as_bytes())),
    });
    let engine = crate::shard::program_identity(&args.engine, &spec.program);
    ShardHeader::new("label", sh, games.len(), engine, settings)
}

/// Labels every position after the opening of `games` and writes each record to `out` as
/// soon as it is done; returns the positions labelled and those the engine gave no
/// evaluation for.
fn label_games(
    lab: &mut Labeller,
    games: Vec<GameRecord>,
    out: &mut impl Write,
) -> Result<(usize, usize), String> {
    let total: usize = games
        .iter()
        .map(|g| g.moves.len().saturating_sub(g.opening))
        .sum();
    let bar = if lab.args.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(total as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} positions {msg} [{elapsed} < {eta}]")
            .expect("valid template"),
    );
    let (mut labelled, mut missing) = (0usize, 0usize);
    for mut g in games {
        lab.new_record();
        g.best = vec![None; g.moves.len()];
        for i in g.opening..g.moves.len() {
            let (v, best) = lab.label(&g, i)?;
            if v.is_some() {
                labelled += 1;
            } else {
                missing += 1;
            }
            g.scores[i] = v;
            g.best[i] = best;
            bar.inc(1);
        }
        // Flushed record by record: a killed job leaves whole records (and at most one
        // torn line, which `merge` drops).
        writeln!(out, "{}", g.to_line())
            .and_then(|_| out.flush())
            .map_err(|e| format!("cannot write {}: {e}", lab.args.out.display()))?;
    }
    bar.finish_and_clear();
    Ok((labelled, missing))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evaluations_of_both_formats() {
        assert_eq!(
            parse_eval("MESSAGE Speed 959K | Depth 7-11 | Eval 36 | Node 959 | Time 1ms"),
            Some(36)
        );
        assert_eq!(
            parse_eval("MESSAGE Depth 21-20 | Eval +M23 | Node 135K"),
            Some(29_977)
        );
        assert_eq!(parse_eval("MESSAGE Eval -M4 | Node 1"), Some(-29_996));
        assert_eq!(
            parse_eval("MESSAGE depth 15-30 ev -61 n 651768 tm 484"),
            Some(-61)
        );
        assert_eq!(
            parse_eval("MESSAGE depth 12-22 ev +M23 n 628792"),
            Some(29_977)
        );
        assert_eq!(parse_eval("MESSAGE Bestline I8 I9 H9"), None);
        assert_eq!(parse_eval("MESSAGE eval x"), None);
        assert_eq!(parse_eval("MESSAGE ev"), None);
    }

    #[test]
    fn board_block_marks_the_side_to_move() {
        let g = GameRecord::parse("freestyle 15x15 black 1 h8 i9 h9 i10", 1).unwrap();
        // Before move 3 (i10, white to move): white's i9 is the only own stone.
        assert_eq!(board_block(&g, 3), "BOARD\n7,7,2\n8,8,1\n7,8,2\nDONE\n");
        // Before move 2 (h9, black to move): black's h8 is own.
        assert_eq!(board_block(&g, 2), "BOARD\n7,7,1\n8,8,2\nDONE\n");
    }
}
