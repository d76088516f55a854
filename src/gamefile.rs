//! Game files: a game read from a Piskvork `.psq` record, an SGF record or a plain list of
//! moves, and the `.psq` and SGF text of a game.
//!
//! Every format here uses the one orientation of the project (docs/rules.md §1): protocol
//! `x,y` with `x` the column from the left and `y` the row from the top, both from 0.
//! - **psq** (Piskvork): a header `Piskvorky <w>x<h>, <a>:<b>, <c>`, then one line
//!   `x,y,ms` per stone with 1-based `x,y` (so protocol `x+1,y+1`) and the thinking time, in
//!   play order from black; whatever follows the first line that is not a stone (the players'
//!   names, a result code) is not part of the position. Piskvork draws `1,1` in the top-left
//!   corner. Piskvork's format has no rule; Piskvork reads the two name lines after the
//!   stones and nothing beyond, so our records add a line `rule=<name>` after the result
//!   code ([`PSQ_RULE_PREFIX`]), and the reader takes the rule from such a line (any name or
//!   number of [`Rule::parse`]) or from a Gomocup tournament line `<n>,<Division>` whose
//!   division starts with a rule name (`0,Freestyle15_1`, `0,Renju`).
//! - **SGF** (`GM[4]`, as c-gomoku-cli writes it): a point is two letters, `a` + `x` then
//!   `a` + `y`, so `aa` is the top-left corner, as every SGF viewer draws it. `SZ[n]` or
//!   `SZ[w:h]` gives the board, `RU[...]` the rule (a name of [`Rule::parse`] or a Gomocup
//!   number), `PB`/`PW` the players; `B[..]`/`W[..]` nodes are the moves, and setup stones
//!   (`AB`, `AW`) are taken as moves when their counts allow (black as many as white or one
//!   more). Only the main line is read (the first variation at each branch).
//! - **moves**: any text that [`parse_move_text`] reads (notation or `x,y` points), with `#`
//!   starting a comment that runs to the end of its line; a comment line `# rule=<name>`
//!   names the rule (our move lists start with one).
//!
//! A file with a NUL byte, or whose bytes are mostly not text, is refused as binary before
//! it is parsed; every message quotes the file's content only as a short, escaped
//! [`excerpt`].
//!
//! [`replay`] plays a game's moves on a board and judges where it ended (docs/rules.md §4):
//! a five, black's renju foul, or a full board. Every reader of a game (the tools, the web
//! board's API, `play`'s `load`) goes through it, so a foul is never taken as a position
//! that goes on, and a stone after the end of the game is refused.

use crate::board::{Board, ForbiddenKind, GameResult};
use crate::core::{excerpt, parse_move_text, quote_path, Color, CoordError, Pos, Rule};
use std::path::Path;
use thiserror::Error;

/// The start of the line of our `.psq` records that names the rule (`rule=renju`), written
/// after the result code (see the module docs).
pub const PSQ_RULE_PREFIX: &str = "rule=";

/// The form a game file was written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameFormat {
    /// Piskvork's `.psq`.
    Psq,
    /// Smart Game Format.
    Sgf,
    /// A plain list of moves.
    Moves,
}

impl GameFormat {
    /// The format a file name asks for when writing: psq for `.psq`, SGF for `.sgf`, a move
    /// list for `.txt` (any case).
    ///
    /// Errors: a one-line reason for any other name (no extension, `.xyz`): nothing is
    /// written in a format the name does not say.
    pub fn for_path(path: &Path) -> Result<GameFormat, String> {
        match path
            .extension()
            .and_then(|e| e.to_str())
            .map(|e| e.to_ascii_lowercase())
            .as_deref()
        {
            Some("psq") => Ok(GameFormat::Psq),
            Some("sgf") => Ok(GameFormat::Sgf),
            Some("txt") => Ok(GameFormat::Moves),
            _ => Err(format!(
                "{}: give a file name ending in .psq, .sgf or .txt (the format to write)",
                quote_path(path)
            )),
        }
    }

