//! `pbrain-tianyuan match-games`: the games of `match` outputs as training records
//! (docs/training.md §1), so that every match played (an SPRT, a gauntlet) is also data for
//! `tune` and `train-net`.
//!
//! A match output directory holds its games (`results.json`, or `shard.txt` for one
//! `--shard`) and a log per game (`game-NNNN.log`). The record of a game takes its rule,
//! size, moves and result from the former; from the log, the number of opening stones (the
//! first `BOARD` sent, or `BEGIN`: none) and, for each move an engine chose, the last
//! evaluation that engine printed in a `MESSAGE` line before it (any engine that prints
//! `ev N` or `Eval N`, [`super::label::parse_eval`]), as the move's score from the mover's
//! view. A game lost by forfeit is left out; a game without its log, or whose log does not
//! match its moves, keeps its moves and result without scores, every move counted as
//! chosen by search.

use super::label::parse_eval;
use crate::core::{parse_size, parse_xy, Pos, Rule};
use crate::train::data::{write_header, GameRecord, Outcome};
use clap::Args;
use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Arguments of `pbrain-tianyuan match-games`.
#[derive(Args, Debug, Clone)]
pub struct MatchGamesArgs {
    /// Match output directories (`match --out DIR`, or one per `--shard`).
    #[arg(required = true, num_args = 1..)]
    pub dirs: Vec<PathBuf>,
    /// The game file to write (the `selfplay` format).
    #[arg(long)]
    pub out: PathBuf,
}

/// The rule, board size (width, height) and games of one match output directory.
struct MatchOutput {
    rule: Rule,
    size: (usize, usize),
    games: Vec<Value>,
    /// Game lines of a `shard.txt` that are not JSON.
    unreadable: usize,
}

/// Reads a match output directory.
fn read_match(dir: &Path) -> Result<MatchOutput, String> {
    let name = crate::core::quote_path(dir);
    let results = dir.join("results.json");
    let shard = dir.join("shard.txt");
    let mut unreadable = 0;
    let (settings, games) = if let Ok(text) = std::fs::read_to_string(&results) {
        let v: Value = serde_json::from_str(&text)
            .map_err(|e| format!("{name}: results.json is not JSON: {e}"))?;
        let games = v["games"].as_array().cloned().unwrap_or_default();
        (v, games)
    } else if let Ok(text) = std::fs::read_to_string(&shard) {
        let mut lines = text.lines();
        let header = lines
            .next()
            .and_then(|l| l.strip_prefix("# shard "))
            .and_then(|h| serde_json::from_str::<Value>(h).ok())
            .ok_or_else(|| format!("{name}: shard.txt has no shard header"))?;
        let mut games = Vec::new();
        for l in lines.filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
            match serde_json::from_str(l) {
                Ok(g) => games.push(g),
                Err(_) => unreadable += 1,
            }
        }
        (header["settings"].clone(), games)
    } else {
        return Err(format!(
            "{name}: no results.json or shard.txt (a match --out directory?)"
        ));
    };
    let rule = settings["rule"]
        .as_str()
        .and_then(Rule::parse)
        .ok_or_else(|| format!("{name}: no rule in the match settings"))?;
    let size = match &settings["size"] {
        Value::Number(n) => n.as_u64().map(|n| (n as usize, n as usize)),
        Value::String(s) => parse_size(s).ok(),
        _ => None,
    }
    .ok_or_else(|| format!("{name}: no board size in the match settings"))?;
    crate::core::check_size(size.0, size.1).map_err(|e| format!("{name}: {e}"))?;
    Ok(MatchOutput {
        rule,
        size,
        games,
        unreadable,
    })
}

/// What a game's log tells: the opening stones and, per move chosen by an engine in
/// order, the point it answered and the last evaluation it printed before.
struct LogFacts {
    opening: usize,
    replies: Vec<((i64, i64), Option<i32>)>,
}

