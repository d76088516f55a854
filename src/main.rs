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
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Print black's forbidden points (renju) of a position.
    Forbidden(cli::ForbiddenArgs),
    /// Search a position and print the best move, score, depth, nodes and PV.
    Analyze(cli::AnalyzeArgs),
    /// Fixed-depth search of built-in positions; prints nodes and nps (deterministic).
    Bench(tianyuan::bench::BenchArgs),
    /// Play a short engine-against-itself game and print the board as it goes.
    Demo(cli::DemoArgs),
    /// Solve a position for a VCF (or VCT with --vct).
    Solve(tianyuan::search::threat::SolveArgs),
    /// Play a match between engines that speak the Piskvork protocol.
    Match(tianyuan::arena::MatchArgs),
    /// Serve the web board: a local page to play and analyse on, and a JSON API.
    Serve(tianyuan::web::ServeArgs),
    /// Run the protocol engine (the default when no subcommand is given).
    Protocol,
}

fn main() {
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
            // Bad arguments: exit status 2 and one line on stderr (the first line of clap's
            // message, without its usage block).
            let text = e.to_string();
            let first = text.lines().next().unwrap_or("bad arguments").trim();
            let first = first.strip_prefix("error: ").unwrap_or(first);
            std::process::exit(cli::bad_input(&format!("{} (see --help)", first)));
        }
    };
    let code = match cli.command {
        None | Some(Command::Protocol) => tianyuan::protocol::run_stdio(),
        Some(Command::Forbidden(a)) => cli::forbidden(&a),
        Some(Command::Analyze(a)) => cli::analyze(&a),
        Some(Command::Bench(a)) => tianyuan::bench::run(&a),
        Some(Command::Demo(a)) => cli::demo(&a),
        Some(Command::Solve(a)) => tianyuan::search::threat::solve_cli(&a),
        Some(Command::Match(a)) => tianyuan::arena::run(a),
        Some(Command::Serve(a)) => tianyuan::web::run(&a),
    };
    std::process::exit(code);
}
