//! The files a match writes: each game's record and picture, and the JSON results.

use super::*;

pub(super) fn write_file(path: &Path, text: &str) -> Result<(), ArenaError> {
    std::fs::write(path, text).map_err(|source| ArenaError::Io {
        path: path.display().to_string(),
        source,
    })
}

/// Writes `game-NNNN.psq`, `.sgf` and `.log`.
pub(super) fn write_game(
    dir: &Path,
    cfg: &MatchConfig,
    names: &[String],
    job: &Job,
    rec: &GameRecord,
) -> Result<(), ArenaError> {
    let seats = job.colors(rec);
    let info = record::RecordInfo {
        number: job.index + 1,
        size: cfg.game.size,
        rule: cfg.game.rule,
        black: &names[seats[0]],
        white: &names[seats[1]],
        opening: job.opening.map(|i| cfg.openings[i].name.as_str()),
        opening_rule: cfg.game.opening_rule.map(|p| p.rule.name()),
    };
    let stem = format!("game-{:04}", job.index + 1);
    write_file(
        &dir.join(format!("{stem}.psq")),
        &record::to_psq(&info, rec),
    )?;
    write_file(
        &dir.join(format!("{stem}.sgf")),
        &record::to_sgf(&info, rec),
    )?;
    if let Some(orientation) = cfg.svg {
        write_file(
            &dir.join(format!("{stem}.svg")),
            &game_picture(cfg, &info, rec, orientation),
        )?;
    }
    let mut log = format!(
        "game {} black {} white {}: {}\n",
        job.index + 1,
        names[seats[0]],
        names[seats[1]],
        record::result_phrase(rec)
    );
    for l in &rec.log {
        log.push_str(l);
        log.push('\n');
    }
    write_file(&dir.join(format!("{stem}.log")), &log)
}

/// The SVG picture of a finished game, drawn `orientation` up: the final position, stones
/// numbered in move order, the last move marked, and a caption with the players and the
/// result.
pub(super) fn game_picture(
    cfg: &MatchConfig,
    info: &record::RecordInfo,
    rec: &GameRecord,
    orientation: crate::view::Orientation,
) -> String {
    let mut board = crate::board::Board::new(cfg.game.size, cfg.game.size, cfg.game.rule)
        .expect("board size checked by the caller");
    for m in &rec.moves {
        if board.check_move(m.pos).is_ok() {
            board.make_colored(m.pos, m.color);
        }
    }
    let marks = crate::view::Marks {
        last_move: true,
        number_stones: true,
        caption: Some(format!(
            "game {}: {} (black) vs {} (white), {}",
            info.number,
            info.black,
            info.white,
            record::result_phrase(rec)
        )),
        orientation,
        ..crate::view::Marks::default()
    };
    crate::view::svg::to_svg(&board, &marks)
}

#[derive(serde::Serialize)]
struct JsonEngine<'a> {
    name: &'a str,
    command: &'a str,
    info: &'a [(String, String)],
}

#[derive(serde::Serialize)]
struct JsonGame<'a> {
    number: usize,
    black: usize,
    white: usize,
    opening: Option<&'a str>,
    /// `1-0`, `0-1` or `1/2-1/2`.
    result: &'static str,
    /// Index of the winning engine.
    winner: Option<usize>,
    termination: &'a Termination,
    moves: Vec<String>,
    times_ms: Vec<u64>,
    /// The opening rule's decisions (empty without one).
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    opening_decisions: &'a [referee::opening_phase::DecisionRecord],
}

#[derive(serde::Serialize)]
struct JsonPair<'a> {
    a: usize,
    b: usize,
    wld: Wld,
    /// The part of `wld` from the games `a` played as black.
    a_black: Wld,
    elo: Option<stats::EloEstimate>,
    /// Finished pairs of colour-reversed games by `a`'s half points (0 to 4).
    pairs: [u64; 5],
    llr: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sprt: Option<&'a SprtParams>,
}

#[derive(serde::Serialize)]
struct JsonOut<'a> {
    engines: Vec<JsonEngine<'a>>,
    rule: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    opening_rule: Option<&'static str>,
    size: usize,
    time_control: TimeControl,
    tolerance_ms: u64,
    games_scheduled: usize,
    games_played: usize,
    sprt_decision: Option<SprtDecision>,
    pairs: Vec<JsonPair<'a>>,
    forfeits: &'a [u64],
    games: Vec<JsonGame<'a>>,
}

/// `results.json`: engines, settings, per-pair results and every game (moves in notation).
pub(super) fn results_json(
    cfg: &MatchConfig,
    s: &MatchSummary,
    games: &[(&Job, &GameRecord)],
) -> String {
    let out = JsonOut {
        engines: cfg
            .engines
            .iter()
            .zip(&s.names)
            .map(|(e, n)| JsonEngine {
                name: n,
                command: &e.command,
                info: &e.info,
            })
            .collect(),
        rule: cfg.game.rule.name(),
        opening_rule: cfg.game.opening_rule.map(|p| p.rule.name()),
        size: cfg.game.size,
        time_control: cfg.game.tc,
        tolerance_ms: cfg.game.tolerance_ms,
        games_scheduled: s.games_scheduled,
        games_played: s.games_played,
        sprt_decision: s.sprt,
        pairs: s
            .pairs
            .iter()
            .map(|p| JsonPair {
                a: p.a,
                b: p.b,
                wld: p.wld,
                a_black: p.a_black,
                elo: stats::elo_estimate(&p.wld),
                pairs: p.penta().counts,
                llr: cfg.sprt.map(|sp| sp.llr(p.sprt_sample(&sp))),
                sprt: cfg.sprt.as_ref(),
            })
            .collect(),
        forfeits: &s.forfeits,
        games: games
            .iter()
            .map(|&(job, rec)| {
                let seats = job.colors(rec);
                JsonGame {
                    number: job.index + 1,
                    black: seats[0],
                    white: seats[1],
                    opening: job.opening.map(|i| cfg.openings[i].name.as_str()),
                    result: match rec.winner {
                        Some(Color::Black) => "1-0",
                        Some(Color::White) => "0-1",
                        None => "1/2-1/2",
                    },
                    winner: rec.winner.map(|c| seats[c.index()]),
                    termination: &rec.termination,
                    moves: rec.moves.iter().map(|m| m.pos.to_notation()).collect(),
                    times_ms: rec.moves.iter().map(|m| m.time_ms).collect(),
                    opening_decisions: &rec.decisions,
                }
            })
            .collect(),
    };
    // Non-finite floats (a perfect score's infinite Elo) become null.
    serde_json::to_string_pretty(&out).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}
