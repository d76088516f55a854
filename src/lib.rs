//! Tianyuan: a gomoku and renju engine for Piskvork/Gomocup managers.
//!
//! Layers, each using only those above it (see `docs/style.md` of the project):
//! - [`core`]: points, colours, rules, notation;
//! - [`board`]: stones, packed lines, incremental patterns, forbidden points, win detection.
#![warn(missing_docs)]

pub mod board;
pub mod core;
