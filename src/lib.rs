//! Tianyuan: a gomoku and renju engine for Piskvork/Gomocup managers.
//!
//! Layers, each using only those above it:
//! - [`core`]: points, colours, rules, notation;
//! - [`board`]: stones, packed lines, incremental patterns, forbidden points, win detection;
//! - [`eval`]: the learned evaluation and move-ordering tables and their weights file;
//! - [`tt`]: the transposition table shared by the search threads;
//! - [`time`]: the manager's clock turned into a search budget;
//! - [`search`]: iterative-deepening PVS and the VCF/VCT solvers;
//! - [`engine`]: the facade that protocol, CLI and match code use;
//! - [`opening`]: the 26 renju openings, balanced opening suites, and every opening rule's
//!   decisions made by search (Swap2, RIF, Soosorv-8, Swap1, five-stone and continuous swap);
//! - [`protocol`]: the Piskvork/Gomocup protocol on stdin/stdout;
//! - [`arena`]: engine-against-engine matches with a referee;
//! - [`shard`]: `--shard K/N` runs and their output files, checked and joined by `merge`
//!   (docs/cluster.md);
//! - [`fourcolour`]: the four-colour variant for two to four players (its own board, rules
//!   and search);
//! - [`gamefile`]: games read from and written to `.psq`, SGF and move lists;
//! - [`view`]: text diagrams and SVG pictures of positions;
//! - [`cli`]: the command-line tools (`play`, `forbidden`, `analyze`, `solve`, `demo`);
//! - [`openings_cli`]: the `openings` tools (identify, decide, generate);
//! - [`train`]: the `selfplay` and `tune` tools (the training pipeline, docs/training.md);
//! - [`bench`]: the `bench` tool (fixed-depth searches of built-in positions);
//! - [`web`]: the web board, a local HTTP server with a page and a JSON API (`serve`).
//!
//! `cli`, `openings_cli`, `bench` and `web` form the top layer together (they share
//! [`cli::bad_input`] for their error reports); nothing below them uses them. `train` sits
//! just below them: it returns typed errors ([`train::TrainError`]) that the binary prints
//! through [`cli::exit_status`], and `cli` (`label`, `merge`) uses its record format.
#![warn(missing_docs)]

pub mod arena;
pub mod bench;
pub mod board;
pub mod cli;
pub mod core;
pub mod engine;
pub mod eval;
pub mod fourcolour;
pub mod gamefile;
pub mod opening;
pub mod openings_cli;
pub mod protocol;
pub mod search;
pub mod shard;
pub mod time;
pub mod train;
pub mod tt;
pub mod view;
#[cfg(feature = "web")]
pub mod web;
