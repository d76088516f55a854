//! Stage 1 of the protocol: text to [`Command`].
//!
//! Owns the grammar of every manager line (docs/protocol.md §2 and §6): [`parse_line`] turns one
//! line outside a body into a [`Command`], [`parse_body_line`] reads one body line of a
//! multi-line command, and [`Assembler`] glues a multi-line command (`BOARD` … `DONE`) into a
//! single [`Command`] carrying its body.
//!
//! Everything here is pure: no board, no I/O. Coordinates are kept as signed 64-bit numbers;
//! whether they lie on the board is checked by the executor, which knows the board.
//! Keywords (command words, `INFO` keys, `DONE`) are case-insensitive; argument text keeps its
//! case. Spaces and tabs around the command, its arguments and the commas are ignored.

use crate::core::{parse_coord_number, parse_xy};
use thiserror::Error;

/// Longest piece of offending input quoted in an error message, in bytes.
const QUOTE_MAX: usize = 48;

/// Longest `SOLVE` time in milliseconds (10 minutes); `SOLVE ... 0` asks for it.
pub const MAX_SOLVE_MS: u64 = 600_000;

/// Why a line could not be read. Each message names the bad token.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// The line is empty (or only spaces and tabs); callers skip it.
    #[error("empty line")]
    Empty,
    /// A command lacks a required argument.
    #[error("{command} needs {what}")]
    MissingArgument {
        /// The command word, upper case.
        command: &'static str,
        /// What was expected, e.g. `a board size`.
        what: &'static str,
    },
    /// A token that should be an integer is not one (or does not fit in 64 bits).
    #[error("bad number '{0}'")]
    BadNumber(String),
    /// A coordinate pair is not `x,y` (or a body line not `x,y,f`).
    #[error("bad coordinates '{0}'")]
    BadCoordinates(String),
    /// A body line `x,y` where `x,y,f` (a field) is wanted.
    #[error("'{0}' lacks the field (x,y,field)")]
    MissingField(String),
    /// An argument that is neither of the words nor a number the command takes.
    #[error("{command} takes {what}, not '{token}'")]
    BadArgument {
        /// The command word, upper case.
        command: &'static str,
        /// What it takes.
        what: &'static str,
        /// The token as written.
        token: String,
    },
}

/// A point as the manager wrote it: 0-based column `x` and row `y`, not yet checked against
/// the board (so negative and huge values are representable).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Coord {
    /// Column, 0-based.
    pub x: i64,
    /// Row, 0-based.
    pub y: i64,
}

/// One body line of a multi-line command: `x,y,f` (`BOARD`, `YXBOARD`) or `x,y`
/// (`SWAP2BOARD`, `YXBLOCK`, `YXBLOCKUNDO`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BodyLine {
    /// The point.
    pub at: Coord,
    /// The field value (1 own, 2 opponent, 3 dead stone) when the body has one; not range
    /// checked here.
    pub field: Option<i64>,
}

/// The body of a multi-line command: the lines that parsed, in order, and the lines that did
/// not (each to be reported with a `MESSAGE`, docs/protocol.md §2.7).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Body {
    /// Good lines in input order.
    pub lines: Vec<BodyLine>,
    /// One error per skipped line, in input order, each with the number of good lines read
    /// before it (so that messages about good and bad lines can be given in input order).
    pub bad: Vec<(usize, ParseError)>,
}