    /// The format's name for people: `psq`, `SGF`, `move list`.
    pub fn name(self) -> &'static str {
        match self {
            GameFormat::Psq => "psq",
            GameFormat::Sgf => "SGF",
            GameFormat::Moves => "move list",
        }
    }
}

/// A game read from a file: the board the file names (if it names one) and the stones in
/// play order from black.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameFile {
    /// The form the file was in.
    pub format: GameFormat,
    /// Board `(width, height)` in points as the file gives it (psq header, SGF `SZ`); `None`
    /// for a move list or an SGF without `SZ`.
    pub size: Option<(usize, usize)>,
    /// The rule the file names (SGF `RU`, psq `rule=` or Gomocup division line, move list
    /// `# rule=` comment), if it names one this engine knows.
    pub rule: Option<Rule>,
    /// The stones in play order, black first, alternating.
    pub moves: Vec<Pos>,
    /// Black's name (psq: the first name line; SGF `PB`).
    pub black: Option<String>,
    /// White's name.
    pub white: Option<String>,
}

/// Errors of reading a game file.
#[derive(Debug, Error)]
pub enum GameFileError {
    /// The file cannot be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The OS error.
        source: std::io::Error,
    },
    /// The text is not a game this module reads; the message names the line or property.
    #[error("{0}")]
    Parse(String),
}

/// Reads a game file of any of the three forms (told apart by their content, see
/// [`parse_game`]). `size` is the board used to check the points of a move list, whose text
/// names no board.
///
/// Errors: [`GameFileError::Io`] for an unreadable file, [`GameFileError::Parse`] (prefixed
/// with the path) for bad content.
pub fn read_game(path: &Path, size: (usize, usize)) -> Result<GameFile, GameFileError> {
    let bytes = std::fs::read(path).map_err(|source| GameFileError::Io {
        path: quote_path(path),
        source,
    })?;
    let name = quote_path(path);
    if let Some(why) = binary_reason(&bytes) {
        return Err(GameFileError::Parse(format!(
            "{name}: not a game file: {why} (a .psq, SGF or move list is text)"
        )));
    }
    let text = String::from_utf8_lossy(&bytes);
    parse_game(&text, size).map_err(|e| match e {
        GameFileError::Parse(m) => GameFileError::Parse(format!("{name}: {m}")),
        other => other,
    })
}

/// Why `bytes` are not text, if they are not: a NUL byte, or more than one byte in 16 of
/// the first 4 KiB that is a control character other than tab, CR, LF and form feed, or
/// invalid UTF-8.
pub fn binary_reason(bytes: &[u8]) -> Option<String> {
    if let Some(i) = bytes.iter().position(|&b| b == 0) {
        return Some(format!("binary data (a NUL byte at byte {i})"));
    }
    let head = &bytes[..bytes.len().min(4096)];
    let text = String::from_utf8_lossy(head);
    let odd = text
        .chars()
        .filter(|&c| {
            (c.is_control() && !matches!(c, '\t' | '\r' | '\n' | '\u{c}')) || c == '\u{fffd}'
        })
        .count();
    (odd * 16 > head.len()).then(|| "binary data (mostly unprintable bytes)".to_string())
}

/// Parses a game: psq when the text starts with `Piskvorky`, SGF when it starts with `(`,
/// else a move list checked against `size` (`(width, height)`). Points are checked against
/// the board (the file's own size when it gives one) but not for repeats: playing the moves
/// on a [`crate::board::Board`] does that.
///
/// Errors: [`GameFileError::Parse`] naming the bad line, property or point.
pub fn parse_game(text: &str, size: (usize, usize)) -> Result<GameFile, GameFileError> {
    let t = text.trim_start_matches('\u{feff}').trim_start();
    if t.starts_with("Piskvorky") {
        parse_psq(t)
    } else if t.starts_with('(') {
        parse_sgf(t)
    } else {
        let mut clean = String::new();
        let mut rule = None;
        for line in t.lines() {
            let (moves, comment) = line.split_once('#').unwrap_or((line, ""));
            clean.push_str(moves);
            clean.push('\n');
            if let Some(name) = comment.trim().strip_prefix(PSQ_RULE_PREFIX) {
                rule = Some(named_rule(name, "move list comment")?);
            }
        }
        let moves = parse_move_text(&clean, size.0, size.1)
            .map_err(|e| GameFileError::Parse(e.to_string()))?;
        Ok(GameFile {
            format: GameFormat::Moves,
            size: None,
            rule,
            moves,
            black: None,
            white: None,
        })
    }
}

