//! The referee: plays one game between engine processes and judges every move with the
//! project's rules ([`Board`]).
//!
//! What loses (docs/protocol.md §4.3 and §5.3):
//! - a move that is off the board, on an occupied point, or not a move line at all;
//! - black's renju foul (double three, double four, overline), judged at once;
//! - a move later than `tolerance + min(turn limit, match time left)` after its request was
//!   written (Judge's rule; the limits left out when they are 0 = unlimited);
//! - a crash: the engine's output closes or its input cannot be written;
//! - no `OK` to `START` within the start timeout.
//!
//! What wins: a five as the rule defines it (`Board::result_of_move`: exact five for
//! standard and renju black, caro's blocked-five rule). A full board is a draw, and with
//! [`GameConfig::draw_200`] a renju game is drawn once 200 stones are on the board (Judge).
//!
//! How the position is delivered (docs/protocol.md §5.2): each engine's first move request is
//! `BOARD` with every stone so far (field 1 for its own stones), except that an empty board is
//! sent as `BEGIN` and, without an opening, the second player's first request is
//! `TURN x,y`; after that each request is `TURN` with the opponent's last move. Every request
//! is preceded by `INFO time_left`.
//!
//! Seats: `players[0]` is the first player, who holds black unless an opening rule
//! ([`GameConfig::opening_rule`], docs/openings.md §6) gives the colours the other way round;
//! the opening dialogue is in [`opening_phase`]. A later variant with more colours needs only
//! a longer seat array and its own win rule.

pub mod opening_phase;

use super::judge;
use super::player::{board_request, MoveReply, Player, Reply};
use crate::board::{Board, ForbiddenKind, GameResult};
use crate::core::{Color, Pos, Rule};
use std::time::{Duration, Instant};

/// `time_left` sent when the match clock is unlimited (docs/protocol.md §2.4).
pub const UNLIMITED_TIME_LEFT: i64 = 2_147_483_647;
/// Stones on the board at which `--draw-200` ends a renju game.
pub const RENJU_DRAW_STONES: usize = 200;

/// Time control in milliseconds; 0 means no limit (for the increment: none).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct TimeControl {
    /// Limit for one move (`INFO timeout_turn`; not sent when 0).
    pub turn_ms: u64,
    /// Limit for all of one engine's moves in a game (`INFO timeout_match`, 0 = none).
    pub game_ms: u64,
    /// Added to the engine's match clock after each of its moves (Fischer), and announced
    /// with `INFO time_increment` when non-zero.
    pub inc_ms: u64,
}

impl TimeControl {
    /// The time limit for a move request, tolerance included: `tolerance + min(turn, left)`
    /// over the limits in force, or `None` when neither the move nor the game is limited.
    /// `left` may be negative after an overrun within the tolerance.
    pub fn move_limit_ms(&self, left_ms: i64, tolerance_ms: u64) -> Option<i64> {
        let turn = (self.turn_ms > 0).then_some(self.turn_ms as i64);
        let game = (self.game_ms > 0).then_some(left_ms);
        let base = match (turn, game) {
            (None, None) => return None,
            (Some(t), None) => t,
            (None, Some(l)) => l,
            (Some(t), Some(l)) => t.min(l),
        };
        Some(base + tolerance_ms as i64)
    }

    /// Charges a move's `elapsed_ms` to a match clock with `left_ms` left: with a game
    /// limit the time is taken off and the increment added; without one nothing changes.
    pub fn charge(&self, left_ms: &mut i64, elapsed_ms: i64) {
        if self.game_ms > 0 {
            *left_ms = *left_ms - elapsed_ms + self.inc_ms as i64;
        }
    }
}

/// Writes `START size` to `p` and waits up to `timeout_ms` for its `OK`; else how the
/// player forfeits (a write error or a closed pipe is a crash, another answer or none a
/// failed start).
pub(super) fn start_player(
    p: &mut Player,
    size: usize,
    timeout_ms: u64,
) -> Result<(), Termination> {
    let start = p
        .send(&format!("START {size}\n"))
        .map_err(|e| write_failed("START", e))?;
    match p.read_reply(start, Duration::from_millis(timeout_ms)) {
        Reply::Line(l, _) if l == "OK" => Ok(()),
        Reply::Line(l, _) => Err(Termination::StartFailed {
            detail: format!("answered '{}'", shorten(&l, 60)),
        }),
        Reply::Timeout => Err(Termination::StartFailed {
            detail: format!("no answer in {timeout_ms} ms"),
        }),
        Reply::Closed => Err(Termination::Crash {
            detail: format!("at START: {}", p.exit_text()),
        }),
    }
}

