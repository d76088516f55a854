//! Opening files for matches.
//!
//! Three line forms are read (blank lines and `#` comments are skipped):
//! - `<code> <size> rule=<rule> moves=<m1>,<m2>,... name=<text>` (the 26 renju openings);
//! - `<suite>-<nn> <size> rule=<rule|any> moves=<m1>,... src=<text>` (opening suites);
//! - a plain list of moves `h8,h9,i10` (commas and/or spaces), for the match's board size;
//! - c-gomoku-cli's `pos` lines (`h8h9i10`) and Gomocup's `offset` lines (`0,0, 0,1, 1,2`,
//!   offsets from `(size / 2, size / 2)`), as `pbrain-tianyuan openings generate` writes them
//!   (docs/openings.md §3).
//!
//! Points are human notation, column letter then row number (`h8` = `7,7`, row 1 at the top:
//! docs/rules.md §1), in play order from black. Lines for another board size are skipped (and
//! counted); a line's `rule=` is kept in [`Opening::rule`] so that the match can warn when
//! openings made for one rule are played under another, but the same stones are a valid start
//! under every rule the referee then checks them with.

use crate::board::Board;
use crate::core::{parse_point, Pos, Rule};
use std::path::Path;
use thiserror::Error;

/// Errors of reading an openings file.
#[derive(Debug, Error)]
pub enum OpeningError {
    /// The file could not be read.
    #[error("cannot read openings file {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The OS error.
        source: std::io::Error,
    },
    /// The file is not text (a NUL byte, mostly unprintable bytes).
    #[error("openings file {path} is not a text file: {why}")]
    NotText {
        /// The file.
        path: String,
        /// What gives it away.
        why: String,
    },
    /// A line could not be parsed, or its stones are not a playable start (occupied point,
    /// off the board, or a finished game under the match rule).
    #[error("openings file {path}, line {line}: {msg}")]
    Line {
        /// The file.
        path: String,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        msg: String,
    },
    /// No line is usable for this board size.
    #[error("openings file {path}: no opening for a {size}x{size} board ({skipped} lines for other sizes)")]
    Empty {
        /// The file.
        path: String,
        /// The board size asked for.
        size: usize,
        /// Lines skipped because of their size.
        skipped: usize,
    },
}

/// One opening: a name and stones in play order from black.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The line's code (`D1`, `mintaka_arena_openings15-03`) or `line N` for plain lines.
    pub name: String,
    /// The stones, black first, alternating.
    pub moves: Vec<Pos>,
    /// The rule the line names with `rule=` (`None` for `rule=any`, an unknown name or a
    /// plain move list).
    pub rule: Option<Rule>,
}

/// Reads the openings of a file that fit a `size` x `size` board under `rule`.
///
/// Errors: [`OpeningError`] for an unreadable file, a bad line, or no usable line.
pub fn read_openings(path: &Path, size: usize, rule: Rule) -> Result<Vec<Opening>, OpeningError> {
    let p = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|source| OpeningError::Io {
        path: p.clone(),
        source,
    })?;
    if let Some(why) = crate::gamefile::binary_reason(&bytes) {
        return Err(OpeningError::NotText { path: p, why });
    }
    let text = String::from_utf8_lossy(&bytes);
    let (openings, skipped) =
        parse_openings(&text, size, rule).map_err(|(line, msg)| OpeningError::Line {
            path: p.clone(),
            line,
            msg,
        })?;
    if openings.is_empty() {
        return Err(OpeningError::Empty {
            path: p,
            size,
            skipped,
        });
    }
    Ok(openings)
}

/// Parses openings text (see the module docs) for a `size` x `size` board under `rule`.
/// Returns the openings and the number of lines skipped for another size.
///
/// Errors: `(line number, message)` of the first bad line.
pub fn parse_openings(
    text: &str,
    size: usize,
    rule: Rule,
) -> Result<(Vec<Opening>, usize), (usize, String)> {
    let mut out = Vec::new();
    let mut skipped = 0;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let line_rule = line
            .split_whitespace()
            .find_map(|t| t.strip_prefix("rule="))
            .and_then(Rule::parse);
        let (name, line_size, moves_text) = if let Some(at) = line.find("moves=") {
            let head: Vec<&str> = line[..at].split_whitespace().collect();
            let moves_text = line[at + 6..].split_whitespace().next().unwrap_or("");
            let name = head
                .first()
                .map(|s| s.to_string())
                .unwrap_or_else(|| format!("line {n}"));
            let line_size = match head.get(1).filter(|t| !t.contains('=')) {
                Some(t) => Some(
                    t.parse::<usize>()
                        .map_err(|_| (n, format!("bad board size '{t}'")))?,
                ),
                None => None,
            };
            (name, line_size, moves_text.to_string())
        } else if let Some(moves) = crate::opening::suite::parse_pos(line, size)
            .or_else(|| crate::opening::suite::parse_offset(line, size))
        {
            let name = format!("line {n}");
            check_playable(&moves, size, rule).map_err(|m| (n, format!("{name}: {m}")))?;
            out.push(Opening {
                name,
                moves,
                rule: None,
            });
            continue;
        } else {
            (
                format!("line {n}"),
                None,
                line.replace(char::is_whitespace, ","),
            )
        };
        if line_size.is_some_and(|s| s != size) {
            skipped += 1;
            continue;
        }
        let moves = parse_moves(&moves_text, size).map_err(|m| (n, m))?;
        check_playable(&moves, size, rule).map_err(|m| (n, format!("{name}: {m}")))?;
        out.push(Opening {
            name,
            moves,
            rule: line_rule,
        });
    }
    Ok((out, skipped))
}

