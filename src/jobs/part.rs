//! Which of the inputs' games a run takes: all of them, the K-th of N
//! shards (`--shard K/N`), or a range of games (a Dask task's).
//!
//! Games are counted across every input of a run, in input order, from 0:
//! the first input's games, then the second's, and so on — whether a
//! filter keeps them or not, so that a game's part depends on the inputs
//! alone. Shard K of N takes the games whose count leaves K − 1 when
//! divided by N (round-robin). That needs no count of the games ahead (a
//! pipe, a compressed stream, a folder of files read once), spreads the
//! slow games of any stretch of an archive over every shard, and keeps
//! each shard's games in input order; every output row names its source
//! and game, so the parts merge back by those. A range (`start..end`)
//! is the contiguous block a Dask task takes once the games are counted.
//!
//! The selection is done as the games are read, on the pipeline's reader
//! thread ([`Parting::input`]): the games of other parts are parsed to be
//! counted, never replayed or worked on.

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crate::formats::GameReader;
use crate::record::source::ReadError;
use crate::GameRecord;

/// Which games a run takes, by their count across all its inputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Part {
    /// Every game.
    #[default]
    All,
    /// Shard `k` of `n` (1 ≤ k ≤ n, n ≥ 2): game `i` when `i % n == k - 1`.
    Shard {
        /// Which shard, from 1.
        k: u64,
        /// How many.
        n: u64,
    },
    /// Games `start..end` (from 0, `end` not included).
    Range {
        /// The first game taken.
        start: u64,
        /// The game after the last taken.
        end: u64,
    },
}

/// A shard or range that cannot be: what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct PartError(String);

impl Part {
    /// Shard `k` of `n`; shard 1 of 1 is every game.
    pub fn shard(k: u64, n: u64) -> Result<Part, PartError> {
        if n == 0 {
            return Err(PartError(
                "N (the number of shards) must be at least 1".to_owned(),
            ));
        }
        if k == 0 || k > n {
            return Err(PartError(format!(
                "K (which shard) must be from 1 to N = {n}"
            )));
        }
        Ok(if n == 1 {
            Part::All
        } else {
            Part::Shard { k, n }
        })
    }

    /// Games `start..end`, counted from 0 over all the inputs.
    pub fn range(start: u64, end: u64) -> Result<Part, PartError> {
        if end < start {
            return Err(PartError(format!(
                "games {start}..{end}: the end comes before the start"
            )));
        }
        Ok(Part::Range { start, end })
    }

    /// Whether game `i` (from 0, across the inputs) is taken.
    #[must_use]
    pub fn takes(&self, i: u64) -> bool {
        match *self {
            Part::All => true,
            Part::Shard { k, n } => i % n == k - 1,
            Part::Range { start, end } => (start..end).contains(&i),
        }
    }

    /// Whether no game after game `i` is taken.
    #[must_use]
    pub fn ends_before(&self, i: u64) -> bool {
        matches!(*self, Part::Range { end, .. } if i >= end)
    }

    /// Whether every game is taken.
    #[must_use]
    pub fn is_all(&self) -> bool {
        *self == Part::All
    }

    /// How many of `total` games are taken.
    #[must_use]
    pub fn count_of(&self, total: u64) -> u64 {
        match *self {
            Part::All => total,
            Part::Shard { k, n } => (total + n - k) / n,
            Part::Range { start, end } => end.min(total).saturating_sub(start),
        }
    }
}

/// `K/N`: shard K of N.
impl FromStr for Part {
    type Err = PartError;

    fn from_str(text: &str) -> Result<Part, PartError> {
        let number = |what: &str, digits: &str| {
            digits
                .trim()
                .parse::<u64>()
                .map_err(|_| PartError(format!("{what} is not a whole number: give K/N, as 2/8")))
        };
        if let Some((k, n)) = text.split_once('/') {
            return Part::shard(number("K", k)?, number("N", n)?);
        }
        Err(PartError(
            "give K/N, shard K of N (as 2/8: every 8th game from the 2nd)".to_owned(),
        ))
    }
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Part::All => write!(f, "1/1"),
            Part::Shard { k, n } => write!(f, "{k}/{n}"),
            Part::Range { start, end } => write!(f, "{start}..{end}"),
        }
    }
}

/// A run's part, and the count of games read across its inputs.
#[derive(Clone, Debug, Default)]
pub struct Parting {
    part: Part,
    /// Games read so far in every input, taken or not (while a part is
    /// chosen; with every game the caller counts).
    read: Arc<AtomicU64>,
}

impl Parting {
    /// Counting from the first game of the first input.
    #[must_use]
    pub fn new(part: Part) -> Parting {
        Parting {
            part,
            read: Arc::default(),
        }
    }

    /// The part.
    #[must_use]
    pub fn part(&self) -> Part {
        self.part
    }

    /// Games read so far, taken or not; `all_read` is the caller's own
    /// count, used when every game is taken (then nothing is wrapped and
    /// counted here).
    #[must_use]
    pub fn games_read(&self, all_read: u64) -> u64 {
        if self.part.is_all() {
            all_read
        } else {
            self.read.load(Ordering::Relaxed)
        }
    }

    /// The next input's games, only the part's passed on (each keeps its
    /// number within its input); every game counted. Read game by game on
    /// the pipeline's reader thread when a part is chosen, as read
    /// otherwise. A read error is passed on where it comes.
    pub fn input(&self, games: Box<dyn GameReader>) -> Box<dyn GameReader> {
        if self.part.is_all() {
            return games;
        }
        Box::new(PartReader {
            games,
            part: self.part,
            read: Arc::clone(&self.read),
        })
    }
}