fn parse_err(msg: String) -> GameFileError {
    GameFileError::Parse(msg)
}

/// The rule `name` of a file's rule line or property (`where` says which, for the message).
///
/// Errors: a name [`Rule::parse`] does not know, with the valid rules.
fn named_rule(name: &str, place: &str) -> Result<Rule, GameFileError> {
    Rule::parse(name).ok_or_else(|| {
        parse_err(format!(
            "{place}: unknown rule '{}' ({})",
            excerpt(name.trim()),
            crate::core::RULE_CHOICES
        ))
    })
}

/// The rule of a psq line after the stones: our `rule=<name>` line, or a Gomocup
/// tournament line `<n>,<Division>` whose division starts with a rule name.
fn psq_rule_line(line: &str) -> Result<Option<Rule>, GameFileError> {
    if let Some(name) = line.strip_prefix(PSQ_RULE_PREFIX) {
        return named_rule(name, "psq rule line").map(Some);
    }
    if let Some((n, division)) = line.split_once(',') {
        if n.trim().parse::<i64>().is_ok() {
            let d = division.trim().to_ascii_lowercase();
            for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro] {
                if d.starts_with(rule.name()) {
                    return Ok(Some(rule));
                }
            }
        }
    }
    Ok(None)
}

/// Parses `.psq` text (see the module docs).
fn parse_psq(text: &str) -> Result<GameFile, GameFileError> {
    let mut lines = text.lines();
    let header = lines.next().unwrap_or("");
    let dims = header
        .strip_prefix("Piskvorky")
        .and_then(|r| r.trim_start().split(',').next())
        .and_then(|d| d.trim().split_once(['x', 'X']))
        .and_then(|(w, h)| {
            Some((
                w.trim().parse::<usize>().ok()?,
                h.trim().parse::<usize>().ok()?,
            ))
        })
        .ok_or_else(|| {
            parse_err(format!(
                "psq header '{}' has no WxH size",
                excerpt(header.trim())
            ))
        })?;
    crate::core::check_size(dims.0, dims.1).map_err(|e| parse_err(e.to_string()))?;
    let mut moves = Vec::new();
    let mut rest = Vec::new();
    let mut in_moves = true;
    for (i, raw) in lines.enumerate() {
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        if in_moves {
            let nums: Option<Vec<i64>> = line
                .split(',')
                .map(crate::core::parse_coord_number)
                .collect();
            match nums {
                Some(n) if (2..=3).contains(&n.len()) => {
                    let (x, y) = (n[0], n[1]);
                    if x < 1 || y < 1 || x as usize > dims.0 || y as usize > dims.1 {
                        return Err(parse_err(format!(
                            "psq line {}: stone '{}' is off the {}x{} board",
                            i + 2,
                            excerpt(line),
                            dims.0,
                            dims.1
                        )));
                    }
                    moves.push(Pos::new(x as usize - 1, y as usize - 1));
                    continue;
                }
                _ => in_moves = false,
            }
        }
        rest.push(line.to_string());
    }
    // After the stones Piskvork writes the two players' names, then a result code; our
    // records add the rule line.
    let names = (rest.len() >= 2
        && rest[0].parse::<i64>().is_err()
        && !rest[0].starts_with(PSQ_RULE_PREFIX))
    .then(|| (rest[0].clone(), rest[1].clone()));
    let mut rule = None;
    for line in &rest {
        if let Some(r) = psq_rule_line(line)? {
            rule = Some(r);
        }
    }
    Ok(GameFile {
        format: GameFormat::Psq,
        size: Some(dims),
        rule,
        moves,
        black: names.as_ref().map(|n| n.0.clone()),
        white: names.map(|n| n.1),
    })
}

