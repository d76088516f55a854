//! `sprt`: the Elo interval and the SPRT of results counted elsewhere: pairs or games from
//! several runs, sessions or machines, added up (docs/tools.md, "sprt").
//!
//! The figures are the ones `match` prints (the same [`crate::arena::stats`] code): a test
//! that ran as several matches on the same schedule continues where the last one stopped, by
//! giving every run's counts.

use crate::arena::pairs::Penta;
use crate::arena::stats::{elo_line, SprtModel, SprtParams, Wld};
use clap::Args;

/// Options of `sprt` (docs/tools.md, "sprt").
#[derive(Args, Debug, Clone)]
pub struct SprtArgs {
    /// Pairs of colour-reversed games by the points the first engine took from them: five
    /// counts for 0, 1/2, 1, 3/2 and 2 points (a `match`'s `Pairs` line). Repeat to add up
    /// several runs.
    #[arg(long, value_name = "N0,N1,N2,N3,N4")]
    pub pairs: Vec<String>,
    /// Games of the first engine: wins, losses, draws. Repeat to add up several runs. With
    /// `--pairs` it only prints the games' line; the SPRT reads the pairs.
    #[arg(long, value_name = "W,L,D")]
    pub wld: Vec<String>,
    /// The test: `ELO0,ELO1,ALPHA,BETA`, as `match --sprt`.
    #[arg(long, value_name = "ELO0,ELO1,ALPHA,BETA", allow_hyphen_values = true)]
    pub sprt: String,
}

/// Parses `text` as exactly `N` comma-separated counts.
///
/// Errors: a message naming the option and the text.
fn counts<const N: usize>(option: &str, text: &str) -> Result<[u64; N], String> {
    let bad = || format!("{option} wants {N} whole numbers separated by commas, got '{text}'");
    let v: Vec<u64> = text
        .split(',')
        .map(|t| t.trim().parse::<u64>())
        .collect::<Result<_, _>>()
        .map_err(|_| bad())?;
    v.try_into().map_err(|_| bad())
}

/// The lines `sprt` prints for these arguments: the pairs' line (if pairs were given), the
/// games' score and Elo lines (if games were given), then the SPRT line of the pairs (or,
/// without pairs, of the games).
///
/// Errors: a one-line message for a malformed count or test, no results at all, or counts
/// whose sum overflows.
pub fn report(args: &SprtArgs) -> Result<Vec<String>, String> {
    let mut test = SprtParams::parse(&args.sprt).map_err(|e| format!("--sprt: {e}"))?;
    let mut penta = Penta::default();
    for t in &args.pairs {
        for (sum, c) in penta.counts.iter_mut().zip(counts::<5>("--pairs", t)?) {
            *sum = sum
                .checked_add(c)
                .ok_or("--pairs: the counts are too large")?;
        }
    }
    let mut games = Wld::default();
    for t in &args.wld {
        let [w, l, d] = counts::<3>("--wld", t)?;
        let add = |a: u64, b: u64| a.checked_add(b).ok_or("--wld: the counts are too large");
        games = Wld {
            wins: add(games.wins, w)?,
            losses: add(games.losses, l)?,
            draws: add(games.draws, d)?,
        };
    }
    let mut out = Vec::new();
    if let Some(line) = penta.line() {
        out.push(line);
    }
    if games.games() > 0 {
        out.push(format!(
            "Games: {} - {} - {}",
            games.wins, games.losses, games.draws
        ));
        out.push(elo_line(&games));
    }
    if penta.pairs() > 0 {
        test.model = SprtModel::Pentanomial;
        out.push(test.line(&penta));
    } else if games.games() > 0 {
        test.model = SprtModel::Trinomial;
        out.push(test.line(&games));
    } else {
        return Err("no results: give --pairs or --wld with at least one game".into());
    }
    Ok(out)
}

/// Runs `sprt`: prints [`report`]'s lines; exit status 0, or 2 with one line on stderr.
pub fn run(args: &SprtArgs) -> i32 {
    match report(args) {
        Ok(lines) => {
            for l in lines {
                println!("{l}");
            }
            0
        }
        Err(e) => super::bad_input(&format!("sprt: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(pairs: &[&str], wld: &[&str], sprt: &str) -> SprtArgs {
        SprtArgs {
            pairs: pairs.iter().map(|s| s.to_string()).collect(),
            wld: wld.iter().map(|s| s.to_string()).collect(),
            sprt: sprt.to_string(),
        }
    }

    #[test]
    fn runs_add_up_to_the_match_figures() {
        // Two halves of pairs.rs's docs example [6, 0, 39, 1, 4]: Elo -10.4 +/- 43.8.
        let r = report(&args(&["4,0,20,0,2", "2,0,19,1,2"], &[], "-10,0,0.05,0.05")).unwrap();
        assert_eq!(
            r[0],
            "Pairs (0, 1/2, 1, 3/2, 2 points): 6, 0, 39, 1, 4; Elo -10.4 +/- 43.8"
        );
        assert!(r[1].starts_with("SPRT: llr "), "{r:?}");
        assert!(r[1].ends_with("beta 0.05, pairs)"), "{r:?}");
        assert_eq!(r.len(), 2);
    }

    #[test]
    fn pairs_decide_where_games_do_not() {
        // stats.rs's hand values for the test -10,0: pairs [10, 5, 70, 5, 10] give LLR
        // 0.183992, the same results read as games, 95 - 95 - 10, give 0.087154.
        let r = report(&args(&["10,5,70,5,10"], &["95,95,10"], "-10,0,0.05,0.05")).unwrap();
        assert_eq!(r[1], "Games: 95 - 95 - 10");
        assert!(r[2].starts_with("Elo difference: 0.0 +/- "), "{r:?}");
        assert!(r[3].starts_with("SPRT: llr 0.18 "), "{r:?}");
        let g = report(&args(&[], &["95,95,10"], "-10,0,0.05,0.05")).unwrap();
        assert!(g[2].starts_with("SPRT: llr 0.09 "), "{g:?}");
        assert!(g[2].ends_with("games)"), "{g:?}");
    }

    #[test]
    fn bad_counts_are_named() {
        let e = report(&args(&["1,2,3"], &[], "0,10,0.05,0.05")).unwrap_err();
        assert_eq!(
            e,
            "--pairs wants 5 whole numbers separated by commas, got '1,2,3'"
        );
        let e = report(&args(&[], &["1,x,3"], "0,10,0.05,0.05")).unwrap_err();
        assert!(e.starts_with("--wld wants 3 whole numbers"), "{e}");
        let e = report(&args(&[], &[], "0,10,0.05,0.05")).unwrap_err();
        assert!(e.starts_with("no results"), "{e}");
        let e = report(&args(&["1,0,0,0,1"], &[], "10,0,0.05,0.05")).unwrap_err();
        assert!(e.starts_with("--sprt: "), "{e}");
        let max = u64::MAX.to_string();
        let big = format!("{max},0,0,0,0");
        let e = report(&args(&[&big, "1,0,0,0,0"], &[], "0,10,0.05,0.05")).unwrap_err();
        assert!(e.contains("too large"), "{e}");
    }
}
