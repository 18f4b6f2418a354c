//! Bots for any GDL game beyond `random`.

use super::Gdl;
use crate::core::bot::Builtin;

pub const BOTS: &[Builtin<Gdl>] = &[];
