//! Engine-against-engine matches: `pbrain-tianyuan match`.
//!
//! Parts, each in its own module:
//! - [`player`]: one engine process speaking the Piskvork protocol (pipes, a reader thread
//!   that timestamps lines, requests with deadlines, `END` then kill);
//! - [`referee`]: one game between seated players, judged with the project's rules;
//! - [`openings`]: the opening files of `openings/` and plain move lists;
//! - [`record`]: `.psq` and SGF game records;
//! - [`stats`]: Elo, its 95 % interval, LOS and the SPRT;
//! - [`pairs`]: the two games of an opening counted as a pair (the SPRT's default sample);
//! - [`fourcolour`]: four-colour matches for two to four seats (`--variant fourcolour`);
//! - [`judge`]: the Gomocup judge's conditions on Linux (`--judge-conditions`: one CPU,
//!   SIGSTOP when it is not the engine's turn, unique memory against `max_memory`);
//! - `runner`: the match runner of both variants over a `Referee` trait (name probing,
//!   worker threads and their processes, progress, collecting the games in order).
//!
//! This module is the two-colour referee of the runner: it schedules the games and reports. With `E` engines every pair plays `--games`
//! games (a round robin; the usual match is `E = 2`). Game `k` of a pair uses opening
//! `k / 2` (in file order, or shuffled by `--seed`) and gives black to the pair's first engine
//! when `k` is even, so each opening is played twice with colours reversed. `--concurrency`
//! worker threads each own their engine processes and take games from a shared queue; a
//! process is reused from game to game (`START` again, as c-gomoku-cli does) unless it lost
//! by forfeit (then it is killed and started afresh) or `--restart-each-game` is given.
//! Results are credited to engines, not colours. With two engines an SPRT can stop the match
//! early: each worker adds its result to the shared tally before it takes another game, so no
//! game starts after the decision (games already running in other workers finish and count).
//! Games are numbered in schedule order whatever order they finish in.
//!
//! With `--shard K/N` only the shard's block of the schedule is played (the SPRT then stops
//! nothing: it is computed over all the shards by `merge`), and [`shard`] writes one line
//! per game to `shard.txt` in `--out` (docs/cluster.md §2).

mod args;
pub mod fourcolour;
pub mod interrupt;
pub mod judge;
pub mod openings;
pub mod pairs;
pub mod player;
pub mod record;
pub mod referee;
mod results;
mod runner;
pub mod shard;
pub mod stats;

use crate::core::{parse_size, Color, Rule};
use openings::{read_openings, shuffle, Opening, OpeningError};
use player::{EngineSpec, Player, PlayerError};
use referee::{GameConfig, GameRecord, MoveRecord, Termination, TimeControl};
use stats::{SprtDecision, SprtModel, SprtParams, Wld};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use thiserror::Error;

pub use args::{ArenaError, MatchArgs, MatchConfig};
use results::*;
pub use runner::distinguish_names;

/// One scheduled game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job {
    /// 0-based game index over the whole match.
    pub index: usize,
    /// The pair's first engine (results are reported from its side).
    pub a: usize,
    /// The pair's second engine.
    pub b: usize,
    /// Whether `a` plays black.
    pub a_black: bool,
    /// Index into the openings, if any.
    pub opening: Option<usize>,
}

impl Job {
    /// Engine indices of the first and the second player: black and white unless an opening
    /// rule swapped them (see [`Job::colors`]).
    pub fn seats(&self) -> [usize; 2] {
        if self.a_black {
            [self.a, self.b]
        } else {
            [self.b, self.a]
        }
    }

    /// Engine indices of black and white in the game as played: [`Job::seats`], exchanged
    /// when the opening rule gave black to the second player.
    pub fn colors(&self, rec: &GameRecord) -> [usize; 2] {
        let s = self.seats();
        if rec.colors_swapped {
            [s[1], s[0]]
        } else {
            s
        }
    }
}

