//! `pbrain-tianyuan`: with no arguments, the Piskvork/Gomocup protocol engine on
//! stdin/stdout; with a subcommand, a one-shot tool.

use clap::{Parser, Subcommand};
use tianyuan::cli;

#[derive(Parser)]
#[command(
    name = "pbrain-tianyuan",
    version,
    about = "Tianyuan gomoku/renju engine"
)]
struct Cli {
    /// Evaluation weights file to use instead of the built-in weights (see docs/training.md).
    #[arg(long, global = true)]
    weights: Option<std::path::PathBuf>,
    /// Network file (`train-net` output) whose networks correct the table evaluation for the
    /// rules it covers, in place of the built-in networks (see docs/network.md); a rule it
    /// does not cover is evaluated by the tables alone.
    #[arg(long, global = true)]
    network: Option<std::path::PathBuf>,
    /// Evaluation: `network` (the built-in networks, or those of `--network`, correcting the
    /// tables for the rules they cover) or `tables` (the tables alone, for every rule); see
    /// docs/network.md §3.
    #[arg(long, global = true, value_enum, default_value_t = Eval::Network)]
    eval: Eval,
    #[command(subcommand)]
    command: Option<Command>,
}

/// The evaluation of `--eval`.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Eval {
    /// The networks over the tables, where a rule has one.
    Network,
    /// The tables alone.
    Tables,
}

#[derive(Subcommand)]
enum Command {
    /// Play the engine in the terminal (moves and commands one per line on stdin).
    Play(cli::play::PlayArgs),
    /// Print black's forbidden points (renju) of a position.
    Forbidden(cli::ForbiddenArgs),
    /// Search a position and print the best move, score, depth, nodes and PV.
    Analyze(cli::AnalyzeArgs),
    /// Fixed-depth search of built-in positions; prints nodes and nps (deterministic).
    Bench(tianyuan::bench::BenchArgs),
    /// Play a short engine-against-itself game and print the board as it goes.
    Demo(cli::DemoArgs),
    /// Solve a position for a VCF (or VCT with --vct).
    Solve(cli::SolveCliArgs),
    /// Play a match between engines that speak the Piskvork protocol.
    Match(tianyuan::arena::MatchArgs),
    /// Play the engine against itself and write the games for training.
    Selfplay(tianyuan::train::selfplay::SelfplayArgs),
    /// Re-score the moves of game records with an engine's search (for `tune`).
    Label(cli::label::LabelArgs),
    /// Write the games of match outputs as training records, with the engines' evaluations.
    MatchGames(cli::match_games::MatchGamesArgs),
    /// Join the outputs of a `--shard K/N` run of selfplay, label or match (docs/cluster.md).
    Merge(cli::merge::MergeArgs),
    /// The Elo interval and SPRT of pairs or games counted elsewhere (several runs added up).
    Sprt(cli::sprt::SprtArgs),
    /// Fit the evaluation and move-ordering weights to game files (`selfplay` output, or
    /// positions labelled by `label`).
    Tune(tianyuan::train::tune::TuneArgs),
    /// Fit the network evaluation (the tables' nonlinear correction) to game files.
    TrainNet(tianyuan::train::net::NetArgs),
    /// Opening tools: identify a renju opening, make an opening-rule decision, generate a
    /// balanced opening suite.
    Openings(tianyuan::openings_cli::OpeningsArgs),
    /// Serve the web board: a local page to play and analyse on, and a JSON API.
    #[cfg(feature = "web")]
    Serve(tianyuan::web::ServeArgs),
    /// The web board, left out of this build (`--no-default-features`): says so.
    #[cfg(not(feature = "web"))]
    #[command(hide = true, disable_help_flag = true)]
    Serve {
        /// Whatever was given: not read.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
        rest: Vec<std::ffi::OsString>,
    },
    /// Run the protocol engine (the default when no subcommand is given).
    Protocol,
}

