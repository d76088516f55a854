//! The network file (`docs/network.md` §3).
//!
//! Layout, little-endian: the magic `TYNETWRK`, the format version (u32,
//! [`FORMAT_VERSION`]), the networks' own version (u32), the width [`HIDDEN`] (u32), the
//! number of networks (u32); each network: its rule index (u8, [`Rule::index`]), its colour
//! groups (u8, 1 or 2), two zero bytes, then `groups × ROWS × HIDDEN` embeddings (i16),
//! [`INPUT`] accumulator biases (i32), `HIDDEN × INPUT` first-layer weights (i16),
//! [`HIDDEN`] first-layer biases (i32), [`HIDDEN`] output weights (i16), the output bias
//! (i32); finally the 64-bit FNV-1a checksum of every byte before it. A rule appears at most
//! once; rules without a network are evaluated by the tables.

use super::{Network, RuleNet, HIDDEN, INPUT, ROWS};
use crate::core::Rule;
use crate::eval::weights::{seal, Reader, WeightsError};
use std::path::Path;

/// The file's magic bytes.
pub const MAGIC: &[u8; 8] = b"TYNETWRK";
/// The version of the layout this code reads and writes.
pub const FORMAT_VERSION: u32 = 1;

impl Network {
    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::new();
        b.extend_from_slice(MAGIC);
        for v in [FORMAT_VERSION, self.version, HIDDEN as u32] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        let nets: Vec<(usize, &RuleNet)> = self
            .rules
            .iter()
            .enumerate()
            .filter_map(|(i, n)| n.as_ref().map(|n| (i, n)))
            .collect();
        b.extend_from_slice(&(nets.len() as u32).to_le_bytes());
        for (rule, n) in nets {
            b.extend_from_slice(&[rule as u8, n.groups as u8, 0, 0]);
            n.embed
                .iter()
                .for_each(|v| b.extend_from_slice(&v.to_le_bytes()));
            n.bias0
                .iter()
                .for_each(|v| b.extend_from_slice(&v.to_le_bytes()));
            n.w1.iter()
                .for_each(|v| b.extend_from_slice(&v.to_le_bytes()));
            n.b1.iter()
                .for_each(|v| b.extend_from_slice(&v.to_le_bytes()));
            n.w2.iter()
                .for_each(|v| b.extend_from_slice(&v.to_le_bytes()));
            b.extend_from_slice(&n.b2.to_le_bytes());
        }
        seal(&mut b);
        b
    }

    /// Reads networks from the file's bytes.
    ///
    /// Errors: [`WeightsError`] (bad magic or version, truncated, corrupt, a width other
    /// than [`HIDDEN`], a rule unknown or twice, bad colour groups, trailing bytes).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, WeightsError> {
        let mut r = Reader::checked(bytes, MAGIC, FORMAT_VERSION)?;
        let version = r.u32()?;
        let hidden = r.u32()?;
        if hidden as usize != HIDDEN {
            return Err(WeightsError::BadTable(format!(
                "network width {hidden}, this build reads {HIDDEN}"
            )));
        }
        let count = r.u32()?;
        let mut net = Network::empty(version);
        for _ in 0..count {
            let head = r.take(4)?;
            let (ri, groups) = (head[0] as usize, head[1] as usize);
            let Some(rule) = Rule::ALL.get(ri) else {
                return Err(WeightsError::BadTable(format!("network for rule {ri}")));
            };
            if !(1..=2).contains(&groups) {
                return Err(WeightsError::BadTable(format!(
                    "{} network: {groups} colour groups",
                    rule.name()
                )));
            }
            if net.rules[ri].is_some() {
                return Err(WeightsError::BadTable(format!(
                    "{} network appears twice",
                    rule.name()
                )));
            }
            net.rules[ri] = Some(read_rule_net(&mut r, groups)?);
        }
        if !r.at_end() {
            return Err(WeightsError::Trailing);
        }
        Ok(net)
    }

    /// Reads a network file.
    ///
    /// Errors: [`WeightsError::Io`] if it cannot be read, else as [`Network::from_bytes`].
    pub fn load(path: &Path) -> Result<Network, WeightsError> {
        let bytes = std::fs::read(path).map_err(|e| WeightsError::Io {
            path: path.display().to_string(),
            reason: e.to_string(),
        })?;
        Network::from_bytes(&bytes)
    }

    /// Writes a network file.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        std::fs::write(path, self.to_bytes())
    }
}

/// Reads `n` little-endian values of `W` bytes each.
fn values<const W: usize, T>(
    r: &mut Reader,
    n: usize,
    from: fn([u8; W]) -> T,
) -> Result<Vec<T>, WeightsError> {
    let bytes = r.take(n * W)?;
    Ok(bytes
        .chunks_exact(W)
        .map(|c| from(c.try_into().expect("W bytes")))
        .collect())
}

fn read_rule_net(r: &mut Reader, groups: usize) -> Result<RuleNet, WeightsError> {
    let embed = values(r, groups * ROWS * HIDDEN, i16::from_le_bytes)?;
    let bias0 = values(r, INPUT, i32::from_le_bytes)?;
    let w1 = values(r, HIDDEN * INPUT, i16::from_le_bytes)?;
    let b1 = values(r, HIDDEN, i32::from_le_bytes)?;
    let w2 = values(r, HIDDEN, i16::from_le_bytes)?;
    let b2 = values(r, 1, i32::from_le_bytes)?[0];
    Ok(RuleNet {
        groups,
        embed,
        bias0: bias0.try_into().expect("INPUT values"),
        w1,
        b1: b1.try_into().expect("HIDDEN values"),
        w2: w2.try_into().expect("HIDDEN values"),
        b2,
    })
}
