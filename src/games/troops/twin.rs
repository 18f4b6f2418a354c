//! Troops' GDL twin (`games/gdl/troops.kif`, the default parameters),
//! through which GGP players take part (`protocol = "ggp"`).

use super::{Split, Troops, TroopsParams};
use crate::external::{ggp, ProcessProtocol};

/// The twin: the split `3,3,4` is `(split 3 3 4)`.
pub static TWIN: ggp::Twin<Troops> = ggp::Twin {
    description: |params| {
        ggp::default_only::<TroopsParams>(params, include_str!("../../../games/gdl/troops.kif"))
    },
    kif: |s: &Split| format!("(split {} {} {})", s.0[0], s.0[1], s.0[2]),
};

/// GGP players of troops.
pub const GGP: ProcessProtocol<Troops> = ggp::protocol(|l| ggp::player(l, &TWIN));
