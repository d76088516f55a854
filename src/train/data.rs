//! The game-record format of the training pipeline (`docs/training.md` §1).
//!
//! A file holds one game per line; lines starting with `#` and blank lines are ignored:
//!
//! ```text
//! # tianyuan-games 1
//! freestyle 15x15 black 3 h8 i9 g7 j10:-21 g9:35 ...
//! ```
//!
//! Fields, separated by single spaces: the rule name ([`Rule::name`]), the board size
//! `WxH`, the result (`black`, `white` or `draw`), the number of opening moves (placed, not
//! searched), then every move in play order in renju notation ([`Pos::to_notation`]). A move
//! chosen by search carries `:score`, the search score from the mover's view in evaluation
//! units (wins and losses as in `crate::eval::WIN`), and a move scored by another engine
//! (`label`) may also carry `>point`, the move that engine's search chose in the position
//! before it (`j10:-21>h9`). Games are stored rather than
//! positions: replaying a game regenerates every position at the cost of one move each.

use crate::board::Board;
use crate::core::{parse_point, Color, Pos, Rule};
use std::fmt::Write as _;
use std::io::{BufRead, Write};
use thiserror::Error;

/// The first line of a game file.
pub const HEADER: &str = "# tianyuan-games 1";

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Black won.
    Black,
    /// White won.
    White,
    /// Nobody won.
    Draw,
}

impl Outcome {
    /// The name used in the file.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Black => "black",
            Outcome::White => "white",
            Outcome::Draw => "draw",
        }
    }
    /// The score of `c`: 1 for a win, 0.5 for a draw, 0 for a loss.
    pub fn score_for(self, c: Color) -> f32 {
        match (self, c) {
            (Outcome::Draw, _) => 0.5,
            (Outcome::Black, Color::Black) | (Outcome::White, Color::White) => 1.0,
            _ => 0.0,
        }
    }
    /// The winner's outcome.
    pub fn win_for(c: Color) -> Outcome {
        match c {
            Color::Black => Outcome::Black,
            Color::White => Outcome::White,
        }
    }
}

/// One recorded game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The rule it was played under.
    pub rule: Rule,
    /// Board width in points (5..=22).
    pub width: usize,
    /// Board height in points (5..=22).
    pub height: usize,
    /// The result.
    pub outcome: Outcome,
    /// How many of the first moves were the opening (not chosen by search).
    pub opening: usize,
    /// Every move, black first.
    pub moves: Vec<Pos>,
    /// Per move: the search score from the mover's view, `None` for opening moves.
    pub scores: Vec<Option<i32>>,
    /// Per move: the move a labelling engine's search chose in the position before it
    /// (`label`), `None` where there is none. Empty or shorter than `moves` when no move
    /// has one.
    pub best: Vec<Option<Pos>>,
}

/// Longest line of a game file, in bytes (a game of 484 moves with scores and best moves
/// takes under 10 000).
pub const MAX_LINE: usize = 1 << 20;

/// Errors of reading a game line.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum DataError {
    /// A field is missing.
    #[error("line {line}: missing {what}")]
    Missing {
        /// 1-based line number.
        line: usize,
        /// The missing field.
        what: &'static str,
    },
    /// A field could not be read.
    #[error("line {line}: bad {what} '{token}'")]
    Bad {
        /// 1-based line number.
        line: usize,
        /// The field.
        what: &'static str,
        /// The token as read.
        token: String,
    },
    /// The moves do not form a legal game (occupied point, move after a five).
    #[error("line {line}: illegal game: {reason}")]
    Illegal {
        /// 1-based line number.
        line: usize,
        /// Why.
        reason: String,
    },
    /// Reading the file failed.
    #[error("read error: {0}")]
    Io(String),
}

impl GameRecord {
    /// The game as one line of the format (no newline).
    pub fn to_line(&self) -> String {
        let mut s = format!(
            "{} {}x{} {} {}",
            self.rule.name(),
            self.width,
            self.height,
            self.outcome.name(),
            self.opening
        );
        for (i, p) in self.moves.iter().enumerate() {
            s.push(' ');
            s.push_str(&p.to_notation());
            if let Some(Some(v)) = self.scores.get(i) {
                let _ = write!(s, ":{v}");
            }
            if let Some(Some(b)) = self.best.get(i) {
                let _ = write!(s, ">{}", b.to_notation());
            }
        }
        s
    }

