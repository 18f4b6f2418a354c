//! The arena: a league that never stops. Bots join, retire and come back as
//! new versions while it plays; its matchmaking ([`matchmaking`]) spends
//! each batch of games where the ratings are least certain.

pub mod matchmaking;
