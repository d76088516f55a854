//! Game records: Piskvork `.psq` and SGF (`GM[4]`, the Gomoku/Renju game number).
//!
//! **psq** (as Piskvork saves tournament games): a header
//! `Piskvorky <w>x<h>, 11:11, 0`, one line `x,y,ms` per stone with 1-based protocol
//! coordinates and the thinking time in ms (0 for opening stones), then the names of the
//! black and the white engine, then a result code, then the rule line `rule=<name>`
//! ([`crate::gamefile::psq_rule`]; Piskvork reads nothing after the names). The code is ours
//! (Piskvork writes an internal one): `0` for a game ended on the board (five, foul, draw),
//! `15` for a time forfeit (Piskvork's timeout code) and `1` for any other forfeit.
//!
//! **SGF**: `FF[4]GM[4]`, `SZ`, `PB`/`PW` names, `RE` (`B+`, `W+`, `B+T`/`W+T` on time,
//! `B+F`/`W+F` for another forfeit, `0` for a draw), `RU` the rule name, and `C` with the
//! opening name and how the game ended; then one node per stone. SGF points are two letters,
//! column then row, each `a` + the protocol coordinate ([`crate::gamefile::sgf_point`]), as
//! c-gomoku-cli writes them. Both records keep the protocol coordinates the engines saw, and
//! both show the game the same way up: Piskvork draws psq `1,1` and SGF viewers draw `aa` in
//! the top-left corner, where our diagrams put `a1` (docs/rules.md §1).

use super::referee::{GameRecord, Termination};
use crate::core::{Color, Rule};
use crate::gamefile::{sgf_escape, sgf_point};

/// Names and setting of one game for its records.
pub struct RecordInfo<'a> {
    /// 1-based game number.
    pub number: usize,
    /// Board side.
    pub size: usize,
    /// The rule played.
    pub rule: Rule,
    /// The black engine's name.
    pub black: &'a str,
    /// The white engine's name.
    pub white: &'a str,
    /// Opening name, if the game started from one.
    pub opening: Option<&'a str>,
    /// The opening rule played, if any (its decisions go into the SGF comment).
    pub opening_rule: Option<&'a str>,
}

/// The psq text of a game (see the module docs).
pub fn to_psq(info: &RecordInfo, game: &GameRecord) -> String {
    let mut s = format!("Piskvorky {0}x{0}, 11:11, 0\n", info.size);
    for m in &game.moves {
        s.push_str(&format!(
            "{},{},{}\n",
            m.pos.x() + 1,
            m.pos.y() + 1,
            m.time_ms
        ));
    }
    s.push_str(&format!(
        "{}\n{}\n",
        one_line(info.black),
        one_line(info.white)
    ));
    let code = match game.termination {
        Termination::Timeout { .. } => 15,
        ref t if t.is_forfeit() => 1,
        _ => 0,
    };
    s.push_str(&format!("{code}\n"));
    s.push_str(&crate::gamefile::psq_rule(info.rule));
    s
}

/// The `RE` value of a game (see the module docs).
pub fn sgf_result(game: &GameRecord) -> String {
    match game.winner {
        None => "0".to_string(),
        Some(c) => {
            let side = if c == Color::Black { "B" } else { "W" };
            match game.termination {
                Termination::Timeout { .. } => format!("{side}+T"),
                ref t if t.is_forfeit() => format!("{side}+F"),
                _ => format!("{side}+"),
            }
        }
    }
}

/// The SGF text of a game (see the module docs).
pub fn to_sgf(info: &RecordInfo, game: &GameRecord) -> String {
    let mut comment = String::new();
    if let Some(o) = info.opening {
        comment.push_str(&format!("opening {o}; "));
    }
    if let Some(r) = info.opening_rule {
        comment.push_str(&format!("opening rule {r}:"));
        for d in &game.decisions {
            comment.push_str(&format!(
                " [{} {} ({}) {} -> {}]",
                if d.seat == 0 { "first" } else { "second" },
                d.color,
                d.time_ms,
                d.request,
                d.answer
            ));
        }
        comment.push_str("; ");
    }
    comment.push_str(&result_phrase(game));
    let mut s = format!(
        "(;FF[4]GM[4]CA[UTF-8]AP[tianyuan:{}]SZ[{}]RU[{}]GN[game {}]PB[{}]PW[{}]RE[{}]C[{}]\n",
        env!("CARGO_PKG_VERSION"),
        info.size,
        info.rule.name(),
        info.number,
        sgf_escape(info.black),
        sgf_escape(info.white),
        sgf_result(game),
        sgf_escape(&comment)
    );
    for (i, m) in game.moves.iter().enumerate() {
        let c = if m.color == Color::Black { 'B' } else { 'W' };
        s.push_str(&format!(";{c}[{}]", sgf_point(m.pos)));
        if (i + 1) % 12 == 0 {
            s.push('\n');
        }
    }
    s.push_str(")\n");
    s
}