/// Which multi-line command a body belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyKind {
    /// `BOARD`: body `x,y,f`, answered with a move.
    Board,
    /// `YXBOARD`: body `x,y,f`, no answer.
    YxBoard,
    /// `SWAP2BOARD`: body `x,y`, the stones in move order from black.
    Swap2Board,
    /// `YXBLOCK`: body `x,y`, points to exclude from the root.
    YxBlock,
    /// `YXBLOCKUNDO`: body `x,y`, points to take off the excluded list.
    YxBlockUndo,
    /// Yixin-Board's `yxsoosorvstep<step> [n]` (steps 2 to 6): body `x,y`, the stones in move
    /// order; `n` is the number of fifth-move offers (steps 4 and 5), `None` when missing or
    /// not a number (docs/openings.md §4).
    YxSoosorv {
        /// The step, 2..=6.
        step: u8,
        /// The number of fifth-move offers as given.
        n: Option<i64>,
    },
    /// This engine's `OPENING <rule> <step> [n]`: body `x,y`, the stones in move order
    /// (docs/openings.md §5). Unknown rule or step words are `None` (answered `ERROR`).
    Opening {
        /// The opening rule.
        rule: Option<crate::opening::OpeningRule>,
        /// The decision point.
        step: Option<crate::opening::Step>,
        /// The number of fifth-move offers, if given.
        n: Option<i64>,
    },
}

impl BodyKind {
    /// Whether body lines carry a third field (`x,y,f`).
    pub fn has_field(self) -> bool {
        matches!(self, BodyKind::Board | BodyKind::YxBoard)
    }
    /// The command word, upper case.
    pub fn name(self) -> &'static str {
        match self {
            BodyKind::Board => "BOARD",
            BodyKind::YxBoard => "YXBOARD",
            BodyKind::Swap2Board => "SWAP2BOARD",
            BodyKind::YxBlock => "YXBLOCK",
            BodyKind::YxBlockUndo => "YXBLOCKUNDO",
            BodyKind::YxSoosorv { .. } => "YXSOOSORVSTEP",
            BodyKind::Opening { .. } => "OPENING",
        }
    }
}

/// An `INFO key value` line (docs/protocol.md §2.4 and §6.2). Numbers are signed 64-bit; a value
/// that does not parse becomes [`Info::Invalid`], an unknown key [`Info::Other`]; both are
/// ignored silently by the executor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Info {
    /// `timeout_turn`, milliseconds per move (0 = answer at once).
    TimeoutTurn(i64),
    /// `timeout_match`, milliseconds per game (0 = unlimited).
    TimeoutMatch(i64),
    /// `time_left`, milliseconds of match time left (2147483647 = unlimited; may be negative).
    TimeLeft(i64),
    /// `max_memory`, bytes for the whole process (0 = no limit).
    MaxMemory(i64),
    /// `game_type` (informational).
    GameType(i64),
    /// `rule`, the Gomocup rule bit set.
    Rule(i64),
    /// `folder`, the rest of the line as given.
    Folder(String),
    /// `thread_num`, search threads.
    ThreadNum(i64),
    /// `hash_size`, transposition table size in KiB.
    HashSize(i64),
    /// `max_depth`, plies.
    MaxDepth(i64),
    /// `max_node`, nodes (`-1` or 0 = no limit).
    MaxNode(i64),
    /// `show_detail`, bit 1 realtime lines, bit 2 `INFO` result blocks.
    ShowDetail(i64),
    /// `time_increment`, milliseconds added per move.
    TimeIncrement(i64),
    /// `pondering` 0/1.
    Pondering(i64),
    /// `variant`, this engine's extension: `fourcolour` (or `fourcolor`) for four-colour
    /// gomoku, `standard` for two colours (`docs/fourcolour.md` §4); the value as given.
    Variant(String),
    /// `mode`, the four-colour ownership mode (`2p`, `1v2`, `1v3`, `2v2`, `ffa`); the value
    /// as given.
    Mode(String),
    /// A known numeric key whose value does not parse (key lower case, value as given).
    Invalid {
        /// Lower-case key.
        key: String,
        /// The value text.
        value: String,
    },
    /// Any other key (`evaluate`, `caution_factor`, …), kept as text.
    Other {
        /// Lower-case key (empty when the line was just `INFO`).
        key: String,
        /// The value text.
        value: String,
    },
}