/// Parses comma-separated notation points (empty entries from repeated separators are
/// ignored; `-` alone is the empty opening).
fn parse_moves(text: &str, size: usize) -> Result<Vec<Pos>, String> {
    if text.trim() == "-" {
        return Ok(Vec::new());
    }
    text.split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|t| {
            if t.starts_with(|c: char| c.is_ascii_digit() || c == '-') {
                return Err(format!("bad point '{t}': use notation like h8"));
            }
            parse_point(t, size, size).map_err(|e| e.to_string())
        })
        .collect()
}

/// Checks that the stones can be played in order and leave an unfinished game.
fn check_playable(moves: &[Pos], size: usize, rule: Rule) -> Result<(), String> {
    let mut b = Board::new(size, size, rule).map_err(|e| e.to_string())?;
    for &p in moves {
        b.check_move(p).map_err(|e| e.to_string())?;
        if b.result_of_move(p).is_some() {
            return Err(format!("the game is over after {p} under {rule}"));
        }
        b.make(p);
    }
    Ok(())
}

pub use crate::core::SplitMix64;
pub use crate::opening::suite::shuffle;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_three_forms() {
        let text = "# comment\n\
            D1 15 rule=renju moves=h8,h9,h10 name=Kansei/寒星\n\
            suite-01 20 rule=freestyle moves=d18,e19,h19 src=x y z\n\
            suite-02 15 rule=any moves=h8,i9 src=a\n\
            \n\
            h8, h9 i10\n\
            h8h9i10\n\
            0,0, 0,1, 1,2\n";
        let (o, skipped) = parse_openings(text, 15, Rule::Renju).unwrap();
        assert_eq!(skipped, 1);
        assert_eq!(o.len(), 5);
        assert_eq!(o[3].moves, o[2].moves, "pos form");
        assert_eq!(o[4].moves, o[2].moves, "offset form");
        assert_eq!(o[0].name, "D1");
        assert_eq!(o[0].rule, Some(Rule::Renju));
        assert_eq!(o[1].rule, None);
        assert_eq!(
            o[0].moves,
            vec![Pos::new(7, 7), Pos::new(7, 8), Pos::new(7, 9)]
        );
        assert_eq!(o[1].name, "suite-02");
        assert_eq!(o[2].name, "line 6");
        assert_eq!(
            o[2].moves,
            vec![Pos::new(7, 7), Pos::new(7, 8), Pos::new(8, 9)]
        );
    }

    #[test]
    fn project_files_parse() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("openings");
        let r = read_openings(&root.join("openings_renju26.txt"), 15, Rule::Renju).unwrap();
        assert_eq!(r.len(), 26);
        assert_eq!(
            r[3].moves
                .iter()
                .map(|p| p.to_notation())
                .collect::<Vec<_>>(),
            ["h8", "h9", "i9"]
        );
        let s15 = read_openings(&root.join("openings_suites.txt"), 15, Rule::Freestyle).unwrap();
        let s20 = read_openings(&root.join("openings_suites.txt"), 20, Rule::Freestyle).unwrap();
        assert!(!s15.is_empty() && !s20.is_empty());
        assert!(s20
            .iter()
            .all(|o| o.moves.iter().all(|p| p.x() < 20 && p.y() < 20)));
    }

    #[test]
    fn bad_lines() {
        assert_eq!(
            parse_openings("h8,h8\n", 15, Rule::Freestyle)
                .unwrap_err()
                .0,
            1
        );
        assert!(parse_openings("x 15 moves=h8,z99\n", 15, Rule::Freestyle).is_err());
        assert!(
            parse_openings("\nx 15 moves=7,7\n", 15, Rule::Freestyle)
                .unwrap_err()
                .0
                == 2
        );
        // Black five in the opening: the game would already be over.
        let five = "a1,a15,b1,b15,c1,c15,d1,d15,e1";
        assert!(parse_openings(five, 15, Rule::Freestyle).is_err());
        assert!(matches!(
            read_openings(Path::new("/nonexistent/openings.txt"), 15, Rule::Freestyle),
            Err(OpeningError::Io { .. })
        ));
    }
}
