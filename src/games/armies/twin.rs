//! Armies' GDL twin (`games/gdl/armies.kif`, the default parameters),
//! through which GGP players take part (`protocol = "ggp"`).

use super::{Armies, ArmiesParams, Commitment};
use crate::external::{ggp, ProcessProtocol};

/// The twin: committing 3 armies is `(commit 3)`.
pub static TWIN: ggp::Twin<Armies> = ggp::Twin {
    description: |params| {
        ggp::default_only::<ArmiesParams>(params, include_str!("../../../games/gdl/armies.kif"))
    },
    kif: |c: &Commitment| format!("(commit {c})"),
};

/// GGP players of armies.
pub const GGP: ProcessProtocol<Armies> = ggp::protocol(|l| ggp::player(l, &TWIN));
