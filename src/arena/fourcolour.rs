//! Four-colour matches: `pbrain-tianyuan match --variant fourcolour --mode M`
//! (`docs/fourcolour.md` §7).
//!
//! **Seats.** A game of mode `M` has `M.players()` seats (2, 3 or 4), seat `s` being player
//! `s` of the mode (seat 0 owns black). With `E` engines (at least 2), game `g` (0-based)
//! gives seat `s` to engine `(s + g) mod E`: the engines rotate through the seats, and with
//! fewer engines than seats an engine sits in several seats (one process each, each seeing
//! only its own requests). Every seat runs its own process, started for the game and ended
//! after it (the first game may use the process that answered `ABOUT`). The games run on
//! the match runner of both variants (`arena::runner`), `--concurrency` at a time.
//!
//! **Requests.** After `START` each process gets `INFO variant fourcolour`, `INFO mode M`,
//! then the usual `INFO` block (`INFO rule 1` when the exact-five option is on, else 0).
//! A move request is `BEGIN` on an empty board, `TURN x,y` when exactly one stone was placed
//! since the seat's previous move, else `BOARD` with every stone as `x,y,c` in play order;
//! each is preceded by `INFO time_left`. Every seat has its own clock.
//!
//! **Judging.** A move off the board or on a stone, a reply that is not a move, a timeout, a
//! crash or a missing `OK` to `START` is a forfeit of that seat (its process is killed).
//! Otherwise the move is judged by [`FourBoard::play_judged`]: a completed structure wins
//! for its owner as `docs/fourcolour.md` §2 decides; a full board is a draw.
//!
//! **Scoring** (per seat; an engine's totals add up its seats):
//! - a win counts for every member of the winning team (win: 1 point), the other seats lose
//!   (0);
//! - a draw gives every seat `1 / teams` points (½ in the two-side modes, ¼ in `ffa`);
//! - a forfeit loses for the offending seat; in the two-side modes the other team wins; in
//!   `ffa` the game ends and the three others share it as a draw (⅓ point each).
//!
//! **Records.** With `--out DIR`: `game-NNNN.fcg` (the text format of
//! `docs/fourcolour.md` §7: mode, size, seats, result, one stone per line with its colour),
//! `game-NNNN.log` (every seat's protocol transcript), `summary.txt` and `results.json`.
//! There is no SGF: SGF has no four-colour game type.

use super::player::Player;
use super::referee::{
    await_move, info_block, send_timed, start_player, write_failed, GameConfig, Termination,
};
use super::results::write_file as write;
use super::runner::{run_games, Referee};
use super::{ArenaError, MatchArgs, MatchConfig};
use crate::core::{Pos, Rule};
use crate::fourcolour::{Color, FourBoard, Mode, Outcome, Player as Seat};
use std::path::Path;
use std::time::Instant;

/// Runs a four-colour match when `--variant` asks for one: `Some(exit status)` (0 done, 2 bad
/// options or an unwritable output directory); `None` for a two-colour match.
pub fn run_if_four(args: &MatchArgs) -> Option<i32> {
    let v = args.variant.trim().to_ascii_lowercase();
    match v.as_str() {
        "standard" => {
            if args.mode != "2p" {
                eprintln!("match: --mode needs --variant fourcolour");
                return Some(2);
            }
            None
        }
        "fourcolour" | "fourcolor" => Some(match FourMatch::from_args(args).and_then(run) {
            Ok(_) => 0,
            Err(e) => {
                eprintln!("match: {e}");
                2
            }
        }),
        _ => {
            eprintln!(
                "match: unknown variant '{}': standard or fourcolour",
                args.variant
            );
            Some(2)
        }
    }
}

/// A checked four-colour match configuration.
#[derive(Clone, Debug)]
pub struct FourMatch {
    /// Engines, board, clock and output as for two-colour matches.
    pub base: MatchConfig,
    /// The ownership mode.
    pub mode: Mode,
    /// Only exact one-colour fives win (from `--rule standard`).
    pub exact_five: bool,
    /// Games to play.
    pub games: usize,
}

