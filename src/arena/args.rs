//! The settings of a match: its command-line arguments ([`MatchArgs`]), the checked
//! configuration built from them ([`MatchConfig`]) and the errors that stop a match
//! ([`ArenaError`]).

use super::*;

/// Command-line arguments of `pbrain-tianyuan match`.
#[derive(clap::Args, Debug, Clone)]
pub struct MatchArgs {
    /// Engine command line; give it once per engine (at least two). Split like a shell
    /// command: quotes and backslashes work, no expansions.
    #[arg(long = "engine", value_name = "CMD", required = true)]
    pub engines: Vec<String>,
    /// Rule: freestyle (0), standard (1), renju (4), caro (8) or caro-exact (9).
    #[arg(long, default_value = "freestyle")]
    pub rule: Rule,
    /// Board side in points (5..=22); matches are played on square boards (`START n`).
    #[arg(long, default_value = "15")]
    pub size: String,
    /// Games per pair of engines [default: twice the number of openings, or 2].
    #[arg(long)]
    pub games: Option<usize>,
    /// Time limit per move in ms (INFO timeout_turn); 0 = none.
    #[arg(long, default_value_t = 5000)]
    pub tc_turn_ms: u64,
    /// Time limit per game and engine in ms (INFO timeout_match); 0 = none.
    #[arg(long, default_value_t = 120_000)]
    pub tc_game_ms: u64,
    /// Increment added to an engine's game clock after each of its moves, in ms.
    #[arg(long, default_value_t = 0)]
    pub tc_inc_ms: u64,
    /// Time tolerance in ms: a move is lost on time when it takes longer than
    /// tolerance + min(turn limit, game time left).
    #[arg(long, default_value_t = 1000)]
    pub tolerance_ms: u64,
    /// How long an engine may take to answer START (and ABOUT) in ms; on no clock.
    #[arg(long, default_value_t = 5000)]
    pub start_timeout_ms: u64,
    /// Extra INFO setting `[N:]KEY=VALUE` for engine N (1-based) or, without `N:`, for
    /// every engine, e.g. `1:thread_num=2`. Repeatable; sent after the standard INFO lines.
    #[arg(long = "engine-option", value_name = "[N:]KEY=VALUE")]
    pub engine_options: Vec<String>,
    /// Name `N:NAME` for engine N (1-based), used in place of its `ABOUT` name.
    #[arg(long = "name", value_name = "N:NAME")]
    pub names: Vec<String>,
    /// INFO thread_num for every engine.
    #[arg(long)]
    pub threads: Option<u32>,
    /// INFO max_memory for every engine, in MiB (0 = no limit).
    #[arg(long, default_value_t = 350)]
    pub memory_mb: u64,
    /// Openings file: `<code> <size> rule=... moves=h8,h9,...` lines (as in openings/) or
    /// plain comma-separated move lists. Each opening is played twice, colours reversed.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Games played at the same time (each in its own thread with its own processes).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Sequential probability ratio test `ELO0,ELO1,ALPHA,BETA` (two engines only); the
    /// match stops when it decides.
    #[arg(long, value_name = "ELO0,ELO1,ALPHA,BETA")]
    pub sprt: Option<String>,
    /// What one SPRT sample is: a pair of games of one opening with colours reversed
    /// (pentanomial, as fishtest; the default), or a game (trinomial, as cutechess-cli).
    #[arg(long, value_enum, default_value_t = SprtModel::Pentanomial)]
    pub sprt_model: SprtModel,
    /// Seed for shuffling the opening order (file order without it).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Directory for game records (.psq, .sgf, .log), summary.txt and results.json.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Renju only: a game is drawn once 200 stones are on the board (Gomocup rule).
    #[arg(long = "draw-200")]
    pub draw_200: bool,
    /// Also draw each finished game as game-NNNN.svg in --out (stones numbered in move
    /// order, the last move marked).
    #[arg(long)]
    pub svg: bool,
    /// Which way up --svg draws the games: screen (row 1 at the top, as Piskvork and SGF
    /// viewers) or book (row 1 at the bottom, as renju books); docs/rules.md §1.
    #[arg(long, value_enum, default_value_t = crate::view::Orientation::Screen)]
    pub orientation: crate::view::Orientation,
    /// Start every engine afresh for every game (END, then a new process) instead of
    /// reusing it with START.
    #[arg(long)]
    pub restart_each_game: bool,
    /// Opening rule played through the protocol before each game (docs/openings.md §6):
    /// swap2 (SWAP2BOARD), rif, soosorv8, swap1, swap5, cswap (the OPENING command). The
    /// pair's first engine of a game opens; colours follow the decisions.
    #[arg(long = "opening-rule", value_name = "RULE", value_parser = parse_opening_rule)]
    pub opening_rule: Option<crate::opening::OpeningRule>,
    /// RIF: number of fifth-move offers (1..=8).
    #[arg(long = "opening-n", default_value_t = 2)]
    pub opening_n: u8,
    /// Game variant: standard (two colours), or fourcolour (four-colour gomoku with one
    /// process per seat, engines rotating through the seats; docs/fourcolour.md).
    #[arg(long, default_value = "standard")]
    pub variant: String,
    /// Four-colour ownership mode: 2p, 1v2, 1v3, 2v2 or ffa.
    #[arg(long, default_value = "2p")]
    pub mode: String,
    /// Play only shard K of N (K from 0): its block of the schedule's games (game
    /// `K * G / N + 1` up to game `(K + 1) * G / N` of `G`), with `shard.txt` in `--out`
    /// (needed) for `merge`; `--sprt` stops no shard (docs/cluster.md).
    #[arg(long, value_name = "K/N", value_parser = crate::shard::Shard::parse_arg)]
    pub shard: Option<crate::shard::Shard>,
    /// Run the engines as the Gomocup judge does (Linux): each pinned to one CPU, stopped
    /// (SIGSTOP) after its START reply and INFO block and after each of its moves, continued
    /// (SIGCONT) when its turn comes, its unique memory (/proc/PID/smaps_rollup, whole
    /// process tree) checked against max_memory after every move; over it loses.
    #[arg(long)]
    pub judge_conditions: bool,
}