/// One command from the manager, with its arguments parsed (but not checked against the
/// board).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `START n`: the first integer after the word; extra tokens ignored.
    Start(i64),
    /// `RECTSTART w,h`.
    RectStart(i64, i64),
    /// `RESTART`.
    Restart,
    /// `INFO key value`.
    Info(Info),
    /// `BEGIN`.
    Begin,
    /// `TURN x,y`.
    Turn(Coord),
    /// A multi-line command with its body; [`parse_line`] returns it with an empty body and
    /// [`Assembler`] fills the body until `DONE`.
    Body(BodyKind, Body),
    /// `TAKEBACK x,y`.
    Takeback(Coord),
    /// `PLAY x,y`.
    Play(Coord),
    /// `ABOUT`.
    About,
    /// `END`.
    End,
    /// `YXSTOP` or `STOP`.
    Stop,
    /// `YXNBEST k`, `k` from 1 to [`crate::engine::MAX_MULTIPV`] (checked here).
    YxNbest(i64),
    /// `YXSHOWFORBID`.
    YxShowForbid,
    /// `SOLVE [VCF|VCT] [ms]` (this engine's extension): solve the current position for the
    /// side to move; VCF unless `VCT` is given; time limit in milliseconds (default 3000,
    /// at most [`MAX_SOLVE_MS`], which `0` asks for). Runs as a job: `YXSTOP` ends it.
    Solve {
        /// Search continuous threats (VCT) instead of continuous fours (VCF).
        vct: bool,
        /// Time limit in milliseconds.
        time_ms: u64,
    },
    /// `YXHASHCLEAR`.
    YxHashClear,
    /// `YXSHOWINFO`.
    YxShowInfo,
    /// `YXBLOCKRESET`.
    YxBlockReset,
    /// Yixin-Board's `yxswap2step1`, `yxswap2step2`, `yxswap2step3` (docs/openings.md §4).
    YxSwap2Step(u8),
    /// Yixin-Board's `yxsoosorvstep1` (no body; the later steps are [`BodyKind::YxSoosorv`]).
    YxSoosorvStep1,
    /// Anything else (including a stray `DONE` and body lines of unknown multi-line
    /// commands): the trimmed line.
    Unknown(String),
}

impl Command {
    /// Whether this command is a request that replaces the position or asks for a move, so
    /// that it aborts a running search without its move being printed (docs/protocol.md §7
    /// item 27).
    pub fn aborts_search(&self) -> bool {
        matches!(
            self,
            Command::Start(_)
                | Command::RectStart(..)
                | Command::Restart
                | Command::Begin
                | Command::Turn(_)
                | Command::Takeback(_)
                | Command::Play(_)
                | Command::YxNbest(_)
                | Command::YxSwap2Step(_)
                | Command::YxSoosorvStep1
                | Command::Body(
                    BodyKind::Board
                        | BodyKind::YxBoard
                        | BodyKind::Swap2Board
                        | BodyKind::YxSoosorv { .. }
                        | BodyKind::Opening { .. },
                    _
                )
        )
    }
}

/// Cuts `s` to at most [`QUOTE_MAX`] bytes (on a character boundary) for quoting in errors.
fn quote(s: &str) -> String {
    if s.len() <= QUOTE_MAX {
        return s.to_string();
    }
    let mut end = QUOTE_MAX;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &s[..end])
}

/// Whether `c` separates tokens (space or tab; other whitespace too).
fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t' || c.is_whitespace()
}

/// Parses a signed 64-bit integer token.
///
/// Errors: [`ParseError::BadNumber`] naming the token.
pub fn parse_int(token: &str) -> Result<i64, ParseError> {
    let t = token.trim_matches(is_blank);
    t.parse::<i64>()
        .map_err(|_| ParseError::BadNumber(quote(t)))
}

/// Parses `x,y` with optional spaces around the comma and the numbers.
///
/// Errors: [`ParseError::BadCoordinates`] naming the text.
pub fn parse_coord(text: &str) -> Result<Coord, ParseError> {
    let t = text.trim_matches(is_blank);
    let (x, y) = parse_xy(t).ok_or_else(|| ParseError::BadCoordinates(quote(t)))?;
    Ok(Coord { x, y })
}