/// The schedule: round `k` (0-based) has one game per pair `(a, b)`, `a < b`, using opening
/// `(k / 2) % openings` with `a` black when `k` is even.
pub fn schedule(engines: usize, games_per_pair: usize, openings: usize) -> Vec<Job> {
    let pairs: Vec<(usize, usize)> = (0..engines)
        .flat_map(|a| (a + 1..engines).map(move |b| (a, b)))
        .collect();
    let mut jobs = Vec::new();
    for k in 0..games_per_pair {
        for &(a, b) in &pairs {
            let opening = (openings > 0).then(|| (k / 2) % openings);
            jobs.push(Job {
                index: jobs.len(),
                a,
                b,
                a_black: k % 2 == 0,
                opening,
            });
        }
    }
    jobs
}

/// Results of one pair, from the first engine's side.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PairResult {
    /// First engine (index).
    pub a: usize,
    /// Second engine (index).
    pub b: usize,
    /// Wins, losses, draws of `a` against `b`.
    pub wld: Wld,
    /// The part of `wld` from the games in which `a` played black (issue 52: a colour gap
    /// shows at once).
    pub a_black: Wld,
    /// The finished pairs of colour-reversed games, by `a`'s points ([`pairs`]).
    #[serde(skip)]
    pub pairing: pairs::Pairing,
}

impl PairResult {
    /// The empty result of engines `a` and `b`.
    pub fn new(a: usize, b: usize) -> PairResult {
        PairResult {
            a,
            b,
            wld: Wld::default(),
            a_black: Wld::default(),
            pairing: pairs::Pairing::default(),
        }
    }

    /// Counts game `k` (0-based, among this pair's games in schedule order) of the pair:
    /// `a_won` as in [`Wld::count`], `a_black` when `a` played black.
    pub fn record(&mut self, k: usize, a_won: Option<bool>, a_black: bool) {
        self.wld.count(a_won);
        if a_black {
            self.a_black.count(a_won);
        }
        self.pairing.add(k, pairs::half_points(a_won));
    }

    /// The finished pairs of games.
    pub fn penta(&self) -> &pairs::Penta {
        &self.pairing.penta
    }

    /// What the SPRT reads of these results: the games or the pairs, as its model says.
    pub fn sprt_sample(&self, sprt: &SprtParams) -> &dyn stats::Sample {
        match sprt.model {
            SprtModel::Trinomial => &self.wld,
            SprtModel::Pentanomial => self.penta(),
        }
    }

    /// The colour line of the summary: each engine's results as black and as white.
    pub fn colour_line(&self, names: &[String]) -> String {
        let a_white = self.wld.minus(&self.a_black);
        format!(
            "By colour: {} black {}, white {}; {} black {}, white {}",
            names[self.a],
            self.a_black.short(),
            a_white.short(),
            names[self.b],
            a_white.flipped().short(),
            self.a_black.flipped().short()
        )
    }
}

/// What a finished match reports.
#[derive(Clone, Debug)]
pub struct MatchSummary {
    /// Engine names (from `ABOUT`, or the executable names).
    pub names: Vec<String>,
    /// One entry per pair.
    pub pairs: Vec<PairResult>,
    /// Games played.
    pub games_played: usize,
    /// Games scheduled.
    pub games_scheduled: usize,
    /// The SPRT's decision, if one was run.
    pub sprt: Option<SprtDecision>,
    /// Forfeit losses per engine.
    pub forfeits: Vec<u64>,
    /// The summary text as printed.
    pub text: String,
    /// Whether Ctrl-C stopped the match (the counts cover the games finished before it).
    pub interrupted: bool,
}

/// Results so far. The workers add each game before they take the next one, so that an
/// SPRT decision stops the queue at once.
#[derive(Default)]
struct Tally {
    pairs: Vec<PairResult>,
    forfeits: Vec<u64>,
    played: usize,
    sprt_decision: Option<SprtDecision>,
}

impl Tally {
    fn new(engines: usize) -> Tally {
        Tally {
            pairs: (0..engines)
                .flat_map(|a| (a + 1..engines).map(move |b| PairResult::new(a, b)))
                .collect(),
            forfeits: vec![0; engines],
            played: 0,
            sprt_decision: None,
        }
    }