    /// Reads one game line (`line_no` is used in error messages only).
    ///
    /// Errors: [`DataError`] naming the bad field; the moves are replayed on a board to check
    /// that they form a legal sequence.
    pub fn parse(text: &str, line_no: usize) -> Result<GameRecord, DataError> {
        let mut it = text.split_whitespace();
        let mut next = |what: &'static str| {
            it.next().ok_or(DataError::Missing {
                line: line_no,
                what,
            })
        };
        let bad = |what: &'static str, token: &str| DataError::Bad {
            line: line_no,
            what,
            token: token.to_string(),
        };
        let rule_s = next("rule")?;
        let rule = Rule::parse(rule_s).ok_or_else(|| bad("rule", rule_s))?;
        let size_s = next("size")?;
        let (w, h) = size_s
            .split_once('x')
            .and_then(|(a, b)| Some((a.parse::<usize>().ok()?, b.parse::<usize>().ok()?)))
            .ok_or_else(|| bad("size", size_s))?;
        let mut board = Board::new(w, h, rule).map_err(|_| bad("size", size_s))?;
        let out_s = next("result")?;
        let outcome = match out_s {
            "black" => Outcome::Black,
            "white" => Outcome::White,
            "draw" => Outcome::Draw,
            _ => return Err(bad("result", out_s)),
        };
        let open_s = next("opening length")?;
        let opening = open_s
            .parse::<usize>()
            .map_err(|_| bad("opening length", open_s))?;
        let mut moves = Vec::new();
        let mut scores = Vec::new();
        let mut best = Vec::new();
        let mut won = false;
        for tok in it {
            let (tok, bp) = match tok.split_once('>') {
                Some((t, b)) => (
                    t,
                    Some(parse_point(b, w, h).map_err(|_| bad("best move", b))?),
                ),
                None => (tok, None),
            };
            let (pt, sc) = match tok.split_once(':') {
                Some((p, s)) => (p, Some(s.parse::<i32>().map_err(|_| bad("score", s))?)),
                None => (tok, None),
            };
            let p = parse_point(pt, w, h).map_err(|_| bad("move", pt))?;
            if won {
                return Err(DataError::Illegal {
                    line: line_no,
                    reason: format!("move {} after the game was won", pt),
                });
            }
            board.check_move(p).map_err(|e| DataError::Illegal {
                line: line_no,
                reason: format!("{pt}: {e}"),
            })?;
            won = board.is_five(board.side_to_move(), p);
            board.make(p);
            moves.push(p);
            scores.push(sc);
            best.push(bp);
        }
        if best.iter().all(Option::is_none) {
            best.clear();
        }
        if opening > moves.len() {
            return Err(bad("opening length", open_s));
        }
        Ok(GameRecord {
            rule,
            width: w,
            height: h,
            outcome,
            opening,
            moves,
            scores,
            best,
        })
    }
}

/// Writes the header line.
pub fn write_header(out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(out, "{HEADER}")
}

