//! The training pipeline of the learned evaluation (`docs/training.md`): self-play games
//! ([`selfplay`]) in a documented record format ([`data`]), and the tuner ([`tune`]) that
//! fits the weights to them.

pub mod data;
pub mod selfplay;
pub mod tune;