fn parse_opening_rule(s: &str) -> Result<crate::opening::OpeningRule, String> {
    crate::opening::OpeningRule::parse(s).ok_or_else(|| {
        format!("unknown opening rule '{s}' (swap2, rif, soosorv8, swap1, swap5, cswap)")
    })
}

/// Errors that stop a match before or while it runs (an engine's misbehaviour in a game is
/// not an error: it loses that game).
#[derive(Debug, Error)]
pub enum ArenaError {
    /// Bad or inconsistent options.
    #[error("{0}")]
    Usage(String),
    /// An engine command cannot be parsed or started.
    #[error(transparent)]
    Player(#[from] PlayerError),
    /// The openings file cannot be used.
    #[error(transparent)]
    Openings(#[from] OpeningError),
    /// A record or summary file cannot be written.
    #[error("cannot write {path}: {source}")]
    Io {
        /// The file or directory.
        path: String,
        /// The OS error.
        source: std::io::Error,
    },
}

/// A checked match configuration.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The engines, with their extra INFO settings.
    pub engines: Vec<EngineSpec>,
    /// Board, rule, clock and tolerance.
    pub game: GameConfig,
    /// Games each pair of engines plays.
    pub games_per_pair: usize,
    /// Openings in the order they are used (possibly empty: games start on an empty board).
    pub openings: Vec<Opening>,
    /// Worker threads.
    pub concurrency: usize,
    /// The SPRT, if asked for.
    pub sprt: Option<SprtParams>,
    /// Output directory, if any.
    pub out: Option<PathBuf>,
    /// New processes for every game.
    pub restart_each_game: bool,
    /// Draw each finished game as SVG next to its records, this way up (`None`: no
    /// pictures).
    pub svg: Option<crate::view::Orientation>,
    /// Things worth a word that do not stop the match (printed on stderr before it starts),
    /// e.g. openings made for another rule.
    pub warnings: Vec<String>,
    /// The part of the schedule to play (`--shard`; the whole schedule when `None`).
    pub shard: Option<crate::shard::Shard>,
}

impl MatchConfig {
    /// Checks the arguments and reads the openings.
    ///
    /// Errors: [`ArenaError::Usage`] for inconsistent options, [`ArenaError::Player`] for an
    /// unparsable engine command, [`ArenaError::Openings`] for the openings file.
    pub fn from_args(args: &MatchArgs) -> Result<MatchConfig, ArenaError> {
        let size = check_options(args)?;
        let engines = engine_specs(args)?;
        let sprt = match &args.sprt {
            Some(s) => Some(SprtParams {
                model: args.sprt_model,
                ..SprtParams::parse(s).map_err(|e| usage(e.to_string()))?
            }),
            None => None,
        };
        if sprt.is_some() && engines.len() != 2 {
            return Err(usage("--sprt needs exactly two engines".into()));
        }
        if args.opening_rule.is_some() && args.openings.is_some() {
            return Err(usage(
                "--opening-rule and --openings exclude each other: the rule makes the opening"
                    .into(),
            ));
        }
        if !(1..=crate::opening::MAX_OFFERS).contains(&args.opening_n) {
            return Err(usage("--opening-n must be 1..=8".into()));
        }
        let (openings, warnings) = match_openings(args, size)?;
        let games_per_pair = args.games.unwrap_or(if openings.is_empty() {
            2
        } else {
            2 * openings.len()
        });
        if games_per_pair == 0 {
            return Err(usage("--games must be at least 1".into()));
        }
        Ok(MatchConfig {
            engines,
            game: GameConfig {
                size,
                rule: args.rule,
                tc: TimeControl {
                    turn_ms: args.tc_turn_ms,
                    game_ms: args.tc_game_ms,
                    inc_ms: args.tc_inc_ms,
                },
                tolerance_ms: args.tolerance_ms,
                start_timeout_ms: args.start_timeout_ms,
                max_memory_bytes: args.memory_mb.saturating_mul(1 << 20),
                draw_200: args.draw_200,
                opening_rule: args
                    .opening_rule
                    .map(|rule| referee::opening_phase::OpeningPlan {
                        rule,
                        n: args.opening_n,
                    }),
                judge: args.judge_conditions,
            },
            games_per_pair,
            openings,
            concurrency: args.concurrency,
            sprt,
            out: args.out.clone(),
            restart_each_game: args.restart_each_game,
            svg: args.svg.then_some(args.orientation),
            warnings,
            shard: args.shard,
        })
    }
}

fn usage(m: String) -> ArenaError {
    ArenaError::Usage(m)
}

/// The checks of options that stand alone (board size, `--draw-200`, `--svg`,
/// `--concurrency`, `--shard`, `--judge-conditions`); the board's side when they pass.
fn check_options(args: &MatchArgs) -> Result<usize, ArenaError> {
    if args.engines.len() < 2 {
        return Err(usage("give at least two --engine".into()));
    }
    let size = match parse_size(&args.size).map_err(|e| usage(e.to_string()))? {
        (w, h) if w == h => w,
        (w, h) => {
            return Err(usage(format!(
                "--size {w}x{h}: matches are played on square boards (START n); \
                 the other tools take rectangles"
            )))
        }
    };
    if args.draw_200 && args.rule != Rule::Renju {
        return Err(usage(format!(
            "--draw-200 is Gomocup's renju draw rule; it does not apply to {} \
             (use --rule renju, or leave it out)",
            args.rule
        )));
    }
    if args.svg && args.out.is_none() {
        return Err(usage(
            "--svg draws the games next to their records: give --out DIR too".into(),
        ));
    }
    if args.concurrency == 0 {
        return Err(usage("--concurrency must be at least 1".into()));
    }
    if args.shard.is_some() && args.out.is_none() {
        return Err(usage(
            "--shard writes the shard's games to --out DIR/shard.txt for merge: give --out".into(),
        ));
    }
    check_judge_conditions(args)?;
    Ok(size)
}

/// The engines of `--engine`, with the `INFO` keys of `--threads` and `--engine-option` and
/// the names of `--name`.
fn engine_specs(args: &MatchArgs) -> Result<Vec<EngineSpec>, ArenaError> {
    let mut engines: Vec<EngineSpec> = args
        .engines
        .iter()
        .map(|c| EngineSpec::new(c))
        .collect::<Result<_, _>>()?;
    if let Some(t) = args.threads {
        for e in engines.iter_mut() {
            e.info.push(("thread_num".into(), t.to_string()));
        }
    }
    for opt in &args.engine_options {
        let (target, kv) = match opt.split_once(':') {
            Some((n, kv)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
                let n: usize = n
                    .parse()
                    .map_err(|_| usage(format!("bad engine number in '{opt}'")))?;
                if n == 0 || n > engines.len() {
                    return Err(usage(format!(
                        "--engine-option {opt}: there is no engine {n}"
                    )));
                }
                (Some(n - 1), kv)
            }
            _ => (None, opt.as_str()),
        };
        let (k, v) = kv
            .split_once('=')
            .filter(|(k, _)| !k.trim().is_empty() && !k.trim().contains(char::is_whitespace))
            .ok_or_else(|| usage(format!("--engine-option wants [N:]KEY=VALUE, got '{opt}'")))?;
        for (i, e) in engines.iter_mut().enumerate() {
            if target.is_none_or(|t| t == i) {
                e.info.push((k.trim().to_string(), v.trim().to_string()));
            }
        }
    }
    for n in &args.names {
        let bad = || {
            usage(format!(
                "--name wants N:NAME with N an engine number, got '{n}'"
            ))
        };
        let (i, name) = n.split_once(':').ok_or_else(bad)?;
        let i: usize = i.parse().map_err(|_| bad())?;
        if i == 0 || i > engines.len() || name.trim().is_empty() {
            return Err(bad());
        }
        engines[i - 1].name = Some(name.trim().to_string());
    }
    Ok(engines)
}

/// The openings of `--openings` (shuffled by `--seed`), and a warning when some are marked
/// for another rule than the match's.
fn match_openings(
    args: &MatchArgs,
    size: usize,
) -> Result<(Vec<Opening>, Vec<String>), ArenaError> {
    let mut openings = match &args.openings {
        Some(p) => read_openings(p, size, args.rule)?,
        None => Vec::new(),
    };
    if let Some(seed) = args.seed {
        shuffle(&mut openings, seed);
    }
    let mut warnings = Vec::new();
    let other_rule: Vec<&Opening> = openings
        .iter()
        .filter(|o| o.rule.is_some_and(|r| r != args.rule))
        .collect();
    if let Some(first) = other_rule.first() {
        warnings.push(format!(
            "{} of the {} openings are marked for {} (e.g. {}) but the match plays {}",
            other_rule.len(),
            openings.len(),
            first.rule.map(|r| r.name()).unwrap_or("another rule"),
            first.name,
            args.rule
        ));
    }
    Ok((openings, warnings))
}

/// `--judge-conditions` needs Linux and plays normal two-colour games only (no opening
/// dialogue, no four-colour seats).
fn check_judge_conditions(args: &MatchArgs) -> Result<(), ArenaError> {
    if !args.judge_conditions {
        return Ok(());
    }
    let why = if !super::judge::SUPPORTED {
        "needs Linux (CPU affinity, SIGSTOP/SIGCONT and /proc/PID/smaps_rollup)"
    } else if args.opening_rule.is_some() {
        "does not play the opening-rule dialogue: leave out --opening-rule"
    } else if !args.variant.trim().eq_ignore_ascii_case("standard") {
        "plays two-colour games only: leave out --variant"
    } else {
        return Ok(());
    };
    Err(ArenaError::Usage(format!("--judge-conditions {why}")))
}