impl FourMatch {
    /// Checks the arguments.
    ///
    /// Errors: [`ArenaError::Usage`] for an unknown mode, options of two-colour matches
    /// (`--openings`, `--opening-rule`, `--sprt`, `--draw-200`, `--svg`), a rule other than
    /// freestyle or standard, or a bad common option (see [`MatchConfig::from_args`]).
    pub fn from_args(args: &MatchArgs) -> Result<FourMatch, ArenaError> {
        let usage = |m: String| ArenaError::Usage(m);
        let mode = Mode::parse(&args.mode).ok_or_else(|| {
            usage(format!(
                "unknown mode '{}': 2p, 1v2, 1v3, 2v2 or ffa",
                args.mode
            ))
        })?;
        if args.openings.is_some()
            || args.sprt.is_some()
            || args.draw_200
            || args.opening_rule.is_some()
            || args.svg
        {
            return Err(usage(
                "--openings, --opening-rule, --sprt, --draw-200 and --svg are for two-colour matches"
                    .into(),
            ));
        }
        let exact_five = match args.rule {
            Rule::Freestyle => false,
            Rule::Standard => true,
            r => {
                return Err(usage(format!(
                "four-colour games are freestyle (five or more) or standard (exact five), not {r}"
            )))
            }
        };
        let base = MatchConfig::from_args(args)?;
        let games = args.games.unwrap_or(mode.players().max(base.engines.len()));
        Ok(FourMatch {
            base,
            mode,
            exact_five,
            games,
        })
    }

    /// The engine in seat `seat` of game `game` (0-based): `(seat + game) mod engines`.
    pub fn engine_of(&self, game: usize, seat: Seat) -> usize {
        (seat + game) % self.base.engines.len()
    }
}

/// How a four-colour game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FourResult {
    /// A player completed a winning structure (or had one completed for it): its team wins.
    Win(Seat),
    /// The board filled up.
    Draw,
    /// A seat broke the protocol or the clock.
    Forfeit(Seat),
}

/// One stone of a four-colour record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FourMove {
    /// Where.
    pub pos: Pos,
    /// Its colour.
    pub color: Color,
    /// Thinking time in ms.
    pub time_ms: u64,
}

/// The outcome and record of one game.
#[derive(Clone, Debug)]
pub struct FourRecord {
    /// The result.
    pub result: FourResult,
    /// How it ended (`Five` for a win, `BoardFull` for a draw, else the forfeit).
    pub termination: Termination,
    /// The stones in play order.
    pub moves: Vec<FourMove>,
    /// The transcript: `ms seat dir text` lines of every seat, by time.
    pub log: Vec<String>,
}

/// A seat's result in a game: `'W'`, `'L'` or `'D'` and its points (see the module docs).
pub fn seat_score(mode: Mode, result: &FourResult, seat: Seat) -> (char, f64) {
    match *result {
        FourResult::Win(w) if mode.team(w) == mode.team(seat) => ('W', 1.0),
        FourResult::Win(_) => ('L', 0.0),
        FourResult::Draw => ('D', 1.0 / mode.teams() as f64),
        FourResult::Forfeit(f) if mode.team(f) == mode.team(seat) => ('L', 0.0),
        FourResult::Forfeit(_) if mode.two_sides() => ('W', 1.0),
        FourResult::Forfeit(_) => ('D', 1.0 / (mode.players() - 1) as f64),
    }
}

/// A one-line description of a result, e.g. `player 1 (black+purple) wins: five`.
pub fn result_text(mode: Mode, rec: &FourRecord) -> String {
    match rec.result {
        FourResult::Win(w) => {
            let team = if mode.two_sides() && mode.members(mode.team(w)).len() > 1 {
                format!(" (team {})", mode.team(w) + 1)
            } else {
                String::new()
            };
            format!(
                "{}{} wins: {}",
                mode.describe_player(w),
                team,
                rec.termination.describe()
            )
        }
        FourResult::Draw => format!("draw: {}", rec.termination.describe()),
        FourResult::Forfeit(f) => format!(
            "{} forfeits: {}",
            mode.describe_player(f),
            rec.termination.describe()
        ),
    }
}

