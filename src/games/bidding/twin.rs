//! The bidding game's GDL twin (`games/gdl/bidding.kif`, the default
//! parameters), through which GGP players take part (`protocol = "ggp"`).

use super::{Bid, Bidding, BiddingParams};
use crate::external::{ggp, ProcessProtocol};

/// The twin: a bid of 12 is `(bid 12)`.
pub static TWIN: ggp::Twin<Bidding> = ggp::Twin {
    description: |params| {
        ggp::default_only::<BiddingParams>(params, include_str!("../../../games/gdl/bidding.kif"))
    },
    kif: |bid: &Bid| format!("(bid {bid})"),
};

/// GGP players of the bidding game.
pub const GGP: ProcessProtocol<Bidding> = ggp::protocol(|l| ggp::player(l, &TWIN));