/// Writes a timed request to `p`: `INFO time_left` (the match clock `left_ms`, or
/// [`UNLIMITED_TIME_LEFT`] without a game limit), then `text`; returns when `text` was
/// written. A write error is a crash, named after `label`.
pub(super) fn send_timed(
    p: &mut Player,
    tc: &TimeControl,
    left_ms: i64,
    text: &str,
    label: &str,
) -> Result<Instant, Termination> {
    let time_left = if tc.game_ms > 0 {
        left_ms
    } else {
        UNLIMITED_TIME_LEFT
    };
    p.send(&format!("INFO time_left {time_left}\n"))
        .map_err(|e| write_failed("INFO time_left", e))?;
    p.send(text).map_err(|e| write_failed(label, e))
}

/// The crash of a player whose pipe could not take `what`.
pub(super) fn write_failed(what: &str, e: std::io::Error) -> Termination {
    Termination::Crash {
        detail: format!("cannot write {what}: {e}"),
    }
}

/// Waits for the move answering a request written to `p` at `start`, within `limit`
/// milliseconds (`None`: no limit). A limit at or below zero (the match clock overran within
/// the tolerance) still gets an instant to answer: the reply is judged by its own timestamp.
/// Returns the point as sent (not yet checked against the board) and the milliseconds taken;
/// else how the player forfeits. A timeout kills the process, so that its late answer cannot
/// be read as the answer to a later request.
pub(super) fn await_move(
    p: &mut Player,
    start: Instant,
    limit: Option<i64>,
) -> Result<(i64, i64, i64), Termination> {
    let limit_dur = limit.map(|l| Duration::from_millis(l.max(0) as u64));
    match p.read_move(start, limit_dur) {
        MoveReply::Move { x, y, elapsed } => Ok((x, y, elapsed.as_millis() as i64)),
        MoveReply::Garbage(line, _) => Err(Termination::Garbage { line }),
        MoveReply::Timeout(_) => {
            p.kill();
            Err(Termination::Timeout {
                limit_ms: limit.unwrap_or(0),
            })
        }
        MoveReply::Crash(detail) => Err(Termination::Crash { detail }),
    }
}

/// Everything the referee needs to know about a game besides the players.
#[derive(Clone, Debug)]
pub struct GameConfig {
    /// Board side (square boards).
    pub size: usize,
    /// The rule judged and announced with `INFO rule`.
    pub rule: Rule,
    /// The clock.
    pub tc: TimeControl,
    /// Tolerance in ms added to every move limit (docs/protocol.md §1.6, default 1000).
    pub tolerance_ms: u64,
    /// How long an engine may take to answer `START` with `OK`, in ms (not on any clock).
    pub start_timeout_ms: u64,
    /// `INFO max_memory` in bytes (0 = no limit).
    pub max_memory_bytes: u64,
    /// Draw a renju game once [`RENJU_DRAW_STONES`] stones are on the board.
    pub draw_200: bool,
    /// An opening rule played through the protocol before normal play (docs/openings.md §6);
    /// `None`: the game starts from the opening stones as given.
    pub opening_rule: Option<opening_phase::OpeningPlan>,
    /// Play under the Gomocup judge's conditions (`--judge-conditions`): each engine is
    /// suspended after its `INFO` block and after each of its moves, and its unique memory
    /// is checked against `max_memory` after each move ([`judge`]; the runner pins it to
    /// one CPU).
    pub judge: bool,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Termination {
    /// The winner made a five under the rule.
    Five,
    /// Black played a renju forbidden point.
    Foul {
        /// `double-three`, `double-four` or `overline`.
        forbidden: String,
    },
    /// The loser played off the board or on an occupied point.
    IllegalMove {
        /// What was played and why it is illegal.
        detail: String,
    },
    /// The loser answered with a line that is not a move.
    Garbage {
        /// The line.
        line: String,
    },
    /// The loser took longer than its limit.
    Timeout {
        /// The limit (tolerance included), in ms.
        limit_ms: i64,
    },
    /// The loser's process died or closed its pipes.
    Crash {
        /// When and how.
        detail: String,
    },
    /// The loser did not answer `START` with `OK`.
    StartFailed {
        /// What it answered, if anything.
        detail: String,
    },
    /// Under the judge's conditions, the loser's unique memory after a move was over
    /// `max_memory`.
    Memory {
        /// Its unique memory, in bytes.
        bytes: u64,
        /// `max_memory`, in bytes.
        limit: u64,
    },
    /// Board full, no winner.
    BoardFull,
    /// Renju draw at 200 stones.
    Draw200,
}

impl Termination {
    /// Whether the loser lost by breaking the protocol or the clock rather than on the board
    /// (such an engine is restarted before its next game).
    pub fn is_forfeit(&self) -> bool {
        matches!(
            self,
            Termination::IllegalMove { .. }
                | Termination::Garbage { .. }
                | Termination::Timeout { .. }
                | Termination::Crash { .. }
                | Termination::StartFailed { .. }
                | Termination::Memory { .. }
        )
    }