/// The `.fcg` text of a game (`docs/fourcolour.md` §7).
pub fn to_fcg(m: &FourMatch, number: usize, names: &[&str], rec: &FourRecord) -> String {
    let mode = m.mode;
    let size = m.base.game.size;
    let mut s = String::from("# Tianyuan four-colour game record\n");
    s.push_str("variant fourcolour\n");
    s.push_str(&format!("game {number}\n"));
    s.push_str(&format!("mode {}\n", mode.name()));
    s.push_str(&format!("size {size}x{size}\n"));
    s.push_str(&format!(
        "exact_five {}\n",
        if m.exact_five { "yes" } else { "no" }
    ));
    for (seat, name) in names.iter().enumerate() {
        let cols: Vec<&str> = mode.colors_of(seat).iter().map(|c| c.name()).collect();
        s.push_str(&format!(
            "seat {} team {} {} {}\n",
            seat + 1,
            mode.team(seat) + 1,
            cols.join("+"),
            name.replace(['\r', '\n'], " ")
        ));
    }
    let code = match rec.result {
        FourResult::Win(w) => format!("win {}", w + 1),
        FourResult::Draw => "draw".to_string(),
        FourResult::Forfeit(f) => format!("forfeit {}", f + 1),
    };
    s.push_str(&format!("result {code}\n"));
    s.push_str(&format!("comment {}\n", result_text(mode, rec)));
    s.push_str("moves\n");
    for (i, mv) in rec.moves.iter().enumerate() {
        s.push_str(&format!(
            "{} {} {} {}\n",
            i + 1,
            mv.color.number(),
            mv.pos.to_notation(),
            mv.time_ms
        ));
    }
    s.push_str("end\n");
    s
}

/// A seat's process and its clock during a game.
struct SeatState<'p> {
    player: &'p mut Player,
    left_ms: i64,
    /// Stones on the board after this seat's last move (`None` before it moved).
    answered: Option<usize>,
}

/// Plays one game with `players[s]` in seat `s` and `extra[s]` their extra `INFO` lines. A
/// seat that forfeits has its process killed.
pub fn play_game(
    m: &FourMatch,
    players: &mut [&mut Player],
    extra: &[&[(String, String)]],
) -> FourRecord {
    let epoch = Instant::now();
    let cfg = &m.base.game;
    let mut seats: Vec<SeatState> = players
        .iter_mut()
        .map(|p| {
            p.start_log(epoch);
            SeatState {
                player: p,
                left_ms: cfg.tc.game_ms as i64,
                answered: None,
            }
        })
        .collect();
    let mut board = FourBoard::new(cfg.size, cfg.size, m.mode, m.exact_five)
        .expect("board size checked by the caller");
    let mut moves = Vec::new();
    let ended = run_game(m, &mut seats, extra, &mut board, &mut moves);
    let (result, termination) = match ended {
        Ok(Outcome::Win(w)) => (FourResult::Win(w), Termination::Five),
        Ok(Outcome::Draw) => (FourResult::Draw, Termination::BoardFull),
        Err((seat, t)) => {
            seats[seat]
                .player
                .note(format!("forfeit: {}", t.describe()));
            seats[seat].player.kill();
            (FourResult::Forfeit(seat), t)
        }
    };
    let mut log = Vec::new();
    for (i, s) in seats.iter_mut().enumerate() {
        for e in s.player.take_log() {
            log.push((
                e.at,
                i,
                format!(
                    "{:>8.1} {} {} {}",
                    e.at.as_secs_f64() * 1000.0,
                    i + 1,
                    e.dir,
                    e.text
                ),
            ));
        }
    }
    log.sort_by_key(|(at, seat, _)| (*at, *seat));
    FourRecord {
        result,
        termination,
        moves,
        log: log.into_iter().map(|(_, _, s)| s).collect(),
    }
}

type Forfeit = (Seat, Termination);