/// One SGF node: its properties in order, each with its values.
type SgfNode = Vec<(String, Vec<String>)>;

/// A small SGF reader: the main line of the first game tree.
struct SgfReader<'a> {
    s: &'a [u8],
    i: usize,
}

impl<'a> SgfReader<'a> {
    fn skip_ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.s.get(self.i).copied()
    }

    fn err(&self, what: &str) -> GameFileError {
        parse_err(format!("SGF: {what} at byte {}", self.i))
    }

    /// `( node* tree* )`: returns the nodes of the main line (the first subtree's, after
    /// this tree's own).
    fn tree(&mut self, out: &mut Vec<SgfNode>, main: bool) -> Result<(), GameFileError> {
        if self.peek() != Some(b'(') {
            return Err(self.err("expected '('"));
        }
        self.i += 1;
        while self.peek() == Some(b';') {
            self.i += 1;
            let node = self.node()?;
            if main {
                out.push(node);
            }
        }
        let mut first = true;
        while self.peek() == Some(b'(') {
            self.tree(out, main && first)?;
            first = false;
        }
        if self.peek() != Some(b')') {
            return Err(self.err("expected ')'"));
        }
        self.i += 1;
        Ok(())
    }

    fn node(&mut self) -> Result<SgfNode, GameFileError> {
        let mut props = Vec::new();
        loop {
            self.skip_ws();
            let start = self.i;
            while self.i < self.s.len() && self.s[self.i].is_ascii_alphabetic() {
                self.i += 1;
            }
            if self.i == start {
                return Ok(props);
            }
            // FF[3]-style identifiers may hold lower-case letters; only capitals count.
            let ident: String = self.s[start..self.i]
                .iter()
                .filter(|b| b.is_ascii_uppercase())
                .map(|&b| b as char)
                .collect();
            let mut values = Vec::new();
            while self.peek() == Some(b'[') {
                self.i += 1;
                let mut v = Vec::new();
                loop {
                    match self.s.get(self.i) {
                        None => return Err(self.err("unterminated value")),
                        Some(b']') => {
                            self.i += 1;
                            break;
                        }
                        Some(b'\\') => {
                            if let Some(&c) = self.s.get(self.i + 1) {
                                v.push(c);
                            }
                            self.i += 2;
                        }
                        Some(&c) => {
                            v.push(c);
                            self.i += 1;
                        }
                    }
                }
                values.push(String::from_utf8_lossy(&v).into_owned());
            }
            if values.is_empty() {
                return Err(self.err(&format!("property {} without a value", excerpt(&ident))));
            }
            props.push((ident, values));
        }
    }
}

/// The point of an SGF value `xy` (letters from `a`; see the module docs).
fn sgf_pos(v: &str, size: (usize, usize)) -> Result<Pos, GameFileError> {
    let b = v.trim().as_bytes();
    if b.is_empty() || v.trim() == "tt" {
        return Err(parse_err(format!(
            "SGF: a pass ('{}') is not a gomoku move",
            excerpt(v)
        )));
    }
    if b.len() != 2 || !b[0].is_ascii_lowercase() || !b[1].is_ascii_lowercase() {
        return Err(parse_err(format!("SGF: bad point '{}'", excerpt(v))));
    }
    let (x, y) = ((b[0] - b'a') as usize, (b[1] - b'a') as usize);
    if x >= size.0 || y >= size.1 {
        return Err(parse_err(format!(
            "SGF: point '{}' is off the {}x{} board",
            excerpt(v),
            size.0,
            size.1
        )));
    }
    Ok(Pos::new(x, y))
}

