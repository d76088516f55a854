//! Game files: a game read from a Piskvork `.psq` record, an SGF record or a plain list of
//! moves, and the `.psq` and SGF text of a game.
//!
//! Every format here uses the one orientation of the project (docs/rules.md §1): protocol
//! `x,y` with `x` the column from the left and `y` the row from the top, both from 0.
//! - **psq** (Piskvork): a header `Piskvorky <w>x<h>, <a>:<b>, <c>`, then one line
//!   `x,y,ms` per stone with 1-based `x,y` (so protocol `x+1,y+1`) and the thinking time, in
//!   play order from black; whatever follows the first line that is not a stone (the players'
//!   names, a result code) is not part of the position. Piskvork draws `1,1` in the top-left
//!   corner.
//! - **SGF** (`GM[4]`, as c-gomoku-cli writes it): a point is two letters, `a` + `x` then
//!   `a` + `y`, so `aa` is the top-left corner, as every SGF viewer draws it. `SZ[n]` or
//!   `SZ[w:h]` gives the board, `RU[...]` the rule (a name of [`Rule::parse`] or a Gomocup
//!   number), `PB`/`PW` the players; `B[..]`/`W[..]` nodes are the moves, and setup stones
//!   (`AB`, `AW`) are taken as moves when their counts allow (black as many as white or one
//!   more). Only the main line is read (the first variation at each branch).
//! - **moves**: any text that [`parse_move_text`] reads (notation or `x,y` points), with `#`
//!   starting a comment that runs to the end of its line.

use crate::core::{parse_move_text, Pos, Rule};
use std::path::Path;
use thiserror::Error;

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
    /// The format a file name asks for when writing: SGF for `.sgf`, a move list for `.txt`,
    /// psq otherwise.
    pub fn for_path(path: &Path) -> GameFormat {
        match path
            .extension()
            .and_then(|e| e.to_str())
            .map(|e| e.to_ascii_lowercase())
            .as_deref()
        {
            Some("sgf") => GameFormat::Sgf,
            Some("txt") => GameFormat::Moves,
            _ => GameFormat::Psq,
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
    /// The rule the file names (SGF `RU`), if it names one this engine knows.
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
        path: path.display().to_string(),
        source,
    })?;
    let text = String::from_utf8_lossy(&bytes);
    parse_game(&text, size).map_err(|e| match e {
        GameFileError::Parse(m) => GameFileError::Parse(format!("{}: {m}", path.display())),
        other => other,
    })
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
        for line in t.lines() {
            clean.push_str(line.split('#').next().unwrap_or(""));
            clean.push('\n');
        }
        let moves = parse_move_text(&clean, size.0, size.1)
            .map_err(|e| GameFileError::Parse(e.to_string()))?;
        Ok(GameFile {
            format: GameFormat::Moves,
            size: None,
            rule: None,
            moves,
            black: None,
            white: None,
        })
    }
}

