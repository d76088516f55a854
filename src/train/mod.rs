//! The training pipeline of the learned evaluation (`docs/training.md`): self-play games
//! ([`selfplay`]) in a documented record format ([`data`]), and the tuner ([`tune`]) that
//! fits the weights to them.

pub mod data;
pub mod net;
pub mod selfplay;
pub mod target;
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

/// Reads the game files `paths` (the `selfplay` format) into one list, in order.
///
/// Errors: [`TrainError::Open`] for a file that cannot be opened, [`TrainError::Data`] for a
/// bad line (naming the file).
pub fn read_game_files(paths: &[String]) -> Result<Vec<data::GameRecord>, TrainError> {
    let mut games = Vec::new();
    for path in paths {
        let f = std::fs::File::open(path).map_err(|source| TrainError::Open {
            path: path.clone(),
            source,
        })?;
        let g = data::read_games(&mut std::io::BufReader::new(f)).map_err(|source| {
            TrainError::Data {
                path: path.clone(),
                source,
            }
        })?;
        games.extend(g);
    }
    Ok(games)
}

/// Parses `--copy TO=FROM` arguments into (to, from) rule pairs.
///
/// Errors: [`TrainError::BadArgument`] naming the bad argument.
pub fn parse_copies(
    args: &[String],
) -> Result<Vec<(crate::core::Rule, crate::core::Rule)>, TrainError> {
    use crate::core::Rule;
    args.iter()
        .map(|c| {
            let (to, from) = c
                .split_once('=')
                .ok_or_else(|| format!("--copy {c}: expected TO=FROM"))
                .map_err(TrainError::BadArgument)?;
            Ok((
                Rule::parse_explained(to).map_err(TrainError::BadArgument)?,
                Rule::parse_explained(from).map_err(TrainError::BadArgument)?,
            ))
        })
        .collect()
}