/// Parses SGF text (see the module docs).
fn parse_sgf(text: &str) -> Result<GameFile, GameFileError> {
    let mut r = SgfReader {
        s: text.as_bytes(),
        i: 0,
    };
    let mut nodes = Vec::new();
    r.tree(&mut nodes, true)?;
    let root = nodes.first().cloned().unwrap_or_default();
    let get = |k: &str| {
        root.iter()
            .find(|(id, _)| id == k)
            .map(|(_, v)| v[0].clone())
    };
    if let Some(gm) = get("GM") {
        if gm.trim() != "4" {
            return Err(parse_err(format!(
                "SGF: game GM[{}] is not gomoku/renju (GM[4])",
                excerpt(&gm)
            )));
        }
    }
    let size = match get("SZ") {
        Some(sz) => {
            let (w, h) = match sz.split_once(':') {
                Some((w, h)) => (w.trim().parse().ok(), h.trim().parse().ok()),
                None => (sz.trim().parse().ok(), sz.trim().parse().ok()),
            };
            match (w, h) {
                (Some(w), Some(h)) => {
                    crate::core::check_size(w, h).map_err(|e| parse_err(e.to_string()))?;
                    Some((w, h))
                }
                _ => return Err(parse_err(format!("SGF: bad size SZ[{}]", excerpt(&sz)))),
            }
        }
        None => None,
    };
    let board = size.unwrap_or((15, 15));
    let mut setup = [Vec::new(), Vec::new()];
    let mut moves: Vec<Pos> = Vec::new();
    let mut colors = Vec::new();
    for node in &nodes {
        for (id, values) in node {
            match id.as_str() {
                "AB" | "AW" => {
                    if !moves.is_empty() {
                        return Err(parse_err(format!(
                            "SGF: setup stones {id} after the first move are not supported"
                        )));
                    }
                    let k = usize::from(id == "AW");
                    for v in values {
                        setup[k].push(sgf_pos(v, board)?);
                    }
                }
                "B" | "W" => {
                    moves.push(sgf_pos(&values[0], board)?);
                    colors.push(id == "W");
                }
                _ => {}
            }
        }
    }
    let (nb, nw) = (setup[0].len(), setup[1].len());
    if nb + nw > 0 && !(nb == nw || nb == nw + 1) {
        return Err(parse_err(format!(
            "SGF: {nb} black and {nw} white setup stones cannot be read as moves"
        )));
    }
    let mut all = Vec::new();
    for (i, &p) in setup[0].iter().enumerate() {
        all.push(p);
        if let Some(&q) = setup[1].get(i) {
            all.push(q);
        }
    }
    let offset = all.len();
    for (k, (&p, &white)) in moves.iter().zip(&colors).enumerate() {
        let white_to_move = (offset + k) % 2 == 1;
        if white != white_to_move {
            return Err(parse_err(format!(
                "SGF: move {} is {}'s but {} is to move",
                offset + k + 1,
                if white { "white" } else { "black" },
                if white_to_move { "white" } else { "black" }
            )));
        }
        all.push(p);
    }
    Ok(GameFile {
        format: GameFormat::Sgf,
        size,
        rule: match get("RU") {
            Some(r) => Some(named_rule(&r, "SGF RU")?),
            None => None,
        },
        moves: all,
        black: get("PB"),
        white: get("PW"),
    })
}

/// How a game given as moves ended (docs/rules.md §4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// Move `ply` (1-based), at `point`, made a five for `winner` under the rule.
    Five {
        /// The colour that made the five.
        winner: Color,
        /// The number of the move, from 1.
        ply: usize,
        /// Where it was played.
        point: Pos,
    },
    /// Black's move `ply`, at `point`, is a renju foul (a forbidden point of `kind` that
    /// makes no five): black loses at once (docs/rules.md §3.2).
    Foul {
        /// The number of the move, from 1.
        ply: usize,
        /// Where it was played.
        point: Pos,
        /// What made the point forbidden.
        kind: ForbiddenKind,
    },
    /// Move `ply` filled the board without a five: a draw.
    Full {
        /// The number of the move, from 1.
        ply: usize,
    },
}

impl GameEnd {
    /// The winner, `None` for a draw.
    pub fn winner(self) -> Option<Color> {
        match self {
            GameEnd::Five { winner, .. } => Some(winner),
            GameEnd::Foul { .. } => Some(Color::White),
            GameEnd::Full { .. } => None,
        }
    }

