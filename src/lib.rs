//! Tianyuan: a gomoku and renju engine for Piskvork/Gomocup managers.
//!
//! Layers, each using only those above it:
//! - [`core`]: points, colours, rules, notation;
//! - [`board`]: stones, packed lines, incremental patterns, forbidden points, win detection;
//! - [`time`]: the manager's clock turned into a search budget;
//! - [`search`]: iterative-deepening PVS, transposition table, VCF/VCT solvers;
//! - [`engine`]: the facade that protocol, CLI and match code use;
//! - [`protocol`]: the Piskvork/Gomocup protocol on stdin/stdout;
//! - [`arena`]: engine-against-engine matches with a referee;
//! - [`cli`]: the one-shot command-line tools (`forbidden`, `analyze`, `solve`, `bench`);
//! - [`web`]: the web board, a local HTTP server with a page and a JSON API (`serve`).
#![warn(missing_docs)]

pub mod arena;
pub mod bench;
pub mod board;
pub mod cli;
pub mod core;
pub mod engine;
pub mod eval;
pub mod protocol;
pub mod search;
pub mod time;
pub mod tt;
pub mod web;