    /// Credits a game to the engines; returns `None` when it was not counted (after an
    /// interruption nothing is credited any more: the games then in progress were cut short),
    /// else `Some` of the SPRT line if this game made the SPRT decide.
    fn add(
        &mut self,
        job: &Job,
        rec: &GameRecord,
        sprt: Option<&SprtParams>,
    ) -> Option<Option<String>> {
        if interrupted() {
            return None;
        }
        Some(self.credit(job, rec, sprt))
    }

    fn credit(&mut self, job: &Job, rec: &GameRecord, sprt: Option<&SprtParams>) -> Option<String> {
        self.played += 1;
        let engine_pairs = self.pairs.len();
        let seats = job.colors(rec);
        let pr = self
            .pairs
            .iter_mut()
            .find(|p| (p.a, p.b) == (job.a, job.b))
            .expect("scheduled pair");
        let a_won = rec.winner.map(|c| seats[c.index()] == job.a);
        let k = job.index / engine_pairs;
        pr.record(k, a_won, seats[Color::Black.index()] == job.a);
        if rec.termination.is_forfeit() {
            if let Some(l) = rec.loser() {
                self.forfeits[seats[l.index()]] += 1;
            }
        }
        let sprt = sprt?;
        if self.sprt_decision.is_some() {
            return None;
        }
        let sample = self.pairs[0].sprt_sample(sprt);
        let d = sprt.decision(sample);
        let line = sprt.line(sample);
        (d != SprtDecision::Continue).then(|| {
            self.sprt_decision = Some(d);
            format!("SPRT decided after {} games: {line}", self.played)
        })
    }
}

pub use interrupt::interrupted;

/// Exit status of a match interrupted by Ctrl-C (128 + SIGINT, as shells report it); SIGTERM
/// gives 143 and SIGHUP 129 ([`interrupt::exit_status`]).
pub const EXIT_INTERRUPTED: i32 = 130;

/// Runs `pbrain-tianyuan match`; returns the process exit code: 0 when the match completed
/// (or the SPRT stopped it), 128 + the signal after Ctrl-C, SIGTERM or SIGHUP
/// ([`EXIT_INTERRUPTED`] for Ctrl-C; the summary of the finished games is still printed and
/// written, the engines ended; a second signal exits at once), 2 for bad options, an
/// engine that cannot be started, an unusable openings file or an unwritable output
/// directory.
pub fn run(args: MatchArgs) -> i32 {
    if args.shard.is_some() && !args.variant.trim().eq_ignore_ascii_case("standard") {
        eprintln!(
            "match: --shard plays two-colour matches only (not --variant {})",
            args.variant
        );
        return 2;
    }
    interrupt::catch_signals();
    if let Some(code) = fourcolour::run_if_four(&args) {
        return interrupt::exit_status().unwrap_or(code);
    }
    let result = MatchConfig::from_args(&args).and_then(|cfg| {
        for w in &cfg.warnings {
            eprintln!("match: warning: {w}");
        }
        run_match(cfg)
    });
    match result {
        Ok(s) if s.interrupted => interrupt::exit_status().unwrap_or(EXIT_INTERRUPTED),
        Ok(_) => 0,
        Err(e) => {
            eprintln!("match: {e}");
            2
        }
    }
}

/// The two-colour referee: the round-robin schedule (or a shard's block of it) played with
/// [`referee::play_game`], credited to the [`Tally`], written as `.psq`, SGF, log (and SVG)
/// files and, with `--shard`, one line each in `shard.txt`.
struct TwoColour {
    cfg: MatchConfig,
    jobs: Vec<Job>,
    /// The number of games in the whole schedule (more than `jobs` in a shard).
    scheduled: usize,
    shard_log: Mutex<Option<shard::ShardLog>>,
}

impl runner::Referee for TwoColour {
    type Record = GameRecord;
    type Tally = Tally;

    fn config(&self) -> &MatchConfig {
        &self.cfg
    }

    fn games(&self) -> usize {
        self.jobs.len()
    }

    fn seats(&self, game: usize) -> Vec<usize> {
        self.jobs[game].seats().to_vec()
    }