/// Parses one body line of a `kind` command: `x,y,f` when [`BodyKind::has_field`], else
/// `x,y` (a third field is tolerated there and ignored, since some managers send one).
///
/// Errors: [`ParseError::Empty`] for a blank line, [`ParseError::BadCoordinates`] otherwise.
pub fn parse_body_line(kind: BodyKind, line: &str) -> Result<BodyLine, ParseError> {
    let t = line.trim_matches(is_blank);
    if t.is_empty() {
        return Err(ParseError::Empty);
    }
    let bad = || ParseError::BadCoordinates(quote(t));
    let parts: Vec<&str> = t.split(',').map(|p| p.trim_matches(is_blank)).collect();
    let num = |s: &str| parse_coord_number(s).ok_or_else(bad);
    match (kind.has_field(), parts.len()) {
        (true, 3) => Ok(BodyLine {
            at: Coord {
                x: num(parts[0])?,
                y: num(parts[1])?,
            },
            field: Some(num(parts[2])?),
        }),
        (false, 2) | (false, 3) => {
            if parts.len() == 3 {
                num(parts[2])?;
            }
            Ok(BodyLine {
                at: Coord {
                    x: num(parts[0])?,
                    y: num(parts[1])?,
                },
                field: None,
            })
        }
        (true, 2) if num(parts[0]).is_ok() && num(parts[1]).is_ok() => {
            Err(ParseError::MissingField(quote(t)))
        }
        _ => Err(bad()),
    }
}

/// Splits a line into its upper-cased first word and the trimmed rest.
fn split_word(line: &str) -> (String, &str) {
    let t = line.trim_matches(is_blank);
    match t.find(is_blank) {
        Some(i) => (t[..i].to_ascii_uppercase(), t[i..].trim_matches(is_blank)),
        None => (t.to_ascii_uppercase(), ""),
    }
}

/// Parses an `INFO` line's arguments (everything after the word `INFO`).
fn parse_info(rest: &str) -> Info {
    let (key, value) = match rest.find(is_blank) {
        Some(i) => (
            rest[..i].to_ascii_lowercase(),
            rest[i..].trim_matches(is_blank),
        ),
        None => (rest.to_ascii_lowercase(), ""),
    };
    let numeric: Option<fn(i64) -> Info> = match key.as_str() {
        "timeout_turn" => Some(Info::TimeoutTurn),
        "timeout_match" => Some(Info::TimeoutMatch),
        "time_left" => Some(Info::TimeLeft),
        "max_memory" => Some(Info::MaxMemory),
        "game_type" => Some(Info::GameType),
        "rule" => Some(Info::Rule),
        "thread_num" => Some(Info::ThreadNum),
        "hash_size" => Some(Info::HashSize),
        "max_depth" => Some(Info::MaxDepth),
        "max_node" => Some(Info::MaxNode),
        "show_detail" => Some(Info::ShowDetail),
        "time_increment" => Some(Info::TimeIncrement),
        "pondering" => Some(Info::Pondering),
        _ => None,
    };
    match key.as_str() {
        "folder" => return Info::Folder(value.to_string()),
        "variant" => return Info::Variant(value.to_string()),
        "mode" => return Info::Mode(value.to_string()),
        _ => {}
    }
    match numeric {
        Some(make) => match value.parse::<i64>() {
            Ok(v) => make(v),
            Err(_) => Info::Invalid {
                key,
                value: value.to_string(),
            },
        },
        None => Info::Other {
            key,
            value: value.to_string(),
        },
    }
}