    /// The move that ended the game, from 1.
    pub fn ply(self) -> usize {
        match self {
            GameEnd::Five { ply, .. } | GameEnd::Foul { ply, .. } | GameEnd::Full { ply } => ply,
        }
    }

    /// How it ended, as a word: `five`, `foul` or `full`.
    pub fn kind(self) -> &'static str {
        match self {
            GameEnd::Five { .. } => "five",
            GameEnd::Foul { .. } => "foul",
            GameEnd::Full { .. } => "full",
        }
    }

    /// The result for people, naming the rule that decided it, e.g. `white wins: black's
    /// move 9 (h9) is a double three, forbidden to black under renju (docs/rules.md §3.2)`.
    pub fn describe(self, rule: Rule) -> String {
        match self {
            GameEnd::Five { winner, ply, point } => format!(
                "{} wins: move {ply} ({point}) makes a five under {rule}",
                winner.name()
            ),
            GameEnd::Foul { ply, point, kind } => format!(
                "white wins: black's move {ply} ({point}) is a {}, forbidden to black under \
                 {rule} (docs/rules.md §3.2)",
                kind.name().replace('-', " ")
            ),
            GameEnd::Full { ply } => format!("draw: move {ply} filled the board"),
        }
    }

    /// The SGF result of the game: `B+`, `W+` or `0`.
    pub fn sgf_result(self) -> &'static str {
        match self.winner() {
            Some(Color::Black) => "B+",
            Some(Color::White) => "W+",
            None => "0",
        }
    }
}

/// A game's moves played on a board ([`replay`]).
#[derive(Clone)]
pub struct Replay {
    /// The position after the last move.
    pub board: Board,
    /// How the game ended, if the last move ended it.
    pub end: Option<GameEnd>,
}

/// Why a list of moves is not a game ([`replay`]).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ReplayError {
    /// Move `ply` (1-based) is off the board or on a stone.
    #[error("move {ply} ({point}): {error}")]
    Illegal {
        /// The number of the move, from 1.
        ply: usize,
        /// The point as read.
        point: Pos,
        /// What is wrong with it.
        error: CoordError,
    },
    /// Move `ply` comes after the move that ended the game.
    #[error("move {ply} ({point}) comes after the end of the game ({})", end.describe(*rule))]
    AfterEnd {
        /// The number of the move, from 1.
        ply: usize,
        /// Where it was played.
        point: Pos,
        /// How the game had ended.
        end: GameEnd,
        /// The rule played.
        rule: Rule,
    },
}

/// Plays `moves` (alternately from black) on an empty `width` x `height` board under
/// `rule` and judges each one as a referee would (docs/rules.md §4): a five wins, black's
/// renju foul (a forbidden point that makes no five, §3.2) loses, a move that fills the
/// board draws.
///
/// Errors: [`ReplayError::Illegal`] for a point off the board or on a stone,
/// [`ReplayError::AfterEnd`] for a move after the one that ended the game. A board of a
/// bad size is reported as [`ReplayError::Illegal`] of move 0.
pub fn replay(
    width: usize,
    height: usize,
    rule: Rule,
    moves: &[Pos],
) -> Result<Replay, ReplayError> {
    let mut board = Board::new(width, height, rule).map_err(|error| ReplayError::Illegal {
        ply: 0,
        point: Pos::NONE,
        error,
    })?;
    let mut end = None;
    for (i, &p) in moves.iter().enumerate() {
        let ply = i + 1;
        if let Some(end) = end {
            return Err(ReplayError::AfterEnd {
                ply,
                point: p,
                end,
                rule,
            });
        }
        board.check_move(p).map_err(|error| ReplayError::Illegal {
            ply,
            point: p,
            error,
        })?;
        let mover = board.side_to_move();
        let foul = if board.rule().has_forbidden(mover) && !board.is_five(mover, p) {
            board.forbidden(p)
        } else {
            None
        };
        end = match (board.result_of_move(p), foul) {
            (_, Some(kind)) => Some(GameEnd::Foul {
                ply,
                point: p,
                kind,
            }),
            (Some(GameResult::Win(winner)), None) => Some(GameEnd::Five {
                winner,
                ply,
                point: p,
            }),
            (Some(GameResult::Draw), None) => Some(GameEnd::Full { ply }),
            (None, None) => None,
        };
        board.make(p);
    }
    Ok(Replay { board, end })
}

