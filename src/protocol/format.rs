//! Stage 3 of the protocol: replies as text, and the single writer of output lines.
//!
//! Owns the exact shape of every line the engine writes (docs/protocol.md §3 and §6.3): move
//! lines `x,y`, `OK`, `ERROR text`, `UNKNOWN text`, `MESSAGE text`, the `ABOUT` line, the
//! `FORBID` line and the search-detail blocks. Invariants of every line written through
//! [`Out`]: printable ASCII only, no trailing spaces, upper-case keyword, a single LF at the
//! end, written with one `write_all` and flushed at once.

use crate::core::Pos;
use crate::search::{mate_plies, SearchInfo};
use std::io::Write;

/// Longest free text (echoed input, messages) kept in one line, in bytes.
pub const TEXT_MAX: usize = 200;

/// Turns arbitrary text into printable ASCII on one line: control and non-ASCII characters
/// become `?`, runs are cut at [`TEXT_MAX`] bytes (with `...`), surrounding spaces go.
/// Never returns an empty string (`-` stands for nothing).
pub fn clean_text(text: &str) -> String {
    let mut s: String = text
        .chars()
        .map(|c| if (' '..='~').contains(&c) { c } else { '?' })
        .take(TEXT_MAX + 1)
        .collect();
    if s.len() > TEXT_MAX {
        s.truncate(TEXT_MAX);
        s.push_str("...");
    }
    let t = s.trim();
    if t.is_empty() {
        "-".to_string()
    } else {
        t.to_string()
    }
}

/// A move line: `x,y` with 0-based column and row (docs/protocol.md §3.1).
pub fn move_line(p: Pos) -> String {
    format!("{},{}", p.x(), p.y())
}

/// `MESSAGE text` (text cleaned with [`clean_text`]).
pub fn message(text: &str) -> String {
    format!("MESSAGE {}", clean_text(text))
}

/// `ERROR text` (text cleaned with [`clean_text`]).
pub fn error(text: &str) -> String {
    format!("ERROR {}", clean_text(text))
}

/// `UNKNOWN text` (text cleaned with [`clean_text`]).
pub fn unknown(text: &str) -> String {
    format!("UNKNOWN {}", clean_text(text))
}

/// The `ABOUT` line (docs/protocol.md §2.10). No value contains a comma, `=` or a double quote.
pub fn about() -> String {
    format!(
        "name=\"Tianyuan\", version=\"{}\", author=\"Tianyuan developers\", country=\"CN\"",
        env!("CARGO_PKG_VERSION")
    )
}

/// The `YXSHOWFORBID` answer: `FORBID ` then `xxyy` (two zero-padded digits each) per point,
/// then `.`; `FORBID .` for none.
pub fn forbid_line(points: &[Pos]) -> String {
    let mut s = String::from("FORBID ");
    for p in points {
        s.push_str(&format!("{:02}{:02}", p.x(), p.y()));
    }
    s.push('.');
    s
}

/// A score as text: plain units, or `+Mn`/`-Mn` for a win/loss in `n` plies.
pub fn score_text(score: i32) -> String {
    match mate_plies(score) {
        Some(n) if n >= 0 => format!("+M{}", n),
        Some(n) => format!("-M{}", -n),
        None => score.to_string(),
    }
}