/// Parses a line that is not inside a body.
///
/// Multi-line commands come back as [`Command::Body`] with an empty body; feed the following
/// lines to [`Assembler`] (or [`parse_body_line`]) until `DONE`. Unknown words give
/// [`Command::Unknown`], never an error.
///
/// Errors: [`ParseError::Empty`] for a blank line; [`ParseError::MissingArgument`],
/// [`ParseError::BadNumber`] or [`ParseError::BadCoordinates`] for a known command with bad
/// arguments (the executor answers `ERROR`).
pub fn parse_line(line: &str) -> Result<Command, ParseError> {
    let t = line.trim_matches(is_blank);
    if t.is_empty() {
        return Err(ParseError::Empty);
    }
    let (word, rest) = split_word(t);
    let first_int = |command: &'static str, what: &'static str| -> Result<i64, ParseError> {
        let tok = rest
            .split(|c: char| is_blank(c) || c == ',')
            .find(|s| !s.is_empty())
            .ok_or(ParseError::MissingArgument { command, what })?;
        parse_int(tok)
    };
    let coord = |command: &'static str| -> Result<Coord, ParseError> {
        if rest.is_empty() {
            return Err(ParseError::MissingArgument {
                command,
                what: "coordinates x,y",
            });
        }
        parse_coord(rest)
    };
    let body = |kind| Ok(Command::Body(kind, Body::default()));
    match word.as_str() {
        "START" => Ok(Command::Start(first_int("START", "a board size")?)),
        "RECTSTART" => {
            let mut toks = rest
                .split(|c: char| is_blank(c) || c == ',')
                .filter(|s| !s.is_empty());
            let missing = ParseError::MissingArgument {
                command: "RECTSTART",
                what: "width,height",
            };
            let w = parse_int(toks.next().ok_or(missing.clone())?)?;
            let h = parse_int(toks.next().ok_or(missing)?)?;
            Ok(Command::RectStart(w, h))
        }
        "RESTART" => Ok(Command::Restart),
        "INFO" => Ok(Command::Info(parse_info(rest))),
        "BEGIN" => Ok(Command::Begin),
        "TURN" => Ok(Command::Turn(coord("TURN")?)),
        "TAKEBACK" => Ok(Command::Takeback(coord("TAKEBACK")?)),
        "PLAY" => Ok(Command::Play(coord("PLAY")?)),
        "BOARD" => body(BodyKind::Board),
        "YXBOARD" => body(BodyKind::YxBoard),
        "SWAP2BOARD" => body(BodyKind::Swap2Board),
        "YXBLOCK" => body(BodyKind::YxBlock),
        "YXBLOCKUNDO" => body(BodyKind::YxBlockUndo),
        "ABOUT" => Ok(Command::About),
        "END" => Ok(Command::End),
        "YXSTOP" | "STOP" => Ok(Command::Stop),
        "YXNBEST" => {
            const WHAT: &str = "a count from 1 to 64";
            let k = first_int("YXNBEST", WHAT)?;
            if !(1..=crate::engine::MAX_MULTIPV as i64).contains(&k) {
                return Err(ParseError::BadArgument {
                    command: "YXNBEST",
                    what: WHAT,
                    token: k.to_string(),
                });
            }
            Ok(Command::YxNbest(k))
        }
        "YXSHOWFORBID" => Ok(Command::YxShowForbid),
        "SOLVE" | "YXSOLVE" => {
            let mut vct = false;
            let mut time_ms = 3000u64;
            for tok in rest.split_whitespace() {
                match tok.to_ascii_uppercase().as_str() {
                    "VCF" => vct = false,
                    "VCT" => vct = true,
                    n => match n.parse::<u64>() {
                        // 0: the longest solve (YXSTOP ends it sooner).
                        Ok(0) => time_ms = MAX_SOLVE_MS,
                        Ok(v) => time_ms = v.min(MAX_SOLVE_MS),
                        Err(_) => {
                            return Err(ParseError::BadArgument {
                                command: "SOLVE",
                                what: "VCF or VCT and a time in milliseconds",
                                token: quote(tok),
                            })
                        }
                    },
                }
            }
            Ok(Command::Solve { vct, time_ms })
        }
        "YXHASHCLEAR" => Ok(Command::YxHashClear),
        "YXSHOWINFO" => Ok(Command::YxShowInfo),
        "YXBLOCKRESET" => Ok(Command::YxBlockReset),
        "YXSWAP2STEP1" => Ok(Command::YxSwap2Step(1)),
        "YXSWAP2STEP2" => Ok(Command::YxSwap2Step(2)),
        "YXSWAP2STEP3" => Ok(Command::YxSwap2Step(3)),
        "YXSOOSORVSTEP1" => Ok(Command::YxSoosorvStep1),
        w if w.starts_with("YXSOOSORVSTEP") && matches!(&w[13..], "2" | "3" | "4" | "5" | "6") => {
            let step = w[13..].parse::<u8>().unwrap_or(2);
            let n = rest
                .split_whitespace()
                .next()
                .and_then(|t| t.parse::<i64>().ok());
            body(BodyKind::YxSoosorv { step, n })
        }
        "OPENING" => {
            let mut toks = rest.split_whitespace();
            let rule = toks.next().and_then(crate::opening::OpeningRule::parse);
            let step = toks.next().and_then(crate::opening::Step::parse);
            let n = toks.next().and_then(|t| t.parse::<i64>().ok());
            body(BodyKind::Opening { rule, step, n })
        }
        _ => Ok(Command::Unknown(t.to_string())),
    }
}

