//! Search parameters.
//!
//! In a normal build [`PARAMS`] is a constant ([`Params::DEFAULT`]), so the search's
//! conditions on it fold away. Built with the cargo feature `tune`, [`PARAMS`] is read once
//! from the environment variable `TIANYUAN_PARAMS` (`name=value,name=value`, unknown names
//! ignored) on top of the defaults: a development aid for tuning experiments
//! (`tools/spsa.py`), never part of a release build.

/// The tunable search parameters (see the module docs).
#[derive(Clone, Debug)]
pub struct Params {
    /// Move-count pruning: 1 the log-depth form at every depth, 0 the fixed count at depth
    /// 3 and below, other values none.
    pub mcp: i32,
    /// Move-count pruning: base count (quiet moves searched at depth 0).
    pub mcp_base: f64,
    /// Move-count pruning: exponent of the depth.
    pub mcp_exp: f64,
    /// Late-move reduction: factor of ln(depth) ln(move number).
    pub lmr_factor: f64,
    /// Late-move reduction: added for quiet moves.
    pub lmr_quiet: f64,
    /// Late-move reduction: new (1) or the old fixed 1-3 plies for quiet moves only (0).
    pub lmr_new: i32,
    /// Static four-three / double-three mates on (1) or off (0).
    pub static_mates: i32,
    /// Answers to an open three cost no depth (1) or one ply (0).
    pub ext_three: i32,
    /// Fixed move-count pruning (`mcp` 0): up to this depth ...
    pub mcp0_depth: i32,
    /// ... after `mcp0_base + mcp0_mul * depth` moves.
    pub mcp0_base: i32,
    /// See `mcp0_base`.
    pub mcp0_mul: i32,
    /// Internal iterative reduction from this depth (0: off).
    pub iir: i32,
    /// Razoring up to this depth (0: off).
    pub razor: i32,
    /// Razoring margin per ply of depth, in evaluation units.
    pub razor_margin: i32,
    /// Futility pruning up to this depth (0: off).
    pub futility: i32,
    /// Futility margin per ply of depth, in evaluation units.
    pub futility_margin: i32,
    /// Quiescence search of fours at the leaves: up to this many fours deep (0: off;
    /// docs/strength.md §2).
    pub qs: i32,
    /// Singular extension of the table move from this depth (0: off; docs/strength.md §2).
    pub se: i32,
    /// Singular extension: margin below the table score per ply of depth, in evaluation
    /// units.
    pub se_margin: i32,
    /// Singular extension: the table move is searched one ply shallower when it is not
    /// singular but its table score is at or above beta (1) or not (0).
    pub se_neg: i32,
    /// A bounded table score beyond the static evaluation replaces it in futility pruning
    /// and razoring (1) or not (0).
    pub tt_eval: i32,
    /// Attacker nodes of a VCF search at the first leaf when the side to move can make a
    /// four (0: off).
    pub leaf_vcf: i32,
    /// Move-count pruning `mcp` 2 also at PV nodes (1) or not (0).
    pub mcp_pv: i32,
    /// Moves with no shape for either side are pruned below this depth (0: off).
    pub trivial_depth: i32,
    /// Late-move reductions from this depth.
    pub lmr_depth: i32,
    /// Plies of reduction added at expected cut nodes for moves that are not killers.
    pub lmr_cut: i32,
    /// Razoring into the quiescence search up to this depth (0: off).
    pub razor_qs: i32,
    /// A bare four (a four that makes nothing else, [`crate::board::Combo::Four`]) counts as
    /// a quiet move for reductions and pruning (1) or not (0).
    pub bare_four_quiet: i32,
    /// Late-move reduction of a threat move (not quiet): this factor of the quiet base ...
    pub lmr_threat_mul: f64,
    /// ... plus this many plies.
    pub lmr_threat_add: f64,
}

impl Default for Params {
    fn default() -> Self {
        Params::DEFAULT
    }
}

impl Params {
    /// The parameters of release builds (docs/strength.md §2).
    pub const DEFAULT: Params = Params {
        mcp: 0,
        mcp_base: 4.0,
        mcp_exp: 1.3,
        lmr_factor: 1.1,
        lmr_quiet: -0.27,
        lmr_new: 1,
        static_mates: 1,
        ext_three: 0,
        mcp0_depth: 5,
        mcp0_base: 2,
        mcp0_mul: 2,
        iir: 5,
        razor: 3,
        razor_margin: 150,
        futility: 7,
        futility_margin: 15,
        qs: 1,
        se: 5,
        se_margin: 5,
        se_neg: 1,
        tt_eval: 1,
        leaf_vcf: 50,
        mcp_pv: 0,
        trivial_depth: 0,
        lmr_depth: 3,
        lmr_cut: 0,
        razor_qs: 0,
        bare_four_quiet: 0,
        lmr_threat_mul: 0.5,
        lmr_threat_add: -0.5,
    };
}

/// The parameters in force: the defaults (a build without the `tune` feature).
#[cfg(not(feature = "tune"))]
pub const PARAMS: Params = Params::DEFAULT;

/// The parameters in force: the defaults overridden by `TIANYUAN_PARAMS` (the `tune` feature).
#[cfg(feature = "tune")]
pub static PARAMS: once_cell::sync::Lazy<Params> = once_cell::sync::Lazy::new(|| {
    let mut p = Params::default();
    if let Ok(s) = std::env::var("TIANYUAN_PARAMS") {
        for kv in s.split(',') {
            let Some((k, v)) = kv.split_once('=') else {
                continue;
            };
            let Ok(x) = v.trim().parse::<f64>() else {
                continue;
            };
            match k.trim() {
                "mcp" => p.mcp = x as i32,
                "mcp_base" => p.mcp_base = x,
                "mcp_exp" => p.mcp_exp = x,
                "lmr_factor" => p.lmr_factor = x,
                "lmr_quiet" => p.lmr_quiet = x,
                "lmr_new" => p.lmr_new = x as i32,
                "static_mates" => p.static_mates = x as i32,
                "futility" => p.futility = x as i32,
                "ext_three" => p.ext_three = x as i32,
                "razor" => p.razor = x as i32,
                "iir" => p.iir = x as i32,
                "mcp0_depth" => p.mcp0_depth = x as i32,
                "mcp0_base" => p.mcp0_base = x as i32,
                "mcp0_mul" => p.mcp0_mul = x as i32,
                "razor_margin" => p.razor_margin = x as i32,
                "futility_margin" => p.futility_margin = x as i32,
                "qs" => p.qs = x as i32,
                "se" => p.se = x as i32,
                "se_margin" => p.se_margin = x as i32,
                "se_neg" => p.se_neg = x as i32,
                "tt_eval" => p.tt_eval = x as i32,
                "leaf_vcf" => p.leaf_vcf = x as i32,
                "mcp_pv" => p.mcp_pv = x as i32,
                "trivial_depth" => p.trivial_depth = x as i32,
                "lmr_depth" => p.lmr_depth = x as i32,
                "lmr_cut" => p.lmr_cut = x as i32,
                "razor_qs" => p.razor_qs = x as i32,
                "bare_four_quiet" => p.bare_four_quiet = x as i32,
                "lmr_threat_mul" => p.lmr_threat_mul = x,
                "lmr_threat_add" => p.lmr_threat_add = x,
                _ => {}
            }
        }
    }
    p
});
