//! The midgame search's transposition table: bounds on the depth-`d`
//! value of positions already searched, shared by every thread of a
//! search and kept between searches.
//!
//! A depth-`d` value is a pure function of the position and `d` (passes
//! cost no depth, so within one search every path to a position reaches it
//! with the same depth left), so an entry's bounds are true forever *for
//! its depth*, and bounds found again at that depth are merged. An entry of
//! another depth only lends its best move to the ordering: a cut-off from a
//! deeper entry would make the result depend on what the table held.
//!
//! The table is a fixed array of 64-byte buckets of two entries, allocated
//! once. Entries keep the whole position. Threads read and write without
//! locks: an entry is written as three words, the position's two XORed
//! with the data word, so a read that mixes two writes finds a position
//! that does not match and is thrown away (Hyatt's lockless hashing).

use std::sync::atomic::{AtomicU64, Ordering};

/// What the table knows of a position at one depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Entry {
    /// The depth the bounds are for.
    pub depth: u8,
    /// The value is at least this (1/64 disc).
    pub lower: i32,
    /// The value is at most this.
    pub upper: i32,
    /// The best move found, if any (a square index).
    pub best: Option<u8>,
}

#[derive(Default)]
struct Slot {
    /// The player's discs XOR the data word.
    player: AtomicU64,
    /// The opponent's discs XOR the data word, rotated.
    opponent: AtomicU64,
    /// `lower`, `upper` (as `i16`, their ends meaning "none"), depth, best
    /// move (`NO_MOVE` for none) and date, in that order from bit 0.
    data: AtomicU64,
}

#[repr(C, align(64))]
#[derive(Default)]
struct Bucket {
    slots: [Slot; 2],
}

const NO_MOVE: u64 = 0xff;

/// `n` empty buckets, or `None` when the allocator has no memory for
/// them. Zeroed memory: the system gives its pages as the search first
/// touches them, not all of a large table up front (a 6 GB table was 6 s
/// of writing zeros).
fn zeroed(n: usize) -> Option<Box<[Bucket]>> {
    let layout = std::alloc::Layout::array::<Bucket>(n).ok()?;
    // SAFETY: the layout is non-empty (`n` ≥ 1 buckets of 64 bytes); a
    // zeroed `Bucket` is the default one (atomics of zero); the box frees
    // the slice with the same layout (`n` buckets) from the same global
    // allocator.
    unsafe {
        let raw = std::alloc::alloc_zeroed(layout).cast::<Bucket>();
        if raw.is_null() {
            return None;
        }
        Some(Box::from_raw(std::ptr::slice_from_raw_parts_mut(raw, n)))
    }
}

/// The bounds a table stores: an `i16` each, `i16::MIN` as "no lower
/// bound" and `i16::MAX` as "no upper bound"; a bound beyond them is kept
/// weakened, never strengthened.
const NONE_LOW: i32 = i16::MIN as i32;
const NONE_HIGH: i32 = i16::MAX as i32;

fn pack(entry: Entry, date: u64) -> u64 {
    let lower = if entry.lower <= NONE_LOW {
        NONE_LOW
    } else {
        entry.lower.min(NONE_HIGH - 1)
    };
    let upper = if entry.upper >= NONE_HIGH {
        NONE_HIGH
    } else {
        entry.upper.max(NONE_LOW + 1)
    };
    (lower as i16 as u16 as u64)
        | (upper as i16 as u16 as u64) << 16
        | u64::from(entry.depth) << 32
        | entry.best.map_or(NO_MOVE, u64::from) << 40
        | (date & 0xff) << 48
}

/// The lower bound meaning "none" once unpacked.
pub(super) const NO_LOWER: i32 = i32::MIN / 2;
/// The upper bound meaning "none" once unpacked.
pub(super) const NO_UPPER: i32 = i32::MAX / 2;

fn unpack(data: u64) -> Entry {
    let lower = i32::from(data as u16 as i16);
    let upper = i32::from((data >> 16) as u16 as i16);
    let best = (data >> 40) & 0xff;
    Entry {
        depth: (data >> 32) as u8,
        lower: if lower == NONE_LOW { NO_LOWER } else { lower },
        upper: if upper == NONE_HIGH { NO_UPPER } else { upper },
        best: (best != NO_MOVE).then_some(best as u8),
    }
}

fn date_of(data: u64) -> u64 {
    (data >> 48) & 0xff
}

/// A fixed-size transposition table.
pub(super) struct Table {
    buckets: Box<[Bucket]>,
    date: AtomicU64,
}

impl Table {
    /// A table of about `bytes` bytes (at least one bucket), made as the
    /// solver's is ([`crate::solve::largest_table`]: at most a quarter of
    /// the machine's memory, halved until given; [`Table::bytes`] tells).
    pub fn new(bytes: usize) -> Table {
        Table {
            buckets: crate::solve::largest_table::<Bucket, _>(bytes, zeroed),
            date: AtomicU64::new(0),
        }
    }

    /// The table's size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// Starts a new search: entries of older searches are replaced first.
    pub fn new_date(&self) {
        self.date.fetch_add(1, Ordering::Relaxed);
    }

    /// Forgets everything.
    pub fn clear(&self) {
        for bucket in self.buckets.iter() {
            for slot in &bucket.slots {
                slot.player.store(0, Ordering::Relaxed);
                slot.opponent.store(0, Ordering::Relaxed);
                slot.data.store(0, Ordering::Relaxed);
            }
        }
    }