    /// A short phrase for result lines, e.g. `loses on time (limit 1500 ms)`.
    pub fn describe(&self) -> String {
        match self {
            Termination::Five => "five".to_string(),
            Termination::Foul { forbidden } => format!("renju foul ({forbidden})"),
            Termination::IllegalMove { detail } => format!("illegal move ({detail})"),
            Termination::Garbage { line } => format!("unparsable reply '{}'", shorten(line, 60)),
            Termination::Timeout { limit_ms } => format!("time forfeit (limit {limit_ms} ms)"),
            Termination::Crash { detail } => format!("crash ({detail})"),
            Termination::StartFailed { detail } => format!("no OK to START ({detail})"),
            Termination::Memory { bytes, limit } => format!(
                "unique memory {:.1} MiB over max_memory {:.1} MiB",
                mib(*bytes),
                mib(*limit)
            ),
            Termination::BoardFull => "board full".to_string(),
            Termination::Draw200 => "200 stones (renju draw)".to_string(),
        }
    }
}

fn mib(bytes: u64) -> f64 {
    bytes as f64 / (1u64 << 20) as f64
}

/// Under the judge's conditions, suspends `p` when it has nothing to do (after its `INFO`
/// block); a crash if it has already gone.
fn judge_suspend(p: &mut Player) -> Result<(), Termination> {
    p.suspend().map_err(|e| Termination::Crash {
        detail: format!("cannot be suspended: {e} ({})", p.exit_text()),
    })
}

/// Under the judge's conditions, after a move of `p`: suspends it, measures its unique
/// memory (noted in the transcript as `judge: unique memory N bytes`) and checks it against
/// `max_memory` (0: no limit). Returns the bytes; else how it forfeits.
fn judge_after_move(p: &mut Player, max_memory: u64) -> Result<u64, Termination> {
    judge_suspend(p)?;
    let bytes = judge::unique_memory(p.pid()).map_err(|e| Termination::Crash {
        detail: format!("its memory cannot be read: {e}"),
    })?;
    p.note(format!("judge: unique memory {bytes} bytes"));
    if max_memory > 0 && bytes > max_memory {
        return Err(Termination::Memory {
            bytes,
            limit: max_memory,
        });
    }
    Ok(bytes)
}

fn shorten(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        format!("{}...", s.chars().take(n).collect::<String>())
    }
}

/// One stone of the game record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveRecord {
    /// Where.
    pub pos: Pos,
    /// Whose stone.
    pub color: Color,
    /// Thinking time in ms (0 for opening stones).
    pub time_ms: u64,
    /// Part of the opening rather than played by an engine.
    pub opening: bool,
}