fn parse_err(msg: String) -> GameFileError {
    GameFileError::Parse(msg)
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
        .ok_or_else(|| parse_err(format!("psq header '{}' has no WxH size", header.trim())))?;
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
            let nums: Option<Vec<i64>> = line.split(',').map(|t| t.trim().parse().ok()).collect();
            match nums {
                Some(n) if (2..=3).contains(&n.len()) => {
                    let (x, y) = (n[0], n[1]);
                    if x < 1 || y < 1 || x as usize > dims.0 || y as usize > dims.1 {
                        return Err(parse_err(format!(
                            "psq line {}: stone '{line}' is off the {}x{} board",
                            i + 2,
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
    // After the stones Piskvork writes the two players' names, then a result code.
    let names = (rest.len() >= 2 && rest[0].parse::<i64>().is_err())
        .then(|| (rest[0].clone(), rest[1].clone()));
    Ok(GameFile {
        format: GameFormat::Psq,
        size: Some(dims),
        rule: None,
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
                return Err(self.err(&format!("property {ident} without a value")));
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
            "SGF: a pass ('{v}') is not a gomoku move"
        )));
    }
    if b.len() != 2 || !b[0].is_ascii_lowercase() || !b[1].is_ascii_lowercase() {
        return Err(parse_err(format!("SGF: bad point '{v}'")));
    }
    let (x, y) = ((b[0] - b'a') as usize, (b[1] - b'a') as usize);
    if x >= size.0 || y >= size.1 {
        return Err(parse_err(format!(
            "SGF: point '{v}' is off the {}x{} board",
            size.0, size.1
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
                "SGF: game GM[{gm}] is not gomoku/renju (GM[4])"
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
                _ => return Err(parse_err(format!("SGF: bad size SZ[{sz}]"))),
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
        rule: get("RU").and_then(|r| Rule::parse(&r)),
        moves: all,
        black: get("PB"),
        white: get("PW"),
    })
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

/// The psq text of a game: header, `x+1,y+1,0` lines, the names and result code 0.
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
    s
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

/// The moves as a notation list, one line (`h8,h9,i10`), for `.txt` files.
pub fn to_move_list(moves: &[Pos]) -> String {
    let v: Vec<String> = moves.iter().map(|p| p.to_notation()).collect();
    format!("{}\n", v.join(","))
}

/// The text of a game in `format`.
pub fn game_text(format: GameFormat, g: &GameRecordText) -> String {
    match format {
        GameFormat::Psq => to_psq(g),
        GameFormat::Sgf => to_sgf(g),
        GameFormat::Moves => to_move_list(g.moves),
    }
}

fn one_line(s: &str) -> String {
    s.replace(['\r', '\n'], " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: usize, y: usize) -> Pos {
        Pos::new(x, y)
    }

    #[test]
    fn psq_read() {
        let g = parse_game(
            "Piskvorky 15x15, 11:11, 0\n8,8,0\n8,9,12\n1,1,3\nA\nB\n15\n",
            (20, 20),
        )
        .unwrap();
        assert_eq!(g.format, GameFormat::Psq);
        assert_eq!(g.size, Some((15, 15)));
        assert_eq!(g.moves, [p(7, 7), p(7, 8), p(0, 0)]);
        assert_eq!(
            (g.black.as_deref(), g.white.as_deref()),
            (Some("A"), Some("B"))
        );
        assert!(parse_game("Piskvorky 15x15, 11:11, 0\n16,1,0\n", (15, 15)).is_err());
        assert!(parse_game("Piskvorky big, 11:11, 0\n", (15, 15)).is_err());
    }

    #[test]
    fn sgf_read_main_line_and_setup() {
        // c-gomoku-cli style: RU as a number, comments, a variation after the main line.
        let g = parse_game(
            "(;FF[4]GM[4]SZ[15]RU[4]PB[x\\]y]PW[B];B[hh]C[opening move];W[hi]\n(;B[ij];W[aa])(;B[oo]))",
            (15, 15),
        )
        .unwrap();
        assert_eq!(g.format, GameFormat::Sgf);
        assert_eq!(g.rule, Some(Rule::Renju));
        assert_eq!(g.black.as_deref(), Some("x]y"));
        assert_eq!(g.moves, [p(7, 7), p(7, 8), p(8, 9), p(0, 0)]);
        let g = parse_game("(;GM[4]SZ[20:15]AB[hh][ii]AW[hi];W[aa])", (15, 15)).unwrap();
        assert_eq!(g.size, Some((20, 15)));
        assert_eq!(g.moves, [p(7, 7), p(7, 8), p(8, 8), p(0, 0)]);
        for bad in [
            "(;GM[1]SZ[19];B[aa])",
            "(;GM[4]SZ[15];B[hh];B[hi])",
            "(;GM[4]SZ[15];B[])",
            "(;GM[4]SZ[15];B[zz])",
            "(;GM[4]SZ[15];B[hh]",
        ] {
            assert!(parse_game(bad, (15, 15)).is_err(), "{bad}");
        }
    }

    #[test]
    fn move_list_read() {
        let g = parse_game("# a game\nh8 h9 # first two\n7,9\n", (15, 15)).unwrap();
        assert_eq!(g.format, GameFormat::Moves);
        assert_eq!(g.moves, [p(7, 7), p(7, 8), p(7, 9)]);
        assert!(parse_game("h8 q1", (15, 15)).is_err());
    }

    #[test]
    fn written_games_read_back() {
        let moves = [p(7, 7), p(7, 8), p(0, 0), p(14, 9)];
        let g = GameRecordText {
            width: 15,
            height: 10,
            rule: Rule::Renju,
            black: "A",
            white: "B]",
            moves: &moves,
            result: "B+",
        };
        for f in [GameFormat::Psq, GameFormat::Sgf, GameFormat::Moves] {
            let text = game_text(f, &g);
            let back = parse_game(&text, (15, 10)).unwrap();
            assert_eq!(back.moves, moves, "{f:?}: {text}");
            assert_eq!(back.format, f);
            if f != GameFormat::Moves {
                assert_eq!(back.size, Some((15, 10)), "{text}");
                assert_eq!(back.white.as_deref(), Some("B]"));
            }
        }
        // The SGF row letter counts from the top like the protocol's y: h8 = 7,7 = "hh",
        // a1 = 0,0 = "aa".
        assert!(to_sgf(&g).contains(";B[hh];W[hi];B[aa];W[oj]"));
        assert_eq!(GameFormat::for_path(Path::new("x.SGF")), GameFormat::Sgf);
        assert_eq!(GameFormat::for_path(Path::new("x.psq")), GameFormat::Psq);
        assert_eq!(GameFormat::for_path(Path::new("x")), GameFormat::Psq);
    }
}
