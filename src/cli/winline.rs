//! `solve`'s winning line carried on to the five.
//!
//! The threat solver's line stops at the attacker's decisive move: a five, an open four, a
//! double four, or a four whose only block is forbidden to black. `solve` shows the line to
//! the five, so that its `plies` agree with `analyze`'s `win in N plies`: after a decisive
//! move that is not yet a five the defender blocks the first five point in row order (from
//! `a1`) it may play (renju: black may not play a forbidden point; if it has none, it plays
//! the first empty point it may play), and the attacker completes a remaining five.

use crate::board::Board;
use crate::core::{Color, Pos};
use crate::search::threat::SolveReport;

/// `line` (a winning line from `board`'s side to move) carried on to the five, as described
/// in the module doc; returned unchanged when it is empty, already ends in a five, or does
/// not end in a threat the attacker can complete (never with a line from the solver).
pub fn to_five(board: &Board, line: &[Pos]) -> Vec<Pos> {
    let mut out = line.to_vec();
    if line.is_empty() {
        return out;
    }
    let mut b = board.clone();
    for &p in line {
        if !b.is_empty(p) {
            return out;
        }
        b.make(p);
    }
    if b.last_move_won().is_some() {
        return out;
    }
    let attacker = b.side_to_move().opponent();
    let defender = attacker.opponent();
    let Some(block) = defender_move(&b, defender, attacker) else {
        return out;
    };
    b.make(block);
    if let Some(five) = b.empty_points().find(|&p| b.is_five(attacker, p)) {
        out.push(block);
        out.push(five);
    }
    out
}

/// The defender's move: the first five point of `attacker` that `defender` may play, else
/// the first empty point it may play.
fn defender_move(b: &Board, defender: Color, attacker: Color) -> Option<Pos> {
    let allowed = |p: Pos| !b.rule().has_forbidden(defender) || b.forbidden(p).is_none();
    b.empty_points()
        .find(|&p| b.is_five(attacker, p) && allowed(p))
        .or_else(|| b.empty_points().find(|&p| allowed(p)))
}

/// `solve`'s JSON object: the solver's report with the line to the five and its length in
/// `plies` (`{"result":"win","move":"g8","line":["g8","f8","k8"],"plies":3,"nodes":1,
/// "time_ms":0}`; `move` null, `line` empty and `plies` 0 unless the result is a win).
pub fn report_json(report: &SolveReport, line: &[Pos]) -> serde_json::Value {
    let notation: Vec<String> = line.iter().map(|p| p.to_notation()).collect();
    serde_json::json!({
        "result": report.result.name(),
        "move": line.first().map(|p| p.to_notation()),
        "line": notation,
        "plies": line.len(),
        "nodes": report.nodes,
        "time_ms": report.time_ms,
    })
}

/// `solve`'s text: one `key value` line each of `result`, `move`, `line` (to the five; `-`
/// when empty), `plies` (its length), `nodes`, `time_ms`.
pub fn report_text(report: &SolveReport, line: &[Pos]) -> String {
    let notation: Vec<String> = line.iter().map(|p| p.to_notation()).collect();
    format!(
        "result {}\nmove {}\nline {}\nplies {}\nnodes {}\ntime_ms {}\n",
        report.result.name(),
        notation.first().map_or("none", String::as_str),
        if notation.is_empty() {
            "-".to_string()
        } else {
            notation.join(" ")
        },
        line.len(),
        report.nodes,
        report.time_ms
    )
}