fn run_game(
    m: &FourMatch,
    seats: &mut [SeatState<'_>],
    extra: &[&[(String, String)]],
    board: &mut FourBoard,
    moves: &mut Vec<FourMove>,
) -> Result<Outcome, Forfeit> {
    let cfg = &m.base.game;
    let game_cfg = GameConfig {
        rule: if m.exact_five {
            Rule::Standard
        } else {
            Rule::Freestyle
        },
        ..cfg.clone()
    };
    for (i, s) in seats.iter_mut().enumerate() {
        start_player(s.player, cfg.size, cfg.start_timeout_ms).map_err(|t| (i, t))?;
    }
    for (i, s) in seats.iter_mut().enumerate() {
        let text = format!(
            "INFO variant fourcolour\nINFO mode {}\n{}",
            m.mode.name(),
            info_block(&game_cfg, extra[i])
        );
        s.player
            .send(&text)
            .map_err(|e| (i, write_failed("INFO", e)))?;
    }
    loop {
        let color = board.to_move();
        let seat = m.mode.owner(color);
        let s = &mut seats[seat];
        let request = request_for(board, s.answered);
        let limit = cfg.tc.move_limit_ms(s.left_ms, cfg.tolerance_ms);
        let start =
            send_timed(s.player, &cfg.tc, s.left_ms, &request, "request").map_err(|t| (seat, t))?;
        let (x, y, elapsed_ms) = await_move(s.player, start, limit).map_err(|t| (seat, t))?;
        cfg.tc.charge(&mut s.left_ms, elapsed_ms);
        if !board.contains_xy(x, y) {
            return Err((
                seat,
                Termination::IllegalMove {
                    detail: format!("{x},{y} is off the {0}x{0} board", cfg.size),
                },
            ));
        }
        let pos = Pos::new(x as usize, y as usize);
        if !board.is_empty(pos) {
            return Err((
                seat,
                Termination::IllegalMove {
                    detail: format!("{x},{y} ({pos}) is occupied"),
                },
            ));
        }
        moves.push(FourMove {
            pos,
            color,
            time_ms: elapsed_ms.max(0) as u64,
        });
        let outcome = board.play_judged(pos);
        s.answered = Some(board.stone_count());
        if let Some(o) = outcome {
            return Ok(o);
        }
    }
}

/// The move request for the seat to move (see the module docs).
fn request_for(board: &FourBoard, answered: Option<usize>) -> String {
    let n = board.stone_count();
    if n == 0 {
        return "BEGIN\n".to_string();
    }
    let last = board.last_move();
    if answered.is_some_and(|a| a + 1 == n) || (answered.is_none() && n == 1) {
        return format!("TURN {},{}\n", last.x(), last.y());
    }
    let mut s = String::from("BOARD\n");
    for (i, p) in board.moves().iter().enumerate() {
        s.push_str(&format!(
            "{},{},{}\n",
            p.x(),
            p.y(),
            Color::of_ply(i).number()
        ));
    }
    s.push_str("DONE\n");
    s
}

/// Per-engine totals.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct EngineTotals {
    /// Seats taken (one per game and seat).
    pub seats: u64,
    /// Seats on a winning team.
    pub wins: u64,
    /// Seats that lost.
    pub losses: u64,
    /// Seats with a draw share.
    pub draws: u64,
    /// Points (see the module docs).
    pub points: f64,
    /// Games in which one of the engine's seats was on the winning team.
    pub games_won: u64,
    /// Forfeits by the engine's seats.
    pub forfeits: u64,
}

/// A finished game: the engine in each seat and the record.
pub type SeatedGame = (Vec<usize>, FourRecord);

/// What a finished match reports.
#[derive(Clone, Debug)]
pub struct FourSummary {
    /// Engine names.
    pub names: Vec<String>,
    /// Totals per engine.
    pub totals: Vec<EngineTotals>,
    /// Every game: the engine in each seat and the record.
    pub games: Vec<SeatedGame>,
    /// The summary text as printed.
    pub text: String,
}

impl Referee for FourMatch {
    type Record = FourRecord;
    type Tally = ();

    fn config(&self) -> &MatchConfig {
        &self.base
    }

    fn games(&self) -> usize {
        self.games
    }

    fn seats(&self, game: usize) -> Vec<usize> {
        (0..self.mode.players())
            .map(|s| self.engine_of(game, s))
            .collect()
    }

    fn fresh_processes(&self) -> bool {
        true
    }

    fn header(&self, names: &[String], _workers: usize) -> String {
        let g = &self.base.game;
        format!(
            "Match: {} | fourcolour {} {}x{}{} | tc {}/{}+{} ms, tolerance {} ms | {} games",
            names.join(", "),
            self.mode,
            g.size,
            g.size,
            if self.exact_five { " exact five" } else { "" },
            g.tc.turn_ms,
            g.tc.game_ms,
            g.tc.inc_ms,
            g.tolerance_ms,
            self.games
        )
    }