/// An input's games with only those of a part.
struct PartReader {
    games: Box<dyn GameReader>,
    part: Part,
    read: Arc<AtomicU64>,
}

impl Iterator for PartReader {
    type Item = Result<GameRecord, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            // Past a range's end nothing more is read, of this input or
            // of any later one.
            if self.part.ends_before(self.read.load(Ordering::Relaxed)) {
                return None;
            }
            let game = match self.games.next()? {
                Ok(game) => game,
                Err(err) => return Some(Err(err)),
            };
            if self.part.takes(self.read.fetch_add(1, Ordering::Relaxed)) {
                return Some(Ok(game));
            }
        }
    }
}

impl GameReader for PartReader {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::transcript::Reader;
    use proptest::prelude::*;

    fn reader(text: &str) -> Box<dyn GameReader> {
        Box::new(Reader::new(std::io::Cursor::new(text.as_bytes().to_vec())))
    }

    /// The games of inputs of the given sizes taken by `part`: (input,
    /// number within it).
    fn taken(sizes: &[usize], part: Part) -> Vec<(usize, u64)> {
        let parting = Parting::new(part);
        let mut out = Vec::new();
        for (i, &size) in sizes.iter().enumerate() {
            let text = "f5d6\n".repeat(size);
            for game in parting.input(reader(&text)) {
                out.push((i, game.unwrap().origin.index));
            }
        }
        out
    }

    proptest! {
        #[test]
        fn shards_are_disjoint_cover_every_game_and_keep_input_order(
            sizes in prop::collection::vec(0usize..12, 0..6),
            n in 1u64..7,
        ) {
            let all = taken(&sizes, Part::All);
            prop_assert_eq!(all.len(), sizes.iter().sum::<usize>());
            let shards: Vec<Vec<(usize, u64)>> =
                (1..=n).map(|k| taken(&sizes, Part::shard(k, n).unwrap())).collect();
            // Game i of the run is in shard i % n + 1, at place i / n.
            for (i, game) in all.iter().enumerate() {
                let (k, at) = (i as u64 % n, i as u64 / n);
                prop_assert_eq!(shards[k as usize].get(at as usize), Some(game));
            }
            prop_assert_eq!(shards.iter().map(Vec::len).sum::<usize>(), all.len());
            for (k, shard) in shards.iter().enumerate() {
                let part = Part::shard(k as u64 + 1, n).unwrap();
                prop_assert_eq!(shard.len() as u64, part.count_of(all.len() as u64));
            }
        }

        #[test]
        fn consecutive_ranges_cover_every_game_once(
            sizes in prop::collection::vec(0usize..12, 0..6),
            step in 1u64..9,
        ) {
            let all = taken(&sizes, Part::All);
            let mut joined = Vec::new();
            let mut start = 0;
            while start < all.len() as u64 + step {
                let part = Part::range(start, start + step).unwrap();
                let games = taken(&sizes, part);
                prop_assert_eq!(games.len() as u64, part.count_of(all.len() as u64));
                joined.extend(games);
                start += step;
            }
            prop_assert_eq!(joined, all);
        }
    }

    #[test]
    fn shards_are_read_from_text() {
        assert_eq!("2/8".parse(), Ok(Part::Shard { k: 2, n: 8 }));
        assert_eq!("1/1".parse(), Ok(Part::All));
        assert_eq!(Part::range(3, 10), Ok(Part::Range { start: 3, end: 10 }));
        assert!(Part::range(5, 2)
            .unwrap_err()
            .to_string()
            .contains("the end comes before"));
        assert_eq!("2/8".parse::<Part>().unwrap().to_string(), "2/8");
        for (bad, says) in [
            ("0/3", "K (which shard) must be from 1 to N = 3"),
            ("4/3", "K (which shard) must be from 1 to N = 3"),
            ("1/0", "N (the number of shards) must be at least 1"),
            ("a/3", "K is not a whole number"),
            ("1/x", "N is not a whole number"),
            ("-1/3", "K is not a whole number"),
            ("3", "give K/N"),
            ("3..5", "give K/N"),
        ] {
            let err = bad.parse::<Part>().unwrap_err().to_string();
            assert!(err.contains(says), "{bad}: {err}");
        }
    }

    #[test]
    fn the_count_goes_on_across_inputs_and_read_errors_pass() {
        let parting = Parting::new(Part::shard(2, 3).unwrap());
        let first: Vec<u64> = parting
            .input(reader("f5\nf5\nf5\nf5\n"))
            .map(|g| g.unwrap().origin.index)
            .collect();
        assert_eq!(first, [2]);
        assert_eq!(parting.games_read(0), 4);
        // The second input's games are the run's 5th and 6th: the 5th
        // (count 4) is shard 2's.
        let second: Vec<u64> = parting
            .input(reader("f5\nf5\n"))
            .map(|g| g.unwrap().origin.index)
            .collect();
        assert_eq!(second, [1]);
        assert_eq!(Parting::new(Part::All).games_read(17), 17);
    }

    #[test]
    fn a_range_stops_reading_at_its_end() {
        let parting = Parting::new(Part::range(1, 3).unwrap());
        let games: Vec<u64> = parting
            .input(reader(&"f5\n".repeat(100)))
            .map(|g| g.unwrap().origin.index)
            .collect();
        assert_eq!(games, [2, 3]);
        assert_eq!(parting.games_read(0), 3);
        assert_eq!(parting.input(reader("f5\n")).count(), 0);
    }
}