/// The outcome and record of one game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The winning colour, or `None` for a draw.
    pub winner: Option<Color>,
    /// How it ended.
    pub termination: Termination,
    /// Every stone in order, opening first.
    pub moves: Vec<MoveRecord>,
    /// Protocol transcript of both engines merged by time: `(ms, seat letter, dir, text)`.
    pub log: Vec<String>,
    /// The opening rule gave black to the second player (`players[1]`).
    pub colors_swapped: bool,
    /// The opening rule's decisions, in order.
    pub decisions: Vec<opening_phase::DecisionRecord>,
}

impl GameRecord {
    /// The losing colour of a decisive game.
    pub fn loser(&self) -> Option<Color> {
        self.winner.map(Color::opponent)
    }
}

/// The `INFO` lines sent after `START` (docs/protocol.md §2.4 and §5.1): limits, memory, game
/// type 1 (engine opponent), rule, and the engine's own extra settings last.
pub fn info_block(cfg: &GameConfig, extra: &[(String, String)]) -> String {
    let mut s = String::new();
    if cfg.tc.turn_ms > 0 {
        s.push_str(&format!("INFO timeout_turn {}\n", cfg.tc.turn_ms));
    }
    s.push_str(&format!("INFO timeout_match {}\n", cfg.tc.game_ms));
    s.push_str(&format!("INFO max_memory {}\n", cfg.max_memory_bytes));
    s.push_str("INFO game_type 1\n");
    s.push_str(&format!("INFO rule {}\n", cfg.rule.gomocup_value()));
    if cfg.tc.inc_ms > 0 {
        s.push_str(&format!("INFO time_increment {}\n", cfg.tc.inc_ms));
    }
    for (k, v) in extra {
        s.push_str(&format!("INFO {} {}\n", k, v));
    }
    s
}

/// Plays one game. `players[0]` is black, `players[1]` white; `extra_info[i]` are the extra
/// `INFO` settings of `players[i]`. The opening must be playable on the board (checked when
/// the openings were read). The players are left running; the caller restarts the loser of
/// a forfeit (a timed-out engine is killed here, since it may still be thinking).
pub fn play_game(
    players: [&mut Player; 2],
    extra_info: [&[(String, String)]; 2],
    cfg: &GameConfig,
    opening: &[Pos],
) -> GameRecord {
    let epoch = Instant::now();
    let mut players = players;
    for p in players.iter_mut() {
        // Lines nobody asked for (printed after the last game's end) are logged and dropped,
        // so they cannot be taken as this game's answers.
        p.start_log(epoch);
        let stale = p.drain();
        if stale > 0 {
            p.note(format!(
                "{stale} unrequested line(s) discarded before the game"
            ));
        }
    }
    let mut g = Game::new(cfg, opening);
    let result = g.run(&mut players, extra_info);
    let (winner, termination) = match result {
        Ok((winner, t)) => (winner, t),
        Err((loser, t)) => {
            players[g.seat_of(loser)].note(format!("forfeit: {}", t.describe()));
            (Some(loser.opponent()), t)
        }
    };
    let mut log = Vec::new();
    for (seat, p) in players.iter_mut().enumerate() {
        let tag = if seat == g.black_seat { 'B' } else { 'W' };
        for e in p.take_log() {
            log.push((
                e.at,
                seat,
                format!(
                    "{:>8.1} {} {} {}",
                    e.at.as_secs_f64() * 1000.0,
                    tag,
                    e.dir,
                    e.text
                ),
            ));
        }
    }
    log.sort_by_key(|(at, seat, _)| (*at, *seat));
    GameRecord {
        winner,
        termination,
        moves: g.moves,
        log: log.into_iter().map(|(_, _, s)| s).collect(),
        colors_swapped: g.black_seat == 1,
        decisions: g.decisions,
    }
}

/// A forfeit: the colour that loses and why.
type Forfeit = (Color, Termination);

struct Game<'a> {
    cfg: &'a GameConfig,
    board: Board,
    moves: Vec<MoveRecord>,
    opening_len: usize,
    /// The seat (index into the players) holding black: 0 unless an opening rule swapped.
    black_seat: usize,
    /// Game clock left per seat, in ms.
    left_ms: [i64; 2],
    /// Opening-rule decisions so far.
    decisions: Vec<opening_phase::DecisionRecord>,
}