    fn begin(&self, names: &[String]) -> Result<(), ArenaError> {
        if let Some(sh) = self.cfg.shard {
            let log = shard::ShardLog::create(&self.cfg, names, sh, self.scheduled)?;
            *self.shard_log.lock().unwrap_or_else(|e| e.into_inner()) = Some(log);
        }
        Ok(())
    }

    fn header(&self, names: &[String], workers: usize) -> String {
        let cfg = &self.cfg;
        let tc = cfg.game.tc;
        let header = format!(
            "Match: {} | {} {}x{} | tc {}/{}+{} ms, tolerance {} ms | {} games{} | concurrency {}",
            names.join(" vs "),
            cfg.game.rule,
            cfg.game.size,
            cfg.game.size,
            tc.turn_ms,
            tc.game_ms,
            tc.inc_ms,
            cfg.game.tolerance_ms,
            self.jobs.len(),
            match (&cfg.game.opening_rule, cfg.openings.is_empty()) {
                (Some(p), _) => format!(", opening rule {}", p.rule),
                (None, true) => String::new(),
                (None, false) => format!(", {} openings", cfg.openings.len()),
            },
            workers
        );
        let header = match cfg.shard {
            Some(sh) => {
                let r = sh.range(self.scheduled);
                format!(
                    "{header} | shard {sh}: games {}..={} of {}",
                    r.start + 1,
                    r.end,
                    self.scheduled
                )
            }
            None => header,
        };
        match repeat_note(cfg.games_per_pair, cfg.openings.len()) {
            Some(note) if cfg.game.opening_rule.is_none() => format!("{header}\n{note}"),
            _ => header,
        }
    }

    fn play(&self, game: usize, players: &mut [&mut Player]) -> GameRecord {
        let job = self.jobs[game];
        let seats = job.seats();
        let [pb, pw] = players else {
            unreachable!("a two-colour game has two seats")
        };
        let infos = [
            self.cfg.engines[seats[0]].info.as_slice(),
            self.cfg.engines[seats[1]].info.as_slice(),
        ];
        referee::play_game([pb, pw], infos, &self.cfg.game, self.opening(&job))
    }

    fn unplayed(&self, game: usize, seat: usize, detail: String) -> GameRecord {
        unplayed(seat, detail, self.opening(&self.jobs[game]))
    }

    fn forfeit_seat(&self, game: usize, rec: &GameRecord) -> Option<usize> {
        if !rec.termination.is_forfeit() {
            return None;
        }
        let job = &self.jobs[game];
        let engine = job.colors(rec)[rec.loser()?.index()];
        job.seats().iter().position(|&e| e == engine)
    }

    fn add(&self, tally: &mut Tally, game: usize, rec: &GameRecord) -> Option<Option<String>> {
        // A shard's SPRT stops nothing: `merge` runs it over all the shards' games.
        let sprt = self.cfg.sprt.as_ref().filter(|_| self.cfg.shard.is_none());
        tally.add(&self.jobs[game], rec, sprt)
    }

    fn finished_line(&self, names: &[String], game: usize, rec: &GameRecord) -> String {
        let job = &self.jobs[game];
        let seats = job.colors(rec);
        let opening = job.opening.map(|i| self.cfg.openings[i].name.as_str());
        format!(
            "Finished game {} ({} vs {}{}): {}",
            job.index + 1,
            names[seats[0]],
            names[seats[1]],
            opening
                .map(|o| format!(", opening {o}"))
                .unwrap_or_default(),
            record::result_phrase(rec)
        )
    }

    fn progress(&self, names: &[String], tally: &Tally) -> String {
        let p0 = &tally.pairs[0];
        format!(
            "{} vs {}: {} - {} - {}",
            names[p0.a], names[p0.b], p0.wld.wins, p0.wld.losses, p0.wld.draws
        )
    }

    fn keep(&self, names: &[String], game: usize, rec: &GameRecord) -> Result<(), ArenaError> {
        let job = &self.jobs[game];
        if let Some(dir) = &self.cfg.out {
            write_game(dir, &self.cfg, names, job, rec)?;
        }
        let mut log = self.shard_log.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(log) = log.as_mut() {
            log.push(&self.cfg, job, rec)?;
        }
        Ok(())
    }
}

