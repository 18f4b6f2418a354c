//! The scoring armies and troops share, so neither game reaches into the
//! other: a pair of values (armies committed in a round, troops on one
//! field) gives 2 points to the larger, 0 to the smaller, 1 each when equal.

use crate::core::seat::BySeat;

/// Points per seat for one round's pair of values: 2/0 to the larger, 1/1 when equal.
pub fn round_points(a: u32, b: u32) -> BySeat<i32> {
    match a.cmp(&b) {
        std::cmp::Ordering::Greater => BySeat::new(2, 0),
        std::cmp::Ordering::Less => BySeat::new(0, 2),
        std::cmp::Ordering::Equal => BySeat::new(1, 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_larger_takes_two_and_equals_share() {
        assert_eq!(round_points(5, 3), BySeat::new(2, 0));
        assert_eq!(round_points(3, 5), BySeat::new(0, 2));
        assert_eq!(round_points(4, 4), BySeat::new(1, 1));
        assert_eq!(round_points(0, 0), BySeat::new(1, 1));
    }
}