    fn play(&self, game: usize, players: &mut [&mut Player]) -> FourRecord {
        let extra: Vec<&[(String, String)]> = self
            .seats(game)
            .iter()
            .map(|&e| self.base.engines[e].info.as_slice())
            .collect();
        play_game(self, players, &extra)
    }

    fn unplayed(&self, _game: usize, seat: usize, detail: String) -> FourRecord {
        FourRecord {
            result: FourResult::Forfeit(seat),
            termination: Termination::Crash { detail },
            moves: Vec::new(),
            log: Vec::new(),
        }
    }

    fn forfeit_seat(&self, _game: usize, rec: &FourRecord) -> Option<usize> {
        match rec.result {
            FourResult::Forfeit(seat) => Some(seat),
            _ => None,
        }
    }

    fn add(&self, _: &mut (), _game: usize, _rec: &FourRecord) -> Option<Option<String>> {
        Some(None)
    }

    fn finished_line(&self, names: &[String], game: usize, rec: &FourRecord) -> String {
        format!(
            "Finished game {} ({}): {}",
            game + 1,
            self.seat_names(names, game).join(", "),
            result_text(self.mode, rec)
        )
    }

    fn keep(&self, names: &[String], game: usize, rec: &FourRecord) -> Result<(), ArenaError> {
        match &self.base.out {
            Some(dir) => write_game(self, dir, game + 1, &self.seat_names(names, game), rec),
            None => Ok(()),
        }
    }
}

impl FourMatch {
    fn seat_names<'n>(&self, names: &'n [String], game: usize) -> Vec<&'n str> {
        self.seats(game)
            .iter()
            .map(|&e| names[e].as_str())
            .collect()
    }
}

/// Each engine's totals over the games, in game order.
fn totals_of(mode: Mode, engines: usize, games: &[SeatedGame]) -> Vec<EngineTotals> {
    let mut totals = vec![EngineTotals::default(); engines];
    for (seated, rec) in games {
        let mut won = vec![false; engines];
        for (seat, &e) in seated.iter().enumerate() {
            let (r, pts) = seat_score(mode, &rec.result, seat);
            let t = &mut totals[e];
            t.seats += 1;
            t.points += pts;
            match r {
                'W' => {
                    t.wins += 1;
                    won[e] = true;
                }
                'L' => t.losses += 1,
                _ => t.draws += 1,
            }
            if rec.result == FourResult::Forfeit(seat) {
                t.forfeits += 1;
            }
        }
        for (e, w) in won.iter().enumerate() {
            if *w {
                totals[e].games_won += 1;
            }
        }
    }
    totals
}

/// Plays the whole match (games in `--concurrency` worker threads, each seat in a process
/// of its own started for the game), printing one line per finished game and the summary,
/// and writing the records when `--out` is set.
///
/// Errors: [`ArenaError::Player`] when an engine cannot be started to ask its name;
/// [`ArenaError::Io`] when the output directory or a file in it cannot be written.
pub fn run(m: FourMatch) -> Result<FourSummary, ArenaError> {
    let played = run_games(&m, ())?;
    let names = played.names;
    let games: Vec<SeatedGame> = played
        .games
        .into_iter()
        .enumerate()
        .filter_map(|(g, rec)| Some((m.seats(g), rec?)))
        .collect();
    let totals = totals_of(m.mode, names.len(), &games);
    let mut lines = vec![format!(
        "Games played: {} of {} ({} mode)",
        games.len(),
        m.games,
        m.mode
    )];
    for (name, t) in names.iter().zip(&totals) {
        lines.push(format!(
            "{}: seats {}, wins {}, losses {}, draws {}, points {:.2}/{} ({:.3}), games won {}, forfeits {}",
            name,
            t.seats,
            t.wins,
            t.losses,
            t.draws,
            t.points,
            t.seats,
            if t.seats > 0 { t.points / t.seats as f64 } else { 0.0 },
            t.games_won,
            t.forfeits
        ));
    }
    let text = lines.join("\n");
    println!("{text}");
    if let Some(e) = played.write_error {
        return Err(e);
    }
    if let Some(dir) = &m.base.out {
        write(&dir.join("summary.txt"), &format!("{text}\n"))?;
        write(
            &dir.join("results.json"),
            &results_json(&m, &names, &totals, &games),
        )?;
    }
    Ok(FourSummary {
        names,
        totals,
        games,
        text,
    })
}