impl<'a> Game<'a> {
    fn new(cfg: &'a GameConfig, opening: &[Pos]) -> Game<'a> {
        let mut board =
            Board::new(cfg.size, cfg.size, cfg.rule).expect("board size checked by the caller");
        let mut moves = Vec::new();
        for &p in opening {
            let color = board.side_to_move();
            board.make(p);
            moves.push(MoveRecord {
                pos: p,
                color,
                time_ms: 0,
                opening: true,
            });
        }
        Game {
            cfg,
            board,
            moves,
            opening_len: opening.len(),
            black_seat: 0,
            left_ms: [cfg.tc.game_ms as i64; 2],
            decisions: Vec::new(),
        }
    }

    /// The seat holding `color`.
    fn seat_of(&self, color: Color) -> usize {
        if color == Color::Black {
            self.black_seat
        } else {
            1 - self.black_seat
        }
    }

    /// Runs the game; `Ok` for a natural end (winner, how), `Err` for a forfeit.
    fn run(
        &mut self,
        players: &mut [&mut Player; 2],
        extra_info: [&[(String, String)]; 2],
    ) -> Result<(Option<Color>, Termination), Forfeit> {
        let cfg = self.cfg;
        let colors = [Color::Black, Color::White];
        // START both (black first), then the INFO blocks.
        for (i, p) in players.iter_mut().enumerate() {
            start_player(p, cfg.size, cfg.start_timeout_ms).map_err(|t| (colors[i], t))?;
        }
        for (i, p) in players.iter_mut().enumerate() {
            p.send(&info_block(cfg, extra_info[i]))
                .map_err(|e| (colors[i], write_failed("INFO", e)))?;
            if cfg.judge {
                judge_suspend(p).map_err(|t| (colors[i], t))?;
            }
        }

        if let Some(plan) = cfg.opening_rule {
            if let Some(end) = self.opening_phase(plan, players)? {
                return Ok(end);
            }
            // Everyone gets the whole position (BOARD) at its next request.
            self.opening_len = self.moves.len();
        }
        let mut asked = [false; 2];
        loop {
            let color = self.board.side_to_move();
            let seat = self.seat_of(color);
            let request = self.request_for(color, asked[seat]);
            asked[seat] = true;
            let limit = cfg.tc.move_limit_ms(self.left_ms[seat], cfg.tolerance_ms);
            let p = &mut *players[seat];
            let start = send_timed(p, &cfg.tc, self.left_ms[seat], &request, "request")
                .map_err(|t| (color, t))?;
            let (x, y, elapsed_ms) = await_move(p, start, limit).map_err(|t| (color, t))?;
            if cfg.judge {
                judge_after_move(p, cfg.max_memory_bytes).map_err(|t| (color, t))?;
            }
            cfg.tc.charge(&mut self.left_ms[seat], elapsed_ms);
            let pos = self
                .check_point(x, y)
                .map_err(|detail| (color, Termination::IllegalMove { detail }))?;
            let foul = if cfg.rule.has_forbidden(color) {
                self.board.forbidden(pos)
            } else {
                None
            };
            let result = self.board.result_of_move(pos);
            self.board.make(pos);
            self.moves.push(MoveRecord {
                pos,
                color,
                time_ms: elapsed_ms.max(0) as u64,
                opening: false,
            });
            match result {
                Some(GameResult::Win(w)) if w == color => return Ok((Some(w), Termination::Five)),
                Some(GameResult::Win(w)) => {
                    let forbidden = foul
                        .map(ForbiddenKind::name)
                        .unwrap_or("forbidden point")
                        .to_string();
                    return Ok((Some(w), Termination::Foul { forbidden }));
                }
                Some(GameResult::Draw) => return Ok((None, Termination::BoardFull)),
                None => {}
            }
            if cfg.draw_200
                && cfg.rule == Rule::Renju
                && self.board.stone_count() >= RENJU_DRAW_STONES
            {
                return Ok((None, Termination::Draw200));
            }
        }
    }

    /// The move request for `color`: see the module docs.
    fn request_for(&self, color: Color, asked_before: bool) -> String {
        let last = self.moves.last().map(|m| m.pos);
        if asked_before {
            let p = last.expect("the opponent has moved");
            return format!("TURN {},{}\n", p.x(), p.y());
        }
        if self.moves.is_empty() {
            return "BEGIN\n".to_string();
        }
        if self.opening_len == 0 && self.moves.len() == 1 {
            let p = last.expect("one stone");
            return format!("TURN {},{}\n", p.x(), p.y());
        }
        board_request(self.moves.iter().map(|m| (m.pos, m.color == color)))
    }

    /// Turns a reply's numbers into an empty board point.
    fn check_point(&self, x: i64, y: i64) -> Result<Pos, String> {
        if !self.board.contains_xy(x, y) {
            return Err(format!("{x},{y} is off the {0}x{0} board", self.cfg.size));
        }
        let p = Pos::new(x as usize, y as usize);
        if !self.board.is_empty(p) {
            return Err(format!("{x},{y} ({p}) is occupied"));
        }
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_limits() {
        let tc = TimeControl {
            turn_ms: 5000,
            game_ms: 120_000,
            inc_ms: 0,
        };
        assert_eq!(tc.move_limit_ms(120_000, 1000), Some(6000));
        assert_eq!(tc.move_limit_ms(3000, 1000), Some(4000));
        assert_eq!(tc.move_limit_ms(-200, 1000), Some(800));
        let turn_only = TimeControl {
            turn_ms: 300,
            game_ms: 0,
            inc_ms: 0,
        };
        assert_eq!(turn_only.move_limit_ms(0, 200), Some(500));
        let game_only = TimeControl {
            turn_ms: 0,
            game_ms: 10_000,
            inc_ms: 0,
        };
        assert_eq!(game_only.move_limit_ms(7000, 1000), Some(8000));
        let none = TimeControl {
            turn_ms: 0,
            game_ms: 0,
            inc_ms: 0,
        };
        assert_eq!(none.move_limit_ms(0, 1000), None);
    }

    #[test]
    fn info_lines() {
        let cfg = GameConfig {
            size: 15,
            rule: Rule::Renju,
            tc: TimeControl {
                turn_ms: 0,
                game_ms: 60_000,
                inc_ms: 500,
            },
            tolerance_ms: 1000,
            start_timeout_ms: 5000,
            max_memory_bytes: 367_001_600,
            draw_200: false,
            opening_rule: None,
            judge: false,
        };
        let s = info_block(&cfg, &[("thread_num".into(), "2".into())]);
        assert_eq!(
            s,
            "INFO timeout_match 60000\nINFO max_memory 367001600\nINFO game_type 1\nINFO rule 4\n\
             INFO time_increment 500\nINFO thread_num 2\n"
        );
    }

    #[test]
    fn requests() {
        let cfg = GameConfig {
            size: 15,
            rule: Rule::Freestyle,
            tc: TimeControl {
                turn_ms: 1000,
                game_ms: 0,
                inc_ms: 0,
            },
            tolerance_ms: 1000,
            start_timeout_ms: 5000,
            max_memory_bytes: 0,
            draw_200: false,
            opening_rule: None,
            judge: false,
        };
        let mut g = Game::new(&cfg, &[]);
        assert_eq!(g.request_for(Color::Black, false), "BEGIN\n");
        g.board.make(Pos::new(7, 7));
        g.moves.push(MoveRecord {
            pos: Pos::new(7, 7),
            color: Color::Black,
            time_ms: 1,
            opening: false,
        });
        assert_eq!(g.request_for(Color::White, false), "TURN 7,7\n");
        let o = Game::new(&cfg, &[Pos::new(7, 7), Pos::new(7, 8), Pos::new(8, 9)]);
        assert_eq!(
            o.request_for(Color::White, false),
            "BOARD\n7,7,2\n7,8,1\n8,9,2\nDONE\n"
        );
        assert_eq!(o.check_point(7, 8), Err("7,8 (h9) is occupied".to_string()));
        assert!(o
            .check_point(15, 0)
            .unwrap_err()
            .contains("off the 15x15 board"));
        assert!(o.check_point(-1, -1).is_err());
        assert_eq!(o.check_point(0, 0), Ok(Pos::new(0, 0)));
    }
}