/// Reads every game of a file; comment and blank lines are skipped.
///
/// Errors: the first bad line ([`DataError`]).
pub fn read_games(input: &mut dyn BufRead) -> Result<Vec<GameRecord>, DataError> {
    let mut games = Vec::new();
    let mut line = String::new();
    for i in 0.. {
        line.clear();
        // A line is at most MAX_LINE bytes: a file without newlines (a binary file, a
        // device) is refused instead of read into memory whole.
        let n = std::io::Read::take(&mut *input, MAX_LINE as u64 + 1)
            .read_line(&mut line)
            .map_err(|e| DataError::Io(e.to_string()))?;
        if n == 0 {
            break;
        }
        if line.len() > MAX_LINE && !line.ends_with('\n') {
            return Err(DataError::Io(format!(
                "line {} is longer than {MAX_LINE} bytes (not a game file?)",
                i + 1
            )));
        }
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        games.push(GameRecord::parse(t, i + 1)?);
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> GameRecord {
        let moves: Vec<Pos> = ["h8", "i9", "g7", "j10", "f6", "a1", "e5", "b2", "d4"]
            .iter()
            .map(|s| parse_point(s, 15, 15).unwrap())
            .collect();
        let mut scores = vec![None; 3];
        scores.extend([
            Some(-21),
            Some(35),
            Some(-29_990),
            Some(29_995),
            Some(-29_997),
            Some(29_999),
        ]);
        GameRecord {
            rule: Rule::Freestyle,
            width: 15,
            height: 15,
            outcome: Outcome::Black,
            opening: 3,
            moves,
            scores,
            best: Vec::new(),
        }
    }

    #[test]
    fn round_trip() {
        let g = sample();
        let line = g.to_line();
        assert!(line.starts_with("freestyle 15x15 black 3 h8 i9 g7 j10:-21 f6:35"));
        assert_eq!(GameRecord::parse(&line, 1).unwrap(), g);
        let mut buf = Vec::new();
        write_header(&mut buf).unwrap();
        writeln!(buf, "{}", line).unwrap();
        writeln!(buf, "renju 15x15 draw 0").unwrap();
        let games = read_games(&mut buf.as_slice()).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0], g);
        assert_eq!(games[1].rule, Rule::Renju);
        assert!(games[1].moves.is_empty());
    }

    /// A labelled game carries the labelling engine's chosen move after `>`; it reads back
    /// unchanged, a move without one reads as `None`, and a bad point is an error.
    #[test]
    fn best_moves_round_trip() {
        let mut g = sample();
        g.best = vec![None; g.moves.len()];
        g.best[3] = Some(parse_point("k11", 15, 15).unwrap());
        g.best[4] = Some(parse_point("a15", 15, 15).unwrap());
        let line = g.to_line();
        assert!(line.contains(" j10:-21>k11 f6:35>a15 a1:-29990 "), "{line}");
        assert_eq!(GameRecord::parse(&line, 1).unwrap(), g);
        assert!(matches!(
            GameRecord::parse("freestyle 15x15 black 0 h8:3>z99", 1),
            Err(DataError::Bad {
                what: "best move",
                ..
            })
        ));
        let plain = GameRecord::parse("freestyle 15x15 black 0 h8:3 i9", 1).unwrap();
        assert!(plain.best.is_empty());
    }

    #[test]
    fn a_file_without_newlines_is_refused_not_read_whole() {
        let blob = vec![b'x'; MAX_LINE + 10];
        let e = read_games(&mut blob.as_slice()).unwrap_err();
        assert!(e.to_string().contains("longer than"), "{e}");
    }

    #[test]
    fn bad_lines() {
        assert!(matches!(
            GameRecord::parse("freestyle 15x15", 3),
            Err(DataError::Missing { line: 3, .. })
        ));
        assert!(matches!(
            GameRecord::parse("gomokux 15x15 black 0", 1),
            Err(DataError::Bad { what: "rule", .. })
        ));
        assert!(matches!(
            GameRecord::parse("freestyle 15x15 black 0 h8 h8", 1),
            Err(DataError::Illegal { .. })
        ));
        assert!(matches!(
            GameRecord::parse("freestyle 30x15 black 0", 1),
            Err(DataError::Bad { what: "size", .. })
        ));
        assert!(matches!(
            GameRecord::parse("freestyle 15x15 black 0 h8:x", 1),
            Err(DataError::Bad { what: "score", .. })
        ));
        assert!(matches!(
            GameRecord::parse("freestyle 15x15 black 5 h8", 1),
            Err(DataError::Bad {
                what: "opening length",
                ..
            })
        ));
        // A move after a five.
        let line = "freestyle 15x15 black 0 h8 a1 i8 a2 j8 a3 k8 a4 l8 a5";
        assert!(matches!(
            GameRecord::parse(line, 1),
            Err(DataError::Illegal { .. })
        ));
    }
}
