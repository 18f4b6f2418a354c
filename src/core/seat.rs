//! The two seats at a table and a value per seat.
//!
//! Games and reports speak of "player 1 / player 2" (bidding) or "white / black"
//! (breakthrough); the code speaks of [`Seat::First`] and [`Seat::Second`], and keeps
//! one value per seat in a [`BySeat`] rather than in `[T; 2]` indexed by numbers
//! (the idea of shakmaty's `Color` and `ByColor`).

use std::{
    fmt,
    ops::{Index, IndexMut},
};

use serde::{Deserialize, Serialize};

/// One of the two seats. `First` moves first in alternating games and is
/// "player 1" in the bidding game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Seat {
    First,
    Second,
}

impl Seat {
    /// Both seats, first then second.
    pub const ALL: [Seat; 2] = [Seat::First, Seat::Second];

    /// The other seat.
    pub fn other(self) -> Seat {
        match self {
            Seat::First => Seat::Second,
            Seat::Second => Seat::First,
        }
    }

    /// 1 for the first seat, 2 for the second: the player number of the rule texts.
    pub fn number(self) -> u8 {
        match self {
            Seat::First => 1,
            Seat::Second => 2,
        }
    }

    /// 0 for the first seat, 1 for the second.
    pub fn index(self) -> usize {
        match self {
            Seat::First => 0,
            Seat::Second => 1,
        }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Seat::First => "first",
            Seat::Second => "second",
        })
    }
}

/// A value for each seat.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "[T; 2]", into = "[T; 2]")]
#[serde(bound(
    serialize = "T: Clone + Serialize",
    deserialize = "T: Deserialize<'de>"
))]
pub struct BySeat<T> {
    pub first: T,
    pub second: T,
}

impl<T> BySeat<T> {
    pub fn new(first: T, second: T) -> Self {
        BySeat { first, second }
    }

    /// The value `f(seat)` for each seat.
    pub fn from_fn(mut f: impl FnMut(Seat) -> T) -> Self {
        BySeat {
            first: f(Seat::First),
            second: f(Seat::Second),
        }
    }

    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> BySeat<U> {
        BySeat {
            first: f(self.first),
            second: f(self.second),
        }
    }

    pub fn as_ref(&self) -> BySeat<&T> {
        BySeat {
            first: &self.first,
            second: &self.second,
        }
    }

    pub fn as_mut(&mut self) -> BySeat<&mut T> {
        BySeat {
            first: &mut self.first,
            second: &mut self.second,
        }
    }

    /// The values swapped between the seats.
    pub fn swap(self) -> Self {
        BySeat {
            first: self.second,
            second: self.first,
        }
    }
}

impl<T> Index<Seat> for BySeat<T> {
    type Output = T;
    fn index(&self, seat: Seat) -> &T {
        match seat {
            Seat::First => &self.first,
            Seat::Second => &self.second,
        }
    }
}

impl<T> IndexMut<Seat> for BySeat<T> {
    fn index_mut(&mut self, seat: Seat) -> &mut T {
        match seat {
            Seat::First => &mut self.first,
            Seat::Second => &mut self.second,
        }
    }
}

impl<T> From<[T; 2]> for BySeat<T> {
    fn from([first, second]: [T; 2]) -> Self {
        BySeat { first, second }
    }
}

impl<T> From<BySeat<T>> for [T; 2] {
    fn from(b: BySeat<T>) -> Self {
        [b.first, b.second]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn other_seat_and_numbers() {
        assert_eq!(Seat::First.other(), Seat::Second);
        assert_eq!(Seat::Second.other(), Seat::First);
        assert_eq!(Seat::First.number(), 1);
        assert_eq!(Seat::Second.number(), 2);
    }

    #[test]
    fn by_seat_indexes_and_serializes_as_a_pair() {
        let mut b = BySeat::new(3, 4);
        b[Seat::Second] += 1;
        assert_eq!(b[Seat::First], 3);
        assert_eq!(b.swap(), BySeat::new(5, 3));
        assert_eq!(serde_json::to_string(&b).unwrap(), "[3,5]");
        let back: BySeat<i32> = serde_json::from_str("[1,2]").unwrap();
        assert_eq!(back, BySeat::new(1, 2));
    }
}