/// The SGF point of `p`: column letter then row letter, both from `a` (module docs).
pub fn sgf_point(p: Pos) -> String {
    format!(
        "{}{}",
        (b'a' + p.x() as u8) as char,
        (b'a' + p.y() as u8) as char
    )
}

/// Escapes an SGF text value (`\` and `]`).
pub fn sgf_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace(']', "\\]")
}

/// The SGF `SZ` value of a board: `n` when square, `w:h` otherwise.
pub fn sgf_size(width: usize, height: usize) -> String {
    if width == height {
        width.to_string()
    } else {
        format!("{width}:{height}")
    }
}

/// A game to write: board, rule, players, stones and result.
#[derive(Clone, Debug)]
pub struct GameRecordText<'a> {
    /// Board width in points.
    pub width: usize,
    /// Board height in points.
    pub height: usize,
    /// The rule played.
    pub rule: Rule,
    /// Black's name.
    pub black: &'a str,
    /// White's name.
    pub white: &'a str,
    /// The stones in play order from black.
    pub moves: &'a [Pos],
    /// SGF result (`B+`, `W+`, `0` for a draw, empty while the game goes on).
    pub result: &'a str,
}

/// The psq text of a game: header, `x+1,y+1,0` lines, the names, result code 0 and the
/// rule line ([`psq_rule`]).
pub fn to_psq(g: &GameRecordText) -> String {
    let mut s = format!("Piskvorky {}x{}, 11:11, 0\n", g.width, g.height);
    for p in g.moves {
        s.push_str(&format!("{},{},0\n", p.x() + 1, p.y() + 1));
    }
    s.push_str(&format!(
        "{}\n{}\n0\n",
        one_line(g.black),
        one_line(g.white)
    ));
    s.push_str(&psq_rule(g.rule));
    s
}

/// The line our psq records end with: `rule=<name>` and a newline (see the module docs).
pub fn psq_rule(rule: Rule) -> String {
    format!("{PSQ_RULE_PREFIX}{}\n", rule.name())
}

/// The SGF text of a game (`GM[4]`, points as in the module docs).
pub fn to_sgf(g: &GameRecordText) -> String {
    let mut s = format!(
        "(;FF[4]GM[4]CA[UTF-8]AP[tianyuan:{}]SZ[{}]RU[{}]PB[{}]PW[{}]",
        env!("CARGO_PKG_VERSION"),
        sgf_size(g.width, g.height),
        g.rule.name(),
        sgf_escape(g.black),
        sgf_escape(g.white)
    );
    if !g.result.is_empty() {
        s.push_str(&format!("RE[{}]", sgf_escape(g.result)));
    }
    s.push('\n');
    for (i, p) in g.moves.iter().enumerate() {
        let c = if i % 2 == 0 { 'B' } else { 'W' };
        s.push_str(&format!(";{c}[{}]", sgf_point(*p)));
        if (i + 1) % 12 == 0 {
            s.push('\n');
        }
    }
    s.push_str(")\n");
    s
}

/// The moves as a notation list (`h8,h9,i10`) after a comment line naming the rule
/// (`# rule=renju`), for `.txt` files.
pub fn to_move_list(rule: Rule, moves: &[Pos]) -> String {
    let v: Vec<String> = moves.iter().map(|p| p.to_notation()).collect();
    format!("# {}{}\n", psq_rule(rule), v.join(","))
}

/// The text of a game in `format`.
pub fn game_text(format: GameFormat, g: &GameRecordText) -> String {
    match format {
        GameFormat::Psq => to_psq(g),
        GameFormat::Sgf => to_sgf(g),
        GameFormat::Moves => to_move_list(g.rule, g.moves),
    }
}

fn one_line(s: &str) -> String {
    s.replace(['\r', '\n'], " ")
}

#[cfg(test)]
mod tests;