impl TwoColour {
    fn opening(&self, job: &Job) -> &[crate::core::Pos] {
        job.opening
            .map(|o| self.cfg.openings[o].moves.as_slice())
            .unwrap_or(&[])
    }
}

/// The note printed under the header when a pair plays more games than its openings give
/// (each opening is played twice, once with each colour, then the schedule starts again):
/// at a fixed node count the engines are deterministic and the later games copy earlier ones,
/// so they add no information to the score. `None` when every game has its own opening and
/// colours, or without openings.
pub fn repeat_note(games_per_pair: usize, openings: usize) -> Option<String> {
    let distinct = 2 * openings;
    (openings > 0 && games_per_pair > distinct).then(|| {
        format!(
            "note: {} openings give {distinct} distinct games a pair; games {}..={games_per_pair} \
             replay them with the same colours (at a fixed node count, as copies)",
            openings,
            distinct + 1
        )
    })
}

/// Plays a whole match, printing progress and the summary on stdout and writing the records
/// when an output directory is set.
///
/// Errors: [`ArenaError::Player`] if an engine cannot be started at the beginning;
/// [`ArenaError::Io`] if the output directory or a file in it cannot be written.
pub fn run_match(cfg: MatchConfig) -> Result<MatchSummary, ArenaError> {
    let engine_count = cfg.engines.len();
    let mut jobs = schedule(engine_count, cfg.games_per_pair, cfg.openings.len());
    let scheduled = jobs.len();
    if let Some(sh) = cfg.shard {
        jobs = jobs.drain(sh.range(scheduled)).collect();
    }
    let total = jobs.len();
    let two = TwoColour {
        cfg,
        jobs,
        scheduled,
        shard_log: Mutex::new(None),
    };
    let played = runner::run_games(&two, Tally::new(engine_count))?;
    let cfg = &two.cfg;
    let tally = played.tally;
    let names = played.names;
    let mut text = summary_text(cfg, &names, &tally, total);
    if played.interrupted {
        text = format!(
            "Match interrupted ({}) after {} finished games; games in progress are not counted\n{text}",
            interrupt::signal_name().unwrap_or("Ctrl-C"),
            tally.played
        );
    }
    println!("{text}");
    let summary = MatchSummary {
        names,
        pairs: tally.pairs,
        games_played: tally.played,
        games_scheduled: total,
        sprt: cfg
            .sprt
            .map(|_| tally.sprt_decision.unwrap_or(SprtDecision::Continue)),
        forfeits: tally.forfeits,
        text,
        interrupted: played.interrupted,
    };
    if let Some(e) = played.write_error {
        return Err(e);
    }
    // The end line says the shard finished: not after Ctrl-C.
    let log = two
        .shard_log
        .into_inner()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(log) = log {
        if !played.interrupted {
            log.finish()?;
        }
    }
    if let Some(dir) = &cfg.out {
        write_file(&dir.join("summary.txt"), &format!("{}\n", summary.text))?;
        let games: Vec<(&Job, &GameRecord)> = two
            .jobs
            .iter()
            .zip(&played.games)
            .filter_map(|(job, rec)| Some((job, rec.as_ref()?)))
            .collect();
        let json = results_json(cfg, &summary, &games);
        write_file(&dir.join("results.json"), &json)?;
    }
    Ok(summary)
}

/// The record of a game that could not start because an engine could not be started: that
/// engine (seat 0 black, 1 white) loses.
fn unplayed(seat: usize, detail: String, opening: &[crate::core::Pos]) -> GameRecord {
    let loser = if seat == 0 {
        Color::Black
    } else {
        Color::White
    };
    let moves = opening
        .iter()
        .enumerate()
        .map(|(i, &pos)| MoveRecord {
            pos,
            color: if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            },
            time_ms: 0,
            opening: true,
        })
        .collect();
    GameRecord {
        winner: Some(loser.opponent()),
        termination: Termination::Crash { detail },
        moves,
        log: Vec::new(),
        colors_swapped: false,
        decisions: Vec::new(),
    }
}