/// Reads a game log (`match`'s `game-NNNN.log`: time, side `B`/`W`, `>` sent or `<`
/// received, the line).
fn read_log(text: &str) -> LogFacts {
    let mut opening = None;
    let mut in_board = false;
    let mut stones = 0;
    let mut last_eval = [None, None];
    let mut replies = Vec::new();
    for line in text.lines().skip(1) {
        let mut parts = line.split_whitespace();
        let (Some(_time), Some(side), Some(dir)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let rest = parts.collect::<Vec<_>>().join(" ");
        let si = (side == "W") as usize;
        match dir {
            ">" if opening.is_none() => match rest.as_str() {
                "BEGIN" => opening = Some(0),
                "BOARD" => in_board = true,
                "DONE" if in_board => opening = Some(stones),
                _ if in_board => stones += 1,
                _ => {}
            },
            "<" if rest.starts_with("MESSAGE") => {
                if let Some(v) = parse_eval(&rest) {
                    last_eval[si] = Some(v);
                }
            }
            "<" => {
                if let Some(xy) = parse_xy(&rest) {
                    replies.push((xy, last_eval[si].take()));
                }
            }
            _ => {}
        }
    }
    LogFacts {
        opening: opening.unwrap_or(0),
        replies,
    }
}

/// The record of one game of a match, `None` for a forfeit or a game that cannot be read:
/// an unknown result, a move that is not a point, or moves that are not a legal game (the
/// record is read back as the trainers read it).
fn record(
    g: &Value,
    rule: Rule,
    (width, height): (usize, usize),
    log: Option<&str>,
) -> Option<GameRecord> {
    if g["forfeit"].as_bool() == Some(true) || g["termination"]["kind"] == "forfeit" {
        return None;
    }
    let outcome = match g["result"].as_str()? {
        "1-0" => Outcome::Black,
        "0-1" => Outcome::White,
        "1/2-1/2" => Outcome::Draw,
        _ => return None,
    };
    let moves: Vec<Pos> = g["moves"]
        .as_array()?
        .iter()
        .map(|m| crate::core::parse_point(m.as_str()?, width, height).ok())
        .collect::<Option<_>>()?;
    let mut rec = GameRecord {
        rule,
        width,
        height,
        outcome,
        opening: 0,
        scores: vec![None; moves.len()],
        moves,
        best: Vec::new(),
    };
    if let Some(facts) = log.map(read_log) {
        let chosen = &rec.moves[facts.opening.min(rec.moves.len())..];
        let agree = facts.replies.len() == chosen.len()
            && facts
                .replies
                .iter()
                .zip(chosen)
                .all(|(&((x, y), _), p)| (x, y) == (p.x() as i64, p.y() as i64));
        if agree {
            rec.opening = facts.opening;
            for (k, (_, score)) in facts.replies.iter().enumerate() {
                rec.scores[facts.opening + k] = *score;
            }
        }
    }
    GameRecord::parse(&rec.to_line(), 1).ok()
}

/// `match-games`: writes the records of every game in `args.dirs` to `args.out`; returns
/// the exit status (2 with one line for a directory that is not a match output or a file
/// that cannot be written).
pub fn run(args: &MatchGamesArgs) -> i32 {
    let mut records = Vec::new();
    let (mut forfeits, mut unscored) = (0, 0);
    for dir in &args.dirs {
        let MatchOutput {
            rule,
            size,
            games,
            unreadable,
        } = match read_match(dir) {
            Ok(m) => m,
            Err(e) => return super::bad_input(&e),
        };
        forfeits += unreadable;
        for g in &games {
            let number = g["number"].as_u64().unwrap_or(0);
            let log = std::fs::read_to_string(dir.join(format!("game-{number:04}.log"))).ok();
            match record(g, rule, size, log.as_deref()) {
                Some(r) => {
                    unscored += r.scores.iter().all(Option::is_none) as usize;
                    records.push(r);
                }
                None => forfeits += 1,
            }
        }
    }
    let write = || -> std::io::Result<()> {
        let mut f = std::io::BufWriter::new(std::fs::File::create(&args.out)?);
        write_header(&mut f)?;
        for r in &records {
            writeln!(f, "{}", r.to_line())?;
        }
        f.flush()
    };
    if let Err(e) = write() {
        let path = crate::core::quote_path(&args.out);
        return super::bad_input(&format!("cannot write {path}: {e}"));
    }
    println!(
        "{} written to {} ({} without scores; {} left out: forfeits, unreadable or illegal)",
        crate::core::counted(records.len(), "game", "games"),
        args.out.display(),
        unscored,
        forfeits
    );
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOG: &str = "game 1 black a white b: 1-0 {black: five}
     0.0 B > START 15
    42.8 W > BOARD
    42.8 W > 7,7,2
    42.8 W > 6,7,1
    42.8 W > 7,5,2
    42.8 W > DONE
   547.8 W < MESSAGE depth 17-41 ev 22 n 204491
   547.9 W < 6,8
   547.9 B > BOARD
   550.0 B < MESSAGE thinking
   551.0 B < 8,8
   560.0 W < MESSAGE depth 3 ev -M4 n 5
   560.1 W < MESSAGE Eval 40 | Node 1
   561.0 W < 5,5
";

    #[test]
    fn a_log_gives_the_opening_and_the_evaluations() {
        let f = read_log(LOG);
        assert_eq!(f.opening, 3);
        assert_eq!(
            f.replies,
            vec![((6, 8), Some(22)), ((8, 8), None), ((5, 5), Some(40))]
        );
    }

    #[test]
    fn a_record_takes_its_scores_from_the_log_when_the_moves_agree() {
        let g: Value = serde_json::from_str(
            r#"{"number":1,"result":"0-1","forfeit":false,"termination":{"kind":"five"},
                "moves":["h8","h7","h6","g9","i9","f6"]}"#,
        )
        .unwrap();
        let r = record(&g, Rule::Renju, (15, 15), Some(LOG)).unwrap();
        assert_eq!((r.outcome, r.opening), (Outcome::White, 3));
        assert_eq!(r.scores, vec![None, None, None, Some(22), None, Some(40)]);
        assert_eq!(r.to_line(), "renju 15x15 white 3 h8 h7 h6 g9:22 i9 f6:40");
        // A log of another game: the moves and result stay, without scores.
        let other = LOG.replace("6,8", "9,9");
        let r = record(&g, Rule::Renju, (15, 15), Some(&other)).unwrap();
        assert_eq!((r.opening, r.scores.iter().flatten().count()), (0, 0));
        let forfeit: Value =
            serde_json::from_str(r#"{"result":"1-0","forfeit":true,"moves":[]}"#).unwrap();
        assert!(record(&forfeit, Rule::Renju, (15, 15), None).is_none());
    }
}