/// `results.json`: mode, board, clock, engines with their totals, and every game.
fn results_json(
    m: &FourMatch,
    names: &[String],
    totals: &[EngineTotals],
    games: &[SeatedGame],
) -> String {
    let json = serde_json::json!({
        "variant": "fourcolour",
        "mode": m.mode.name(),
        "size": m.base.game.size,
        "exact_five": m.exact_five,
        "time_control": m.base.game.tc,
        "tolerance_ms": m.base.game.tolerance_ms,
        "engines": names.iter().zip(&m.base.engines).zip(totals).map(|((n, e), t)| {
            serde_json::json!({"name": n, "command": e.command, "totals": t})
        }).collect::<Vec<_>>(),
        "games": games.iter().enumerate().map(|(i, (engines, rec))| {
            let (result, winner) = match rec.result {
                FourResult::Win(w) => ("win", Some(w + 1)),
                FourResult::Draw => ("draw", None),
                FourResult::Forfeit(f) => ("forfeit", Some(f + 1)),
            };
            serde_json::json!({
                "number": i + 1,
                "seats": engines,
                "result": result,
                "player": winner,
                "termination": rec.termination,
                "moves": rec.moves.iter().map(|mv| format!("{}:{}", mv.pos.to_notation(), mv.color.number())).collect::<Vec<_>>(),
                "times_ms": rec.moves.iter().map(|mv| mv.time_ms).collect::<Vec<_>>(),
            })
        }).collect::<Vec<_>>(),
    });
    serde_json::to_string_pretty(&json).unwrap_or_default()
}

fn write_game(
    m: &FourMatch,
    dir: &Path,
    number: usize,
    names: &[&str],
    rec: &FourRecord,
) -> Result<(), ArenaError> {
    let stem = format!("game-{number:04}");
    write(
        &dir.join(format!("{stem}.fcg")),
        &to_fcg(m, number, names, rec),
    )?;
    let mut log = format!("game {number}: {}\n", result_text(m.mode, rec));
    for l in &rec.log {
        log.push_str(l);
        log.push('\n');
    }
    write(&dir.join(format!("{stem}.log")), &log)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seat_scores() {
        let m = Mode::TwoVsTwo;
        assert_eq!(seat_score(m, &FourResult::Win(0), 2), ('W', 1.0));
        assert_eq!(seat_score(m, &FourResult::Win(0), 1), ('L', 0.0));
        assert_eq!(seat_score(m, &FourResult::Draw, 3), ('D', 0.5));
        assert_eq!(seat_score(m, &FourResult::Forfeit(1), 3), ('L', 0.0));
        assert_eq!(seat_score(m, &FourResult::Forfeit(1), 0), ('W', 1.0));
        let f = Mode::FreeForAll;
        assert_eq!(seat_score(f, &FourResult::Draw, 3), ('D', 0.25));
        assert_eq!(seat_score(f, &FourResult::Forfeit(2), 2), ('L', 0.0));
        assert_eq!(seat_score(f, &FourResult::Forfeit(2), 0).0, 'D');
        let t = Mode::OneVsTwo;
        assert_eq!(seat_score(t, &FourResult::Win(2), 1), ('W', 1.0));
        assert_eq!(seat_score(t, &FourResult::Win(2), 0), ('L', 0.0));
    }

    #[test]
    fn requests() {
        let mut b = FourBoard::new(15, 15, Mode::FreeForAll, false).unwrap();
        assert_eq!(request_for(&b, None), "BEGIN\n");
        b.make(Pos::new(7, 7));
        assert_eq!(request_for(&b, None), "TURN 7,7\n");
        b.make(Pos::new(7, 8));
        assert_eq!(request_for(&b, Some(1)), "TURN 7,8\n");
        b.make(Pos::new(8, 8));
        assert_eq!(
            request_for(&b, Some(1)),
            "BOARD\n7,7,1\n7,8,2\n8,8,3\nDONE\n"
        );
        assert_eq!(request_for(&b, None), "BOARD\n7,7,1\n7,8,2\n8,8,3\nDONE\n");
    }
}
