//! The training pipeline of the learned evaluation (`docs/training.md`): self-play games
//! ([`selfplay`]) in a documented record format ([`data`]), and the tuner ([`tune`]) that
//! fits the weights to them.

pub mod data;
pub mod selfplay;
pub mod tune;

use thiserror::Error;

/// Why a training tool (`selfplay`, `tune`) stopped; the command-line front end prints it as
/// one line on stderr with exit status 2 ([`crate::cli::bad_input`]).
#[derive(Debug, Error)]
pub enum TrainError {
    /// A bad command-line argument; the message names it.
    #[error("{0}")]
    BadArgument(String),
    /// A file that could not be opened.
    #[error("cannot open {path}: {source}")]
    Open {
        /// The file.
        path: String,
        /// The operating system's reason.
        source: std::io::Error,
    },
    /// A file that could not be written, with the reason when one is known.
    #[error("cannot write {path}{}", .reason.as_ref().map(|r| format!(": {r}")).unwrap_or_default())]
    Write {
        /// The file.
        path: String,
        /// The operating system's reason, if known.
        reason: Option<std::io::Error>,
    },
    /// A game file with a bad line.
    #[error("{path}: {source}")]
    Data {
        /// The file.
        path: String,
        /// The bad line and field.
        source: data::DataError,
    },
    /// A weights file that could not be read.
    #[error(transparent)]
    Weights(#[from] crate::eval::weights::WeightsError),
}
