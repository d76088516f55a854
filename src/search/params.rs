//! Search parameters (docs/strength.md §2).
//!
//! In a normal build [`PARAMS`] is a constant ([`Params::DEFAULT`]), so the search's
//! conditions on it fold away. Built with the cargo feature `tune`, [`PARAMS`] is read once
//! from the environment variable `TIANYUAN_PARAMS` (`name=value,name=value`, unknown names
//! ignored) on top of the defaults: a development aid for tuning experiments
//! (`tools/spsa.py`), never part of a release build.
//!
//! Where the values come from: most are the values of Rapfi's classical search
//! (dhbloo/rapfi, its search parameters), its margins scaled by 0.8 to our evaluation
//! units; the rules they tune, and which are Stockfish's ideas, are credited in
//! docs/strength.md §2.2.
//!
//! Depths are in plies (fractional), margins in evaluation units (200 a logistic unit,
//! [`crate::eval::EVAL_SCALE`]). Where a parameter has a renju value (`*_renju`), renju
//! uses it and the other rules the plain one.

macro_rules! params {
    ($($(#[doc = $doc:literal])* $name:ident: $ty:ty = $default:expr,)*) => {
        /// The tunable search parameters (see the module docs).
        #[derive(Clone, Debug)]
        pub struct Params {
            $($(#[doc = $doc])* pub $name: $ty,)*
        }

        impl Params {
            /// The parameters of release builds (docs/strength.md §2).
            pub const DEFAULT: Params = Params { $($name: $default,)* };

            /// Sets the parameter `name` to `value`; false for an unknown name.
            #[cfg(feature = "tune")]
            fn set(&mut self, name: &str, value: f64) -> bool {
                match name {
                    $(stringify!($name) => self.$name = value as $ty,)*
                    _ => return false,
                }
                true
            }
        }
    };
}

params! {
    /// Late-move reduction factor F (reduction F² ln(depth) ln(move number)), freestyle,
    /// standard and caro.
    lmr_factor: f32 = 1.0,
    /// The same for renju.
    lmr_factor_renju: f32 = 0.75,
    /// Extra reduction at a non-PV node whose evaluation did not improve over two plies
    /// (when the reduction is above one ply).
    lmr_not_improving: f32 = 1.0,
    /// Less reduction at a node that is or was on a principal variation.
    lmr_pv_mark: f32 = 0.97,
    /// More reduction for moves of a node that does not raise the root's alpha (odd plies).
    lmr_no_alpha: f32 = 0.98,
    /// More reduction at an expected cut node for moves other than a quiet killer.
    lmr_cut: f32 = 1.8,
    /// More reduction for an answer to an open three that blocks no four and lies more than
    /// four points from the opponent's last move ...
    lmr_far_defence_opp: f32 = 1.93,
    /// ... and from our own last move.
    lmr_far_defence_own: f32 = 0.96,
    /// Less reduction for a threat (three or better) after our own threat two plies up.
    lmr_continued_attack: f32 = 0.53,
    /// Less reduction for renju black's points that look forbidden but are not.
    lmr_false_forbidden: f32 = 1.05,
    /// History units per ply of less reduction (deeper than 5.4 plies: `lmr_history_deep`).
    lmr_history: f32 = 12267.0,
    /// See `lmr_history`.
    lmr_history_deep: f32 = 16647.0,
    /// History offset of the stat score (a move of no history gets this much more reduction).
    history_offset: i32 = 3322,
    /// Extension of the answer to a four (the forced block).
    ext_forced: f32 = 1.3,
    /// Singular extension from this depth.
    singular_depth: f32 = 6.65,
    /// Singular extension: the table entry must be at most this much shallower.
    singular_entry_slack: f32 = 2.03,
    /// Singular extension margin per ply (plus 0.8 a ply for a node that was on a PV but is
    /// not searched as one).
    singular_margin: f32 = 0.73,
    /// Singular extension margin per ply, renju.
    singular_margin_renju: f32 = 0.75,
    /// The singular test search runs at this share of the depth.
    singular_test_share: f32 = 0.54,
    /// A non-PV singular move this far (less 0.6 a ply, at most 9) below the margin is
    /// extended two plies ...
    singular_far_margin: i32 = 23,
    /// ... while the line's extra extensions stay below this.
    singular_double_room: f32 = 10.8,
    /// The table move is searched this much shallower when not singular but at or above beta.
    singular_shallower: f32 = 1.5,
    /// Razoring below this depth.
    razor_depth: f32 = 2.6,
    /// Razoring margin: a d² + b d + c.
    razor_a: f32 = 0.14,
    /// See `razor_a`.
    razor_b: f32 = 11.2,
    /// See `razor_a`.
    razor_c: f32 = 15.0,
    /// Futility margin a ply (freestyle, standard, caro).
    futility: i32 = 50,
    /// Futility margin a ply, renju.
    futility_renju: i32 = 64,
    /// Less futility margin a ply at a cut node without a table entry.
    futility_cut: i32 = 10,
    /// Move-count pruning: moves searched at depth d are (base + d^exp) / (2 - improving).
    mcp_base: f32 = 3.0,
    /// See `mcp_base`.
    mcp_exp: f32 = 1.32,
    /// Fail-high reduction: a cut node whose evaluation is beta + a + b depth (+ c when the
    /// opponent has a four or open three) searches its moves a ply shallower.
    fhr_a: i32 = -7,
    /// See `fhr_a`.
    fhr_b: i32 = 12,
    /// See `fhr_a`.
    fhr_c: i32 = 70,
    /// A reduced search that beats alpha by this much (+ 9 a ply of the reduction) is
    /// re-searched a ply deeper ...
    lmr_deeper: i32 = 27,
    /// ... and by this much (+ 21 a ply) two plies deeper.
    lmr_deeper2: i32 = 279,
    /// History: attack history divides by this in move ordering ...
    hist_attack_div: i32 = 128,
    /// ... quiet history by this.
    hist_quiet_div: i32 = 256,
    /// Ordering bonus of the ply's killer moves.
    killer_bonus: i32 = 0,
    /// Local VCF delta pruning: the evaluation this far below alpha (+ this a ply of depth,
    /// at least 614) stands.
    leaf_delta: i32 = 1669,
    /// See `leaf_delta`.
    leaf_delta_ply: i32 = 48,
    /// Shallow non-PV nodes that face an open three are resolved by the quiescence search
    /// (the side's fours, else the evaluation) like razoring (1) or searched (0).
    razor_three: i32 = 1,
    /// Root moves from this one (from 0) get late-move reductions.
    root_lmr_from: i32 = 2,
    /// Aspiration window: first half-width.
    asp_window: i32 = 13,
    /// The static verdicts of the threat counts (straight four, four-three) at nodes and
    /// leaves: 1 on, 0 off (a switch for measuring the rule, docs/strength.md §2.2).
    static_verdicts: i32 = 1,
    /// The small VCF of nodes near the root runs up to this ply (0: never; a switch for
    /// measuring the rule, docs/strength.md §2.2).
    near_root_vcf_ply: i32 = 2,
    /// The root's VCF and VCT before the alpha-beta search: 1 on, 0 off (a switch for
    /// measuring the rule, docs/strength.md §2.2).
    root_threats: i32 = 1,
    /// Cut-offs by the table's bound at non-PV nodes: 1 on, 0 off (a switch for measuring
    /// the rule, docs/strength.md §2.2).
    table_cutoffs: i32 = 1,
}

impl Default for Params {
    fn default() -> Self {
        Params::DEFAULT
    }
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
            if let Ok(x) = v.trim().parse::<f64>() {
                p.set(k.trim(), x);
            }
        }
    }
    p
});
