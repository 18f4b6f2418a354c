//! Coordination's GDL twin (`games/gdl/coordination.kif`, the default
//! parameters), through which GGP players take part (`protocol = "ggp"`).

use super::{Coordination, CoordinationParams, Side};
use crate::external::{ggp, ProcessProtocol};

/// The twin: a side is written as ladder writes it (`left`, `right`).
pub static TWIN: ggp::Twin<Coordination> = ggp::Twin {
    description: |params| {
        ggp::default_only::<CoordinationParams>(
            params,
            include_str!("../../../games/gdl/coordination.kif"),
        )
    },
    kif: |side: &Side| side.to_string(),
};

/// GGP players of coordination.
pub const GGP: ProcessProtocol<Coordination> = ggp::protocol(|l| ggp::player(l, &TWIN));