/// The summary printed at the end (and written to `summary.txt`). For each pair: the exact
/// `Score of A vs B: W - L - D` line, then the Elo line, then score, draws, forfeits and the
/// SPRT; with more than two engines a points table follows.
fn summary_text(cfg: &MatchConfig, names: &[String], tally: &Tally, total: usize) -> String {
    summary_of(
        cfg.sprt.as_ref(),
        names,
        &tally.pairs,
        &tally.forfeits,
        tally.played,
        total,
    )
}

/// The summary text (see [`summary_text`]) of `played` of `total` games with these results:
/// `pairs` from each first engine's side, `forfeits` per engine (`merge` prints it too).
pub(crate) fn summary_of(
    sprt: Option<&SprtParams>,
    names: &[String],
    pairs: &[PairResult],
    forfeits: &[u64],
    played: usize,
    total: usize,
) -> String {
    let mut out = Vec::new();
    out.push(format!("Games played: {played} of {total}"));
    for pr in pairs {
        let w = &pr.wld;
        out.push(format!(
            "Score of {} vs {}: {} - {} - {}",
            names[pr.a], names[pr.b], w.wins, w.losses, w.draws
        ));
        out.push(stats::elo_line(w));
        out.push(pr.colour_line(names));
        let n = w.games();
        if n > 0 {
            out.push(format!(
                "Points: {:.1}/{} ({:.3}), draws {:.1} %",
                w.points(),
                n,
                w.score().unwrap_or(0.0),
                100.0 * w.draws as f64 / n as f64
            ));
        }
        out.push(format!(
            "Forfeit losses: {} {}, {} {}",
            names[pr.a], forfeits[pr.a], names[pr.b], forfeits[pr.b]
        ));
        out.extend(pr.penta().line());
        if let Some(s) = sprt {
            out.push(s.line(pr.sprt_sample(s)));
        }
    }
    if names.len() > 2 {
        let mut pts: Vec<(f64, u64, usize)> = (0..names.len()).map(|i| (0.0, 0, i)).collect();
        for pr in pairs {
            pts[pr.a].0 += pr.wld.points();
            pts[pr.b].0 += pr.wld.flipped().points();
            pts[pr.a].1 += pr.wld.games();
            pts[pr.b].1 += pr.wld.games();
        }
        pts.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.2.cmp(&y.2)));
        out.push("Rank Name                 Points  Games".to_string());
        for (rank, (p, g, i)) in pts.iter().enumerate() {
            out.push(format!(
                "{:>4} {:<20} {:>6.1} {:>6}",
                rank + 1,
                names[*i],
                p,
                g
            ));
        }
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_line_splits_each_engine_by_colour() {
        let mut pr = PairResult::new(0, 1);
        // A wins twice as black, draws once as black; loses once and wins once as white.
        for (k, (won, black)) in [
            (Some(true), true),
            (Some(true), true),
            (None, true),
            (Some(false), false),
            (Some(true), false),
        ]
        .into_iter()
        .enumerate()
        {
            pr.record(k, won, black);
        }
        assert_eq!((pr.wld.wins, pr.wld.losses, pr.wld.draws), (3, 1, 1));
        let names = vec!["A".to_string(), "B".to_string()];
        assert_eq!(
            pr.colour_line(&names),
            "By colour: A black 2 - 0 - 1 (0.833), white 1 - 1 - 0 (0.500); \
             B black 1 - 1 - 0 (0.500), white 0 - 2 - 1 (0.167)"
        );
        let empty = PairResult::new(0, 1).colour_line(&names);
        assert!(empty.contains("A black 0 - 0 - 0 (-)"), "{empty}");
    }

    #[test]
    fn repeat_note_starts_where_the_schedule_repeats() {
        let jobs = schedule(2, 5, 2);
        // Game 5 (index 4) has the opening and colours of game 1.
        assert_eq!(
            (jobs[4].a_black, jobs[4].opening),
            (jobs[0].a_black, jobs[0].opening)
        );
        let note = repeat_note(5, 2).expect("game 5 repeats game 1");
        assert!(note.contains("2 openings give 4 distinct games"), "{note}");
        assert!(note.contains("games 5..=5"), "{note}");
        assert_eq!(repeat_note(4, 2), None);
        assert_eq!(repeat_note(200, 0), None);
        assert!(repeat_note(200, 64).unwrap().contains("games 129..=200"));
    }

    #[test]
    fn schedule_reverses_colours_per_opening() {
        let jobs = schedule(2, 5, 2);
        let v: Vec<(bool, Option<usize>)> = jobs.iter().map(|j| (j.a_black, j.opening)).collect();
        assert_eq!(
            v,
            [
                (true, Some(0)),
                (false, Some(0)),
                (true, Some(1)),
                (false, Some(1)),
                (true, Some(0))
            ]
        );
        assert_eq!(jobs[1].seats(), [1, 0]);
        let rr = schedule(3, 2, 0);
        let pairs: Vec<(usize, usize, bool)> = rr.iter().map(|j| (j.a, j.b, j.a_black)).collect();
        assert_eq!(
            pairs,
            [
                (0, 1, true),
                (0, 2, true),
                (1, 2, true),
                (0, 1, false),
                (0, 2, false),
                (1, 2, false)
            ]
        );
        assert!(rr
            .iter()
            .enumerate()
            .all(|(i, j)| j.index == i && j.opening.is_none()));
    }

    #[test]
    fn equal_names_get_engine_numbers() {
        let mut names: Vec<String> = ["Tianyuan", "Other", "Tianyuan"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        distinguish_names(&mut names);
        assert_eq!(names, ["Tianyuan-1", "Other", "Tianyuan-3"]);
        let mut distinct = vec!["a".to_string(), "b".to_string()];
        distinguish_names(&mut distinct);
        assert_eq!(distinct, ["a", "b"]);
    }

    fn args(extra: &[&str]) -> MatchArgs {
        use clap::Parser;
        #[derive(clap::Parser)]
        struct T {
            #[command(flatten)]
            m: MatchArgs,
        }
        let mut v = vec!["t", "--engine", "a b", "--engine", "'c d' e"];
        v.extend_from_slice(extra);
        T::try_parse_from(v).expect("parse").m
    }

    #[test]
    fn config_from_args() {
        let c = MatchConfig::from_args(&args(&[
            "--threads",
            "2",
            "--engine-option",
            "2:hash_size=1024",
            "--engine-option",
            "caution_factor=3",
            "--rule",
            "renju",
            "--name",
            "2:Other",
        ]))
        .unwrap();
        assert_eq!(c.engines[0].name, None);
        assert_eq!(c.engines[1].name.as_deref(), Some("Other"));
        assert_eq!(c.engines[1].program, "c d");
        assert_eq!(c.engines[1].args, ["e"]);
        let kv = |e: &EngineSpec| {
            e.info
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
        };
        assert_eq!(kv(&c.engines[0]), ["thread_num=2", "caution_factor=3"]);
        assert_eq!(
            kv(&c.engines[1]),
            ["thread_num=2", "hash_size=1024", "caution_factor=3"]
        );
        assert_eq!(c.game.rule, Rule::Renju);
        assert_eq!(c.game.max_memory_bytes, 367_001_600);
        assert_eq!(c.games_per_pair, 2);
        assert!(MatchConfig::from_args(&args(&["--engine-option", "3:x=1"])).is_err());
        assert!(MatchConfig::from_args(&args(&["--engine-option", "novalue"])).is_err());
        assert!(MatchConfig::from_args(&args(&["--size", "30"])).is_err());
        assert!(MatchConfig::from_args(&args(&["--sprt", "0,5,0.05"])).is_err());
        assert!(MatchConfig::from_args(&args(&["--games", "0"])).is_err());
        assert!(MatchConfig::from_args(&args(&["--name", "3:x"])).is_err());
        assert!(MatchConfig::from_args(&args(&["--name", "x"])).is_err());
        let three = args(&["--engine", "x", "--sprt", "0,5,0.05,0.05"]);
        assert!(matches!(
            MatchConfig::from_args(&three),
            Err(ArenaError::Usage(_))
        ));
    }
}