/// What [`Assembler::push`] made of a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Assembled {
    /// A blank line outside a body, or a body line taken into the pending body.
    Nothing,
    /// A complete command (single line, or a body closed by `DONE`).
    Command(Command),
    /// A line outside a body that names a known command with bad arguments.
    Error(ParseError),
    /// `END` inside a body: the body is dropped and the engine must exit (docs/protocol.md §2.11
    /// asks for a prompt exit whatever the state).
    End,
}

/// Gathers multi-line commands: outside a body, each line goes through [`parse_line`]; after
/// a multi-line command word, lines go through [`parse_body_line`] until a line `DONE` (any
/// case) closes the body. Bad body lines are recorded in [`Body::bad`] and reading goes on.
#[derive(Clone, Debug, Default)]
pub struct Assembler {
    pending: Option<(BodyKind, Body)>,
}

impl Assembler {
    /// A new assembler outside any body.
    pub fn new() -> Assembler {
        Assembler::default()
    }

    /// Whether a body is being read (a multi-line command word was seen, `DONE` not yet).
    pub fn in_body(&self) -> bool {
        self.pending.is_some()
    }

    /// Feeds one line (without its line ending).
    pub fn push(&mut self, line: &str) -> Assembled {
        if let Some((kind, body)) = &mut self.pending {
            let t = line.trim_matches(is_blank);
            if t.is_empty() {
                return Assembled::Nothing;
            }
            let upper = t.to_ascii_uppercase();
            if upper == "DONE" {
                let (kind, body) = self.pending.take().expect("pending body");
                return Assembled::Command(Command::Body(kind, body));
            }
            if upper == "END" {
                self.pending = None;
                return Assembled::End;
            }
            match parse_body_line(*kind, t) {
                Ok(l) => body.lines.push(l),
                Err(e) => body.bad.push((body.lines.len(), e)),
            }
            return Assembled::Nothing;
        }
        match parse_line(line) {
            Err(ParseError::Empty) => Assembled::Nothing,
            Err(e) => Assembled::Error(e),
            Ok(Command::Body(kind, body)) => {
                self.pending = Some((kind, body));
                Assembled::Nothing
            }
            Ok(c) => Assembled::Command(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(x: i64, y: i64) -> Coord {
        Coord { x, y }
    }

    #[test]
    fn keywords_any_case_and_spacing() {
        assert_eq!(parse_line("start 15"), Ok(Command::Start(15)));
        assert_eq!(parse_line("  \tStArT\t20  "), Ok(Command::Start(20)));
        assert_eq!(parse_line("START 15 15"), Ok(Command::Start(15)));
        assert_eq!(
            parse_line("RECTSTART 15,12"),
            Ok(Command::RectStart(15, 12))
        );
        assert_eq!(
            parse_line("rectstart 15 , 12"),
            Ok(Command::RectStart(15, 12))
        );
        assert_eq!(parse_line("TURN 10, 10"), Ok(Command::Turn(c(10, 10))));
        assert_eq!(parse_line("turn 10 ,10"), Ok(Command::Turn(c(10, 10))));
        assert_eq!(parse_line("TURN -1,-1"), Ok(Command::Turn(c(-1, -1))));
        assert_eq!(parse_line("yxstop"), Ok(Command::Stop));
        assert_eq!(parse_line("STOP"), Ok(Command::Stop));
        assert_eq!(parse_line("YXNBEST 3"), Ok(Command::YxNbest(3)));
        assert_eq!(parse_line("YXNBEST 64"), Ok(Command::YxNbest(64)));
        assert_eq!(
            parse_line("yxnbest").unwrap_err().to_string(),
            "YXNBEST needs a count from 1 to 64"
        );
        for k in ["0", "-1", "65"] {
            assert_eq!(
                parse_line(&format!("YXNBEST {k}")).unwrap_err().to_string(),
                format!("YXNBEST takes a count from 1 to 64, not '{k}'")
            );
        }
        assert_eq!(
            parse_line("solve vct 500"),
            Ok(Command::Solve {
                vct: true,
                time_ms: 500
            })
        );
        assert_eq!(
            parse_line("SOLVE"),
            Ok(Command::Solve {
                vct: false,
                time_ms: 3000
            })
        );
        assert!(parse_line("SOLVE fast").is_err());
        assert_eq!(
            parse_line("board"),
            Ok(Command::Body(BodyKind::Board, Body::default()))
        );
    }

    #[test]
    fn errors_name_the_token() {
        assert_eq!(
            parse_line("START abc"),
            Err(ParseError::BadNumber("abc".into()))
        );
        assert!(matches!(
            parse_line("START"),
            Err(ParseError::MissingArgument { .. })
        ));
        assert_eq!(
            parse_line("TURN 1,x"),
            Err(ParseError::BadCoordinates("1,x".into()))
        );
        assert_eq!(
            parse_line("TURN 1,2,3"),
            Err(ParseError::BadCoordinates("1,2,3".into()))
        );
        assert!(matches!(
            parse_line("TURN"),
            Err(ParseError::MissingArgument { .. })
        ));
        assert_eq!(parse_line("   "), Err(ParseError::Empty));
        let e = parse_line("START 99999999999999999999").unwrap_err();
        assert_eq!(e.to_string(), "bad number '99999999999999999999'");
    }

    #[test]
    fn info_values() {
        let i = |s: &str| match parse_line(s) {
            Ok(Command::Info(i)) => i,
            other => panic!("{:?}", other),
        };
        assert_eq!(i("INFO timeout_turn 5000"), Info::TimeoutTurn(5000));
        assert_eq!(
            i("info MAX_MEMORY 68719476736"),
            Info::MaxMemory(68719476736)
        );
        assert_eq!(i("INFO time_left -30"), Info::TimeLeft(-30));
        assert_eq!(
            i("INFO folder C:\\A B\\C "),
            Info::Folder("C:\\A B\\C".into())
        );
        assert_eq!(
            i("INFO max_node x"),
            Info::Invalid {
                key: "max_node".into(),
                value: "x".into()
            }
        );
        assert_eq!(
            i("INFO variant FourColour"),
            Info::Variant("FourColour".into())
        );
        assert_eq!(i("info MODE 2v2"), Info::Mode("2v2".into()));
        assert_eq!(
            i("INFO evaluate 3,4"),
            Info::Other {
                key: "evaluate".into(),
                value: "3,4".into()
            }
        );
        assert_eq!(
            i("INFO"),
            Info::Other {
                key: "".into(),
                value: "".into()
            }
        );
    }

    #[test]
    fn unknown_and_stray_done() {
        assert_eq!(
            parse_line("FOO bar"),
            Ok(Command::Unknown("FOO bar".into()))
        );
        assert_eq!(parse_line("done"), Ok(Command::Unknown("done".into())));
        assert_eq!(parse_line("1,1"), Ok(Command::Unknown("1,1".into())));
    }

    #[test]
    fn body_lines() {
        assert_eq!(
            parse_body_line(BodyKind::Board, " 10 ,10, 1 "),
            Ok(BodyLine {
                at: c(10, 10),
                field: Some(1)
            })
        );
        assert_eq!(
            parse_body_line(BodyKind::Board, "10,10"),
            Err(ParseError::MissingField("10,10".into()))
        );
        assert_eq!(
            parse_body_line(BodyKind::Swap2Board, "7,7"),
            Ok(BodyLine {
                at: c(7, 7),
                field: None
            })
        );
        assert_eq!(
            parse_body_line(BodyKind::Swap2Board, "7,7,1"),
            Ok(BodyLine {
                at: c(7, 7),
                field: None
            })
        );
        assert!(parse_body_line(BodyKind::Swap2Board, "7").is_err());
    }

    #[test]
    fn opening_commands() {
        use crate::opening::{OpeningRule, Step};
        assert_eq!(parse_line("yxswap2step2"), Ok(Command::YxSwap2Step(2)));
        assert_eq!(parse_line("YXSOOSORVSTEP1"), Ok(Command::YxSoosorvStep1));
        assert_eq!(
            parse_line("yxsoosorvstep4 3"),
            Ok(Command::Body(
                BodyKind::YxSoosorv {
                    step: 4,
                    n: Some(3)
                },
                Body::default()
            ))
        );
        assert_eq!(
            parse_line("yxsoosorvstep5"),
            Ok(Command::Body(
                BodyKind::YxSoosorv { step: 5, n: None },
                Body::default()
            ))
        );
        assert_eq!(
            parse_line("yxsoosorvstep7"),
            Ok(Command::Unknown("yxsoosorvstep7".into()))
        );
        assert_eq!(
            parse_line("opening soosorv8 offer 2"),
            Ok(Command::Body(
                BodyKind::Opening {
                    rule: Some(OpeningRule::Soosorv8),
                    step: Some(Step::Offer),
                    n: Some(2)
                },
                Body::default()
            ))
        );
        assert_eq!(
            parse_line("OPENING chess open"),
            Ok(Command::Body(
                BodyKind::Opening {
                    rule: None,
                    step: Some(Step::Open),
                    n: None
                },
                Body::default()
            ))
        );
        let mut a = Assembler::new();
        assert_eq!(a.push("yxsoosorvstep2"), Assembled::Nothing);
        assert_eq!(a.push("7,7"), Assembled::Nothing);
        assert!(matches!(
            a.push("done"),
            Assembled::Command(Command::Body(BodyKind::YxSoosorv { step: 2, n: None }, b)) if b.lines.len() == 1
        ));
    }

    #[test]
    fn assembler_reads_until_done() {
        let mut a = Assembler::new();
        assert_eq!(a.push("BOARD"), Assembled::Nothing);
        assert!(a.in_body());
        assert_eq!(a.push("7,7,1"), Assembled::Nothing);
        assert_eq!(a.push("garbage"), Assembled::Nothing);
        assert_eq!(a.push(""), Assembled::Nothing);
        assert_eq!(a.push("8,8,2"), Assembled::Nothing);
        match a.push("done") {
            Assembled::Command(Command::Body(BodyKind::Board, b)) => {
                assert_eq!(b.lines.len(), 2);
                assert_eq!(
                    b.bad,
                    vec![(1, ParseError::BadCoordinates("garbage".into()))]
                );
            }
            other => panic!("{:?}", other),
        }
        assert!(!a.in_body());
        assert_eq!(a.push("BOARD"), Assembled::Nothing);
        assert_eq!(a.push("END"), Assembled::End);
        assert!(!a.in_body());
    }
}
