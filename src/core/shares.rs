//! Connections counted by the address they come from, so that no address
//! takes every place: the arena's server (`web::connections`) and the GGP
//! player (`games::gdl::player`) each give an address a share.

use std::{
    collections::HashMap,
    net::IpAddr,
    sync::{Arc, Mutex, MutexGuard, PoisonError},
};

/// The connections held, by address.
#[derive(Clone, Default)]
pub struct Shares(Arc<Mutex<Counts>>);

#[derive(Default)]
struct Counts {
    each: HashMap<IpAddr, usize>,
    all: usize,
}

/// One connection, counted in its address's share until it is dropped.
pub struct Share {
    shares: Shares,
    ip: IpAddr,
}

impl Shares {
    fn counts(&self) -> MutexGuard<'_, Counts> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Counts one more connection from `ip`, unless `ip` holds `most`
    /// already or every address together holds `all`.
    pub fn enter(&self, ip: IpAddr, most: usize, all: usize) -> Option<Share> {
        let mut counts = self.counts();
        let mine = counts.each.get(&ip).copied().unwrap_or(0);
        if mine >= most || counts.all >= all {
            return None;
        }
        counts.each.insert(ip, mine + 1);
        counts.all += 1;
        Some(Share {
            shares: self.clone(),
            ip,
        })
    }

    /// The connections held, from every address.
    pub fn total(&self) -> usize {
        self.counts().all
    }
}

impl Drop for Share {
    fn drop(&mut self) {
        let mut counts = self.shares.counts();
        if let Some(n) = counts.each.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                counts.each.remove(&self.ip);
            }
            counts.all -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_are_limited_in_all_and_by_address() {
        let shares = Shares::default();
        let (a, b): (IpAddr, IpAddr) = ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        let mut held: Vec<Share> = (0..16).map(|_| shares.enter(a, 16, 64).unwrap()).collect();
        assert!(shares.enter(a, 16, 64).is_none(), "one more from a");
        held.push(shares.enter(b, 16, 64).expect("b has its own share"));
        held.remove(0);
        held.push(shares.enter(a, 16, 64).expect("a's share has room again"));
        drop(held);
        assert_eq!(shares.total(), 0);
        assert!(
            shares.counts().each.is_empty(),
            "addresses are forgotten at 0"
        );
        let many: Vec<Share> = (0..64)
            .map(|i| {
                shares
                    .enter(IpAddr::from([10, 1, 0, i as u8]), 16, 64)
                    .unwrap()
            })
            .collect();
        assert_eq!(shares.total(), 64);
        assert!(shares.enter(b, 16, 64).is_none(), "the whole limit");
        drop(many);
        assert!(shares.enter(b, 16, 64).is_some());
    }
}