fn main() {
    cli::pipe::quiet_on_closed_pipe();
    if std::env::args_os().len() <= 1 {
        std::process::exit(tianyuan::protocol::run_stdio());
    }
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
                std::process::exit(0);
            }
            // Bad arguments: exit status 2 and one line on stderr: clap's message without
            // its usage block, its lines joined (so that a list of missing arguments is
            // named, not cut off).
            let text = e.to_string();
            std::process::exit(cli::bad_input(&format!(
                "{} (see --help)",
                one_line_error(&text)
            )));
        }
    };
    let protocol = matches!(cli.command, None | Some(Command::Protocol));
    if let Some(path) = &cli.weights {
        use tianyuan::eval::weights::{install, Weights};
        match Weights::load(path) {
            Ok(w) => {
                let _ = install(w);
            }
            Err(e) => refuse_file("weights", path, e, protocol),
        }
    }
    if cli.eval == Eval::Tables {
        if cli.network.is_some() {
            std::process::exit(cli::bad_input(
                "--eval tables and --network cannot go together: the tables alone use no \
                 network file (see --help)",
            ));
        }
        let _ = tianyuan::eval::network::install(tianyuan::eval::network::Network::empty(0));
    }
    if let Some(path) = &cli.network {
        use tianyuan::eval::network::{install, Network};
        match Network::load(path) {
            Ok(n) => {
                let _ = install(n);
            }
            Err(e) => refuse_file("network", path, e, protocol),
        }
    }
    let code = match cli.command {
        None | Some(Command::Protocol) => tianyuan::protocol::run_stdio(),
        Some(Command::Forbidden(a)) => cli::forbidden(&a),
        Some(Command::Analyze(a)) => cli::analyze(&a),
        Some(Command::Bench(a)) => tianyuan::bench::run(&a),
        Some(Command::Demo(a)) => cli::demo(&a),
        Some(Command::Solve(a)) => cli::solve(&a),
        Some(Command::Play(a)) => cli::play::run(&a),
        Some(Command::Match(a)) => tianyuan::arena::run(a),
        Some(Command::Selfplay(a)) => cli::exit_status(tianyuan::train::selfplay::run(&a)),
        Some(Command::Label(a)) => cli::label::run(&a),
        Some(Command::MatchGames(a)) => cli::match_games::run(&a),
        Some(Command::Merge(a)) => cli::merge::run(&a),
        Some(Command::Sprt(a)) => cli::sprt::run(&a),
        Some(Command::Tune(a)) => cli::exit_status(tianyuan::train::tune::run(&a)),
        Some(Command::TrainNet(a)) => cli::exit_status(tianyuan::train::net::run(&a)),
        Some(Command::Openings(a)) => tianyuan::openings_cli::run(&a),
        #[cfg(feature = "web")]
        Some(Command::Serve(a)) => tianyuan::web::run(&a),
        #[cfg(not(feature = "web"))]
        Some(Command::Serve { .. }) => cli::bad_input(
            "serve: the web board was left out of this build (built with \
             --no-default-features); build with the default features for it",
        ),
    };
    std::process::exit(code);
}

/// Exits with status 2 for a `--weights` or `--network` file (`what`) that cannot be used,
/// with one line naming the file: on stderr, or for the protocol engine (which never writes
/// to stderr, docs/protocol.md §1.1) as an `ERROR` line the manager reads.
fn refuse_file(
    what: &str,
    path: &std::path::Path,
    e: tianyuan::eval::weights::WeightsError,
    protocol: bool,
) -> ! {
    use tianyuan::eval::weights::WeightsError;
    // Every message names the file.
    let why = match e {
        WeightsError::Io { path, reason } => format!("cannot read {what} file {path}: {reason}"),
        _ => format!("{what} file {}: {e}", tianyuan::core::quote_path(path)),
    };
    if protocol {
        println!("ERROR {why}");
        std::process::exit(cli::EXIT_BAD_INPUT);
    }
    std::process::exit(cli::bad_input(&why));
}

/// Clap's error text as one line: the lines before the usage block, trimmed and joined, the
/// `error: ` prefix and clap's trailing tips dropped.
fn one_line_error(text: &str) -> String {
    let mut parts = Vec::new();
    for line in text.lines() {
        let l = line.trim();
        if l.starts_with("Usage:") || l.starts_with("For more information") {
            break;
        }
        if l.is_empty() || l.starts_with("tip:") {
            continue;
        }
        parts.push(l.strip_prefix("error: ").unwrap_or(l));
    }
    let joined = parts.join(" ");
    if joined.is_empty() {
        "bad arguments".to_string()
    } else {
        joined
    }
}