/// `1-0`, `0-1` or `1/2-1/2` from black's side, and how the game ended, e.g.
/// `0-1 {black: time forfeit (limit 1500 ms)}`.
pub fn result_phrase(game: &GameRecord) -> String {
    let score = match game.winner {
        Some(Color::Black) => "1-0",
        Some(Color::White) => "0-1",
        None => "1/2-1/2",
    };
    let who = match (&game.termination, game.winner) {
        (t, Some(w)) if t.is_forfeit() || matches!(t, Termination::Foul { .. }) => {
            w.opponent().name()
        }
        (_, Some(w)) => w.name(),
        (_, None) => "draw",
    };
    format!("{score} {{{who}: {}}}", game.termination.describe())
}

fn one_line(s: &str) -> String {
    s.replace(['\r', '\n'], " ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::referee::MoveRecord;
    use crate::core::Pos;

    fn game() -> GameRecord {
        let mv = |x, y, color, time_ms, opening| MoveRecord {
            pos: Pos::new(x, y),
            color,
            time_ms,
            opening,
        };
        GameRecord {
            winner: Some(Color::White),
            termination: Termination::Timeout { limit_ms: 1500 },
            moves: vec![
                mv(7, 7, Color::Black, 0, true),
                mv(7, 8, Color::White, 12, false),
                mv(0, 0, Color::Black, 3, false),
            ],
            log: Vec::new(),
            colors_swapped: false,
            decisions: Vec::new(),
        }
    }

    #[test]
    fn psq_text() {
        let info = RecordInfo {
            number: 3,
            size: 15,
            rule: Rule::Renju,
            black: "A",
            white: "B",
            opening: Some("D1"),
            opening_rule: None,
        };
        assert_eq!(
            to_psq(&info, &game()),
            "Piskvorky 15x15, 11:11, 0\n8,8,0\n8,9,12\n1,1,3\nA\nB\n15\nrule=renju\n"
        );
        let back = crate::gamefile::parse_game(&to_psq(&info, &game()), (15, 15)).unwrap();
        assert_eq!(back.rule, Some(Rule::Renju));
    }

    #[test]
    fn sgf_text() {
        let info = RecordInfo {
            number: 3,
            size: 15,
            rule: Rule::Renju,
            black: "A]",
            white: "B",
            opening: Some("D1"),
            opening_rule: None,
        };
        let s = to_sgf(&info, &game());
        assert!(s.starts_with("(;FF[4]GM[4]CA[UTF-8]AP[tianyuan:"), "{s}");
        assert!(
            s.contains("SZ[15]RU[renju]GN[game 3]PB[A\\]]PW[B]RE[W+T]"),
            "{s}"
        );
        assert!(
            s.contains("C[opening D1; 0-1 {black: time forfeit (limit 1500 ms)}]"),
            "{s}"
        );
        // Letters are a + the protocol coordinates: h8 = 7,7 -> "hh"; h9 = 7,8 -> "hi";
        // a1 = 0,0 -> "aa" (the top-left corner, as in the psq and in c-gomoku-cli's SGF).
        assert!(s.trim_end().ends_with(";B[hh];W[hi];B[aa])"), "{s}");
        let back = crate::gamefile::parse_game(&s, (15, 15)).unwrap();
        let psq = crate::gamefile::parse_game(&to_psq(&info, &game()), (15, 15)).unwrap();
        assert_eq!(back.moves, psq.moves);
        assert_eq!(back.moves, [Pos::new(7, 7), Pos::new(7, 8), Pos::new(0, 0)]);
    }
}