/// A principal variation in human notation (`h8 h9 …`), or `-` when empty.
pub fn pv_text(pv: &[Pos]) -> String {
    if pv.is_empty() {
        return "-".to_string();
    }
    pv.iter()
        .map(|p| p.to_notation())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The per-iteration progress line: `MESSAGE depth d-sd ev e n nodes vcf v tm ms pv …`
/// (`nodes` the main-search nodes, `v` the threat-solver nodes, docs/strength.md §5); with
/// several principal variations (YXNBEST) each line starts `MESSAGE pv i/n depth …`
/// (`i` from 1).
pub fn progress(info: &SearchInfo) -> String {
    let multi = if info.num_pv > 1 {
        format!("pv {}/{} ", info.pv_index + 1, info.num_pv)
    } else {
        String::new()
    };
    format!(
        "MESSAGE {}depth {}-{} ev {} n {} vcf {} tm {} pv {}",
        multi,
        info.depth,
        info.seldepth,
        score_text(info.score),
        info.nodes,
        info.vcf_nodes,
        info.time_ms,
        pv_text(&info.pv)
    )
}

/// `MESSAGE REALTIME BEST x,y` for `show_detail` bit 1, or `None` without a PV or for a
/// multi-PV line other than the best.
pub fn realtime_best(info: &SearchInfo) -> Option<String> {
    if info.pv_index > 0 {
        return None;
    }
    info.pv
        .first()
        .map(|&p| format!("MESSAGE REALTIME BEST {}", move_line(p)))
}

/// Winning probability shown to GUIs, from a score (display only; never used for decisions).
fn winrate(score: i32) -> f64 {
    match mate_plies(score) {
        Some(n) if n >= 0 => 1.0,
        Some(_) => 0.0,
        None => 1.0 / (1.0 + (-(score as f64) / 200.0).exp()),
    }
}

/// The `INFO …` result block of one principal variation for `show_detail` bit 2
/// (docs/protocol.md §6.3), closed by `INFO PV DONE`: `INFO PV i` counts from 0, `INFO NUMPV n`
/// is the number of lines the iteration reports (YXNBEST).
pub fn info_block(info: &SearchInfo) -> Vec<String> {
    let line: Vec<String> = info.pv.iter().map(|&p| move_line(p)).collect();
    let nps = info.nodes.saturating_mul(1000) / info.time_ms.max(1);
    vec![
        format!("INFO PV {}", info.pv_index),
        format!("INFO NUMPV {}", info.num_pv.max(1)),
        format!("INFO DEPTH {}", info.depth),
        format!("INFO SELDEPTH {}", info.seldepth),
        format!("INFO NODES {}", info.nodes),
        format!("INFO TOTALNODES {}", info.nodes),
        format!("INFO TOTALTIME {}", info.time_ms),
        format!("INFO SPEED {}", nps),
        format!("INFO EVAL {}", score_text(info.score)),
        format!("INFO WINRATE {:.4}", winrate(info.score)),
        format!("INFO BESTLINE {}", line.join(" ")),
        "INFO PV DONE".to_string(),
    ]
}

/// The one writer of output lines. Each [`Out::line`] writes the line plus LF in a single
/// `write_all` and flushes. After a write error (the manager closed the pipe) the writer is
/// marked broken and drops everything; the session then exits.
pub struct Out<W: Write> {
    sink: W,
    broken: bool,
    muted: bool,
}

impl<W: Write> Out<W> {
    /// A writer over `sink`.
    pub fn new(sink: W) -> Out<W> {
        Out {
            sink,
            broken: false,
            muted: false,
        }
    }

    /// Writes one line (a trailing LF is added; trailing spaces, CR and LF are removed; an
    /// inner CR or LF becomes a space so that one call is always one line).
    pub fn line(&mut self, text: &str) {
        if self.broken || self.muted {
            return;
        }
        let mut s: String = text
            .chars()
            .map(|c| if c == '\r' || c == '\n' { ' ' } else { c })
            .collect();
        s.truncate(s.trim_end().len());
        s.push('\n');
        if self
            .sink
            .write_all(s.as_bytes())
            .and_then(|_| self.sink.flush())
            .is_err()
        {
            self.broken = true;
        }
    }

    /// Whether a write failed.
    pub fn is_broken(&self) -> bool {
        self.broken
    }

    /// Drops every later line (after `END`: docs/protocol.md §2.11 wants nothing more).
    pub fn mute(&mut self) {
        self.muted = true;
    }

    /// The sink (tests read what was written).
    pub fn sink(&self) -> &W {
        &self.sink
    }

    /// The sink, mutably.
    pub fn sink_mut(&mut self) -> &mut W {
        &mut self.sink
    }
}

/// The answer to `SOLVE`: `SOLVE WIN x,y x,y ...` (the winning line in protocol
/// coordinates, attacker first), `SOLVE NONE` or `SOLVE UNKNOWN`.
pub fn solve_line(r: &crate::search::threat::SolveReport) -> String {
    use crate::search::threat::SolveResult;
    match r.result {
        SolveResult::Win => {
            let line: Vec<String> = r.line.iter().map(|p| p.to_xy()).collect();
            format!("SOLVE WIN {}", line.join(" "))
        }
        SolveResult::None => "SOLVE NONE".to_string(),
        SolveResult::Unknown => "SOLVE UNKNOWN".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn about_has_no_stray_separators() {
        let a = about();
        for item in a.split(", ") {
            let (k, v) = item.split_once('=').expect("key=value");
            assert!(k.chars().all(|c| c.is_ascii_lowercase()));
            let inner = v
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .expect("quoted");
            assert!(!inner.contains([',', '=', '"']));
        }
    }

    #[test]
    fn forbid_format() {
        assert_eq!(forbid_line(&[]), "FORBID .");
        assert_eq!(
            forbid_line(&[Pos::new(7, 9), Pos::new(6, 8)]),
            "FORBID 07090608."
        );
    }

    #[test]
    fn clean_text_is_printable() {
        assert_eq!(clean_text(" a\tb\u{e9} "), "a?b?");
        assert_eq!(clean_text(""), "-");
        assert_eq!(clean_text(&"x".repeat(500)).len(), TEXT_MAX + 3);
    }

    #[test]
    fn out_writes_single_lines() {
        let mut o = Out::new(Vec::new());
        o.line("OK  ");
        o.line("a\nb");
        o.mute();
        o.line("late");
        assert_eq!(String::from_utf8(o.sink().clone()).unwrap(), "OK\na b\n");
    }

    #[test]
    fn scores() {
        assert_eq!(score_text(35), "35");
        assert_eq!(score_text(crate::eval::WIN - 5), "+M5");
        assert_eq!(score_text(-(crate::eval::WIN - 4)), "-M4");
    }
}
