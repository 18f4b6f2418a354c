//! A GDL game is its own twin: GGP players (`protocol = "ggp"`) get the
//! season's description itself.

use super::{Gdl, GdlMove};
use crate::external::{ggp, ProcessProtocol};

/// The description read when the season was planned (`text` in its
/// parameters); moves are already KIF in normal form.
pub static TWIN: ggp::Twin<Gdl> = ggp::Twin {
    description: |params| {
        params
            .get("text")
            .and_then(|t| t.as_str())
            .map(str::to_string)
            .ok_or_else(|| "the season's parameters hold no description text".to_string())
    },
    kif: |m: &GdlMove| m.0.clone(),
};

/// GGP players of any GDL game.
pub const GGP: ProcessProtocol<Gdl> = ggp::protocol(|l| ggp::player(l, &TWIN));