    #[inline(always)]
    fn bucket(&self, player: u64, opponent: u64) -> &Bucket {
        let h = (player.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ opponent)
            .wrapping_mul(0xbf58_476d_1ce4_e5b9);
        let h = h ^ (h >> 31);
        let index = ((u128::from(h) * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// Reads a slot: its position and data, if it holds one whole write.
    #[inline(always)]
    fn read(slot: &Slot) -> (u64, u64, u64) {
        let data = slot.data.load(Ordering::Relaxed);
        let p = slot.player.load(Ordering::Relaxed) ^ data;
        let o = slot.opponent.load(Ordering::Relaxed) ^ data.rotate_left(29);
        (p, o, data)
    }

    /// What the table holds of a position, at whatever depth.
    #[inline(always)]
    pub fn probe(&self, player: u64, opponent: u64) -> Option<Entry> {
        let bucket = self.bucket(player, opponent);
        bucket.slots.iter().find_map(|slot| {
            let (p, o, data) = Self::read(slot);
            (p == player && o == opponent && data != 0).then(|| unpack(data))
        })
    }

    /// Records what a search of `depth` in the window `alpha, beta` found:
    /// `value` is a lower bound when at least `beta`, an upper bound when
    /// at most `alpha`, exact between. Merged with what the table knows of
    /// the position at the same depth.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub fn store(
        &self,
        player: u64,
        opponent: u64,
        depth: u32,
        alpha: i32,
        beta: i32,
        value: i32,
        best: Option<u8>,
    ) {
        let depth = depth.min(255) as u8;
        let mut entry = Entry {
            depth,
            lower: if value > alpha { value } else { NO_LOWER },
            upper: if value < beta { value } else { NO_UPPER },
            best,
        };
        let date = self.date.load(Ordering::Relaxed) & 0xff;
        let bucket = self.bucket(player, opponent);
        let mut target = None;
        for (i, slot) in bucket.slots.iter().enumerate() {
            let (p, o, data) = Self::read(slot);
            if p == player && o == opponent && data != 0 {
                let old = unpack(data);
                if old.depth > depth && date_of(data) == date {
                    // A deeper bound of this search is worth more (a
                    // shallow search for ordering must not erase it).
                    return;
                }
                if old.depth == depth {
                    entry.lower = entry.lower.max(old.lower);
                    entry.upper = entry.upper.min(old.upper);
                }
                if entry.best.is_none() {
                    entry.best = old.best;
                }
                target = Some(i);
                break;
            }
        }
        let i = target.unwrap_or_else(|| {
            // Replace an entry of an older search first, then the
            // shallower one.
            let priority = |slot: &Slot| {
                let data = slot.data.load(Ordering::Relaxed);
                (u64::from(date_of(data) == date) << 8) | ((data >> 32) & 0xff)
            };
            usize::from(priority(&bucket.slots[1]) < priority(&bucket.slots[0]))
        });
        let data = pack(entry, date);
        let slot = &bucket.slots[i];
        slot.player.store(player ^ data, Ordering::Relaxed);
        slot.opponent
            .store(opponent ^ data.rotate_left(29), Ordering::Relaxed);
        slot.data.store(data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// More memory than any machine has (a petabyte): a smaller table that
    /// works, never a stopped process.
    #[test]
    fn a_table_larger_than_memory_is_made_smaller() {
        let table = Table::new(1 << 50);
        assert!(table.bytes() < 1 << 50 && table.bytes() >= 64);
        assert_eq!(table.probe(1, 2), None);
        table.store(1, 2, 5, 90, 100, 95, Some(19));
        let e = table.probe(1, 2).unwrap();
        assert_eq!((e.depth, e.lower, e.upper, e.best), (5, 95, 95, Some(19)));
    }

    #[test]
    fn bounds_of_one_depth_are_merged() {
        let table = Table::new(1 << 16);
        assert_eq!(table.probe(1, 2), None);
        table.store(1, 2, 5, 90, 100, 120, Some(19));
        let e = table.probe(1, 2).unwrap();
        assert_eq!(
            (e.depth, e.lower, e.upper, e.best),
            (5, 120, NO_UPPER, Some(19))
        );
        table.store(1, 2, 5, 190, 200, 140, None);
        let e = table.probe(1, 2).unwrap();
        assert_eq!((e.lower, e.upper, e.best), (120, 140, Some(19)));
        // Another depth replaces the bounds and keeps the move.
        table.store(1, 2, 6, -10, 10, 3, None);
        let e = table.probe(1, 2).unwrap();
        assert_eq!((e.depth, e.lower, e.upper, e.best), (6, 3, 3, Some(19)));
    }

    #[test]
    fn bounds_beyond_sixteen_bits_are_weakened_never_strengthened() {
        let table = Table::new(1 << 12);
        table.store(7, 8, 3, -40_000, -39_999, -40_000, None);
        let e = table.probe(7, 8).unwrap();
        assert!(e.upper >= -40_000 && e.lower == NO_LOWER);
        table.store(9, 10, 3, 39_999, 40_000, 40_000, None);
        let e = table.probe(9, 10).unwrap();
        assert!(e.lower <= 40_000 && e.upper == NO_UPPER);
    }

    #[test]
    fn a_full_bucket_keeps_the_newer_or_deeper_entry() {
        let table = Table::new(64);
        table.store(1, 2, 9, 0, 1, 4, None);
        table.store(3, 4, 2, 0, 1, 4, None);
        table.new_date();
        table.store(5, 6, 1, 0, 1, 4, None);
        assert!(table.probe(1, 2).is_some());
        assert!(table.probe(3, 4).is_none());
        assert!(table.probe(5, 6).is_some());
    }
}
