//! Breakthrough's GDL twin (`games/gdl/breakthrough.kif`, the default 8x8
//! board), through which GGP players take part (`protocol = "ggp"`).

use super::{Breakthrough, BreakthroughParams, Step};
use crate::external::{ggp, ProcessProtocol};

/// The twin: `b2c3` is `(move 2 2 3 3)` (column, row; both from 1).
pub static TWIN: ggp::Twin<Breakthrough> = ggp::Twin {
    description: |params| {
        ggp::default_only::<BreakthroughParams>(
            params,
            include_str!("../../../games/gdl/breakthrough.kif"),
        )
    },
    kif: |step: &Step| {
        let (f, t) = (step.from, step.to);
        format!(
            "(move {} {} {} {})",
            f % 8 + 1,
            f / 8 + 1,
            t % 8 + 1,
            t / 8 + 1
        )
    },
};

/// GGP players of breakthrough.
pub const GGP: ProcessProtocol<Breakthrough> = ggp::protocol(|l| ggp::player(l, &TWIN));
