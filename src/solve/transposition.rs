//! The transposition table: bounds on positions already searched, shared by
//! every thread of a search and kept between searches.
//!
//! An exact search's bound is true forever: no depth to compare, and
//! bounds met again are merged. A selective pass before the exact search
//! (see `root::exact`) stores its bounds with its level of selectivity,
//! and a search uses a bound only from its own level or a surer one: the
//! exact search takes nothing from the passes but their best moves. The
//! table is a fixed array of 64-byte buckets (two entries and a version),
//! allocated once. Entries keep the whole position, so a hit is never a
//! different position. Threads read without locking: a bucket's version is
//! odd while a writer fills it, and a reader that sees it change throws the
//! read away (a sequence lock); a writer that finds the bucket busy skips
//! its store, which costs time, never an answer.

use std::sync::atomic::{fence, AtomicU64, Ordering};

/// What the table knows of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Entry {
    /// The value is at least this.
    pub lower: i32,
    /// The value is at most this.
    pub upper: i32,
    /// The best move found, if any (a square index).
    pub best: Option<u8>,
    /// How selective the search that found the bounds was: 0 exact, more
    /// the less sure (see [`Entry::bounds_for`]).
    pub level: u8,
}

impl Entry {
    /// The entry's bounds if a search at `level` may use them (they come
    /// from that level or a surer one), else no bounds: -64 and 64.
    #[inline(always)]
    pub fn bounds_for(self, level: u8) -> (i32, i32) {
        if self.level <= level {
            (self.lower, self.upper)
        } else {
            (-64, 64)
        }
    }
}

#[derive(Default)]
struct Slot {
    player: AtomicU64,
    opponent: AtomicU64,
    /// `lower`, `upper` (as `i8`), best move (`NO_MOVE` for none), the
    /// search's cost (log2 of its nodes), its date and its level, a byte
    /// each.
    data: AtomicU64,
}

#[derive(Default)]
#[repr(C, align(64))]
struct Bucket {
    version: AtomicU64,
    slots: [Slot; 2],
}

const NO_MOVE: u64 = 0xff;

/// A fixed-size transposition table.
pub(super) struct Table {
    buckets: Buckets,
    date: AtomicU64,
}

/// The table's zeroed array of buckets, allocated once.
///
/// On Linux a table of 2 MiB or more is mapped from the system directly:
/// its pages are zero and not resident until a search of 14 empties or
/// more makes them all present, asked to be huge pages (2 MiB) then: a
/// probe lands anywhere in the table, and with 4 KiB pages nearly every
/// one also missed the TLB, a page walk beside the cache miss. A short
/// search before that stays small (its few probes touch few 4 KiB
/// pages). Elsewhere, and for small tables, the allocator's zeroed
/// memory.
struct Buckets {
    ptr: std::ptr::NonNull<Bucket>,
    len: usize,
    mapped: bool,
    /// Whether [`Buckets::populate`] ran.
    populated: std::sync::Once,
}

// SAFETY: `Buckets` owns its array as a `Box<[Bucket]>` would, and
// `Bucket` (atomics only) is `Send` and `Sync`.
unsafe impl Send for Buckets {}
// SAFETY: as above.
unsafe impl Sync for Buckets {}

#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
mod os {
    use std::ffi::c_void;
    pub const PROT_READ_WRITE: i32 = 0x1 | 0x2;
    pub const MAP_PRIVATE_ANONYMOUS: i32 = 0x02 | 0x20;
    pub const MADV_HUGEPAGE: i32 = 14;
    pub const MADV_POPULATE_WRITE: i32 = 23;
    pub const SC_PAGESIZE: i32 = 30;
    pub const SC_PHYS_PAGES: i32 = 85;
    extern "C" {
        pub fn sysconf(name: i32) -> i64;
        pub fn mmap(
            addr: *mut c_void,
            len: usize,
            prot: i32,
            flags: i32,
            fd: i32,
            off: i64,
        ) -> *mut c_void;
        pub fn munmap(addr: *mut c_void, len: usize) -> i32;
        pub fn madvise(addr: *mut c_void, len: usize, advice: i32) -> i32;
    }
}

/// The most bytes a table takes: a quarter of the machine's memory, where
/// the system tells it (a midgame search holds two tables, `analyze`
/// three). A larger one is given address space it cannot fill: the search
/// would have the process killed for memory.
fn most_bytes() -> usize {
    #[cfg(all(
        target_os = "linux",
        any(target_arch = "x86_64", target_arch = "aarch64")
    ))]
    {
        // SAFETY: `sysconf` only reads a setting of the system.
        let (pages, size) =
            unsafe { (os::sysconf(os::SC_PHYS_PAGES), os::sysconf(os::SC_PAGESIZE)) };
        if let (Ok(pages), Ok(size)) = (usize::try_from(pages), usize::try_from(size)) {
            if pages > 0 && size > 0 {
                return pages.saturating_mul(size) / 4;
            }
        }
    }
    usize::MAX
}

/// A table of about `bytes` bytes of buckets `B`, at most [`most_bytes`]:
/// what `make` gives for the first of `n`, `n / 2`, `n / 4`, … buckets
/// down to one, so a table the system refuses is made smaller instead of
/// stopping the process. A table's size never changes a value, only the
/// time to it. The solver's table and the midgame search's are made so.
pub(crate) fn largest_table<B, T>(bytes: usize, mut make: impl FnMut(usize) -> Option<T>) -> T {
    let mut n = (bytes.min(most_bytes()) / std::mem::size_of::<B>()).max(1);
    loop {
        if let Some(table) = make(n) {
            return table;
        }
        if n == 1 {
            std::alloc::handle_alloc_error(std::alloc::Layout::new::<B>());
        }
        n /= 2;
    }
}

impl Buckets {
    /// `n` zeroed buckets, or `None` when the system has no memory for
    /// them (or no address for so many bytes).
    fn try_new(n: usize) -> Option<Buckets> {
        let layout = std::alloc::Layout::array::<Bucket>(n).ok()?;
        #[cfg(all(
            target_os = "linux",
            any(target_arch = "x86_64", target_arch = "aarch64")
        ))]
        if layout.size() >= 2 << 20 {
            // SAFETY: an anonymous private mapping of `layout.size()`
            // bytes, read-write: zeroed, page-aligned (so 64-byte aligned),
            // ours alone; unmapped in `drop` with the same length.
            unsafe {
                let raw = os::mmap(
                    std::ptr::null_mut(),
                    layout.size(),
                    os::PROT_READ_WRITE,
                    os::MAP_PRIVATE_ANONYMOUS,
                    -1,
                    0,
                );
                // MAP_FAILED is -1; fall back to the allocator.
                if raw as isize != -1 && !raw.is_null() {
                    return Some(Buckets {
                        ptr: std::ptr::NonNull::new_unchecked(raw.cast()),
                        len: n,
                        mapped: true,
                        populated: std::sync::Once::new(),
                    });
                }
            }
        }
        // SAFETY: the layout is non-empty (`n` ≥ 1 buckets of 64 bytes); a
        // zeroed `Bucket` is a valid one (atomics of zero: no position,
        // version 0); `drop` frees it with this layout.
        let raw = unsafe { std::alloc::alloc_zeroed(layout) };
        let ptr = std::ptr::NonNull::new(raw.cast::<Bucket>())?;
        Some(Buckets {
            ptr,
            len: n,
            mapped: false,
            populated: std::sync::Once::new(),
        })
    }

    /// Makes every page of a mapped table present and writable, once,
    /// before a big search uses it. Left to the search, a page read
    /// first maps the shared zero page, and the write that follows
    /// replaces it under every thread's feet: a TLB flush on each CPU,
    /// dear in a virtual machine (half the time of one game's analysis
    /// went there). Linux 5.14 populates in one call; before, a write a
    /// page of the value it holds does (searches may be running).
    fn populate(&self) {
        if !self.mapped {
            return;
        }
        self.populated.call_once(|| {
            #[cfg(all(
                target_os = "linux",
                any(target_arch = "x86_64", target_arch = "aarch64")
            ))]
            {
                let size = self.len * std::mem::size_of::<Bucket>();
                let start = self.ptr.as_ptr().cast();
                // SAFETY: the mapping made in `try_new`, of this length;
                // `madvise` changes no content. Huge pages only now: a
                // short search's probes land on few small pages, and
                // would make whole 2 MiB pages resident.
                let done = unsafe {
                    os::madvise(start, size, os::MADV_HUGEPAGE);
                    os::madvise(start, size, os::MADV_POPULATE_WRITE) == 0
                };
                if !done {
                    self.touch_pages();
                }
            }
        });
    }

    /// Writes every page of the array with the value it holds (searches
    /// may be using its buckets): each page is made present and writable,
    /// nothing in it changes.
    fn touch_pages(&self) {
        let per_page = 4096 / std::mem::size_of::<Bucket>();
        for bucket in self.iter().step_by(per_page) {
            let mut v = bucket.version.load(Ordering::Relaxed);
            while let Err(now) =
                bucket
                    .version
                    .compare_exchange(v, v, Ordering::Relaxed, Ordering::Relaxed)
            {
                v = now;
            }
        }
    }
}

impl std::ops::Deref for Buckets {
    type Target = [Bucket];
    #[inline(always)]
    fn deref(&self) -> &[Bucket] {
        // SAFETY: `len` zeroed (valid) buckets from `ptr`, owned by `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for Buckets {
    fn drop(&mut self) {
        let size = self.len * std::mem::size_of::<Bucket>();
        #[cfg(all(
            target_os = "linux",
            any(target_arch = "x86_64", target_arch = "aarch64")
        ))]
        if self.mapped {
            // SAFETY: the mapping made in `try_new`, of this length.
            unsafe {
                os::munmap(self.ptr.as_ptr().cast(), size);
            }
            return;
        }
        let _ = self.mapped;
        // SAFETY: allocated in `try_new` with this layout (the same `len`).
        unsafe {
            std::alloc::dealloc(
                self.ptr.as_ptr().cast(),
                std::alloc::Layout::from_size_align_unchecked(size, std::mem::align_of::<Bucket>()),
            );
        }
    }
}

fn pack(entry: Entry, cost: u32, date: u64) -> u64 {
    (entry.lower as i8 as u8 as u64)
        | (entry.upper as i8 as u8 as u64) << 8
        | entry.best.map_or(NO_MOVE, u64::from) << 16
        | u64::from(cost.min(255)) << 24
        | (date & 0xff) << 32
        | u64::from(entry.level) << 40
}

fn unpack(data: u64) -> Entry {
    let best = (data >> 16) & 0xff;
    Entry {
        lower: i32::from(data as u8 as i8),
        upper: i32::from((data >> 8) as u8 as i8),
        best: (best != NO_MOVE).then_some(best as u8),
        level: (data >> 40) as u8,
    }
}

impl Table {
    /// A table of about `bytes` bytes (at least one bucket), made by
    /// [`largest_table`]: at most a quarter of the machine's memory, and
    /// less when the system gives no more ([`Table::bytes`] tells).
    pub fn new(bytes: usize) -> Table {
        let buckets = largest_table::<Bucket, _>(bytes, Buckets::try_new);
        Table {
            buckets,
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

    /// Makes the table's pages present and writable, once
    /// ([`Buckets::populate`]); before a search that will touch many.
    /// Called before the search's threads use the table.
    pub fn populate(&self) {
        self.buckets.populate();
    }

    #[inline(always)]
    fn bucket(&self, player: u64, opponent: u64) -> &Bucket {
        let h = (player.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ opponent)
            .wrapping_mul(0xbf58_476d_1ce4_e5b9);
        let h = h ^ (h >> 31);
        let index = ((u128::from(h) * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// Asks the processor to load a position's bucket now.
    #[inline(always)]
    pub fn prefetch(&self, player: u64, opponent: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let bucket = self.bucket(player, opponent) as *const Bucket;
            // SAFETY: a prefetch is a hint; the pointer is to a live bucket.
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                    bucket.cast::<i8>(),
                );
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (player, opponent);
    }

    /// What the table holds of a position, if anything.
    #[inline(always)]
    pub fn probe(&self, player: u64, opponent: u64) -> Option<Entry> {
        let bucket = self.bucket(player, opponent);
        let before = bucket.version.load(Ordering::Acquire);
        if before & 1 != 0 {
            return None;
        }
        let mut found = None;
        for slot in &bucket.slots {
            if slot.player.load(Ordering::Relaxed) == player
                && slot.opponent.load(Ordering::Relaxed) == opponent
            {
                found = Some(slot.data.load(Ordering::Relaxed));
                break;
            }
        }
        fence(Ordering::Acquire);
        if bucket.version.load(Ordering::Relaxed) != before {
            return None;
        }
        found.map(unpack)
    }

    /// Records what a null-window or windowed search at `level` of
    /// selectivity (0: exact) found: `value` from a search of window
    /// `alpha, beta` is a lower bound when at least `beta`, an upper bound
    /// when at most `alpha`, exact between. Merged with what the table
    /// already knows of the position at the same level; it replaces a
    /// less sure level's bounds, and leaves a surer level's alone.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub fn store(
        &self,
        player: u64,
        opponent: u64,
        alpha: i32,
        beta: i32,
        value: i32,
        best: Option<u8>,
        nodes: u64,
        level: u8,
    ) {
        let mut entry = Entry {
            lower: if value > alpha { value } else { -64 },
            upper: if value < beta { value } else { 64 },
            best,
            level,
        };
        let cost = 64 - nodes.leading_zeros();
        let date = self.date.load(Ordering::Relaxed);
        let bucket = self.bucket(player, opponent);
        let version = bucket.version.load(Ordering::Relaxed);
        if version & 1 != 0
            || bucket
                .version
                .compare_exchange(version, version + 1, Ordering::Acquire, Ordering::Relaxed)
                .is_err()
        {
            return;
        }
        // The bucket is ours until the version is even again. The acquire
        // above orders what we read after the last writer's release; this
        // fence orders the odd version before our stores: a reader that
        // sees any of them, and then fences with acquire, sees the version
        // odd or later and throws its read away. Without it (the release
        // half of a compare-and-swap orders what came before it, not
        // after) a weakly ordered processor (AArch64) may make a new key
        // visible with the old version still read, so a reader takes the
        // new key with the old data, or the reverse: a wrong bound.
        fence(Ordering::Release);
        let mut target = None;
        for (i, slot) in bucket.slots.iter().enumerate() {
            if slot.player.load(Ordering::Relaxed) == player
                && slot.opponent.load(Ordering::Relaxed) == opponent
            {
                let old = unpack(slot.data.load(Ordering::Relaxed));
                if old.level < entry.level {
                    // A surer search's bounds stay.
                    entry = old;
                } else if old.level == entry.level {
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
            let priority = |slot: &Slot| {
                let data = slot.data.load(Ordering::Relaxed);
                let current = u64::from((data >> 32) & 0xff == date & 0xff);
                current << 8 | (data >> 24) & 0xff
            };
            usize::from(priority(&bucket.slots[1]) < priority(&bucket.slots[0]))
        });
        let slot = &bucket.slots[i];
        slot.player.store(player, Ordering::Relaxed);
        slot.opponent.store(opponent, Ordering::Relaxed);
        slot.data.store(pack(entry, cost, date), Ordering::Relaxed);
        bucket.version.store(version + 2, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// More memory than any machine has (a petabyte): the table takes what
    /// the system gives instead of stopping the process, and works.
    #[test]
    fn a_table_larger_than_memory_is_made_smaller() {
        let asked = 1usize << 50;
        let table = Table::new(asked);
        assert!(table.bytes() < asked, "{} bytes", table.bytes());
        assert!(table.bytes() >= std::mem::size_of::<Bucket>());
        table.store(1, 2, -10, 10, 4, Some(19), 1000, 0);
        let entry = table.probe(1, 2).expect("the stored entry");
        assert_eq!((entry.lower, entry.upper, entry.best), (4, 4, Some(19)));
    }

    /// Pages touched (the populate of kernels before 5.14) and populated
    /// while other threads store and probe: every entry reads back.
    #[test]
    fn populating_a_table_in_use_changes_no_entry() {
        let table = Table::new(4 << 20);
        let key = |i: u64| (i.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1, i << 1);
        std::thread::scope(|scope| {
            for t in 0..2u64 {
                let table = &table;
                scope.spawn(move || {
                    for i in (t * 5000)..(t * 5000 + 5000) {
                        let (p, o) = key(i);
                        table.store(
                            p,
                            o,
                            -65,
                            65,
                            (i % 20) as i32 - 10,
                            Some((i % 64) as u8),
                            20,
                            0,
                        );
                    }
                });
            }
            for _ in 0..3 {
                table.buckets.touch_pages();
                table.populate();
            }
        });
        for _ in 0..3 {
            table.buckets.touch_pages();
        }
        let mut found = 0;
        for i in 0..10_000u64 {
            let (p, o) = key(i);
            if let Some(e) = table.probe(p, o) {
                let v = (i % 20) as i32 - 10;
                assert_eq!(
                    (e.lower, e.upper, e.best),
                    (v, v, Some((i % 64) as u8)),
                    "{i}"
                );
                found += 1;
            }
        }
        // Most entries are kept (two slots a bucket, 65,536 buckets).
        assert!(found > 9000, "{found}");
    }

    #[test]
    fn bounds_are_merged() {
        let table = Table::new(1 << 16);
        assert_eq!(table.probe(1, 2), None);
        table.store(1, 2, 9, 10, 12, Some(19), 100, 0);
        assert_eq!(
            table.probe(1, 2),
            Some(Entry {
                lower: 12,
                upper: 64,
                best: Some(19),
                level: 0,
            })
        );
        table.store(1, 2, 19, 20, 14, None, 100, 0);
        assert_eq!(
            table.probe(1, 2),
            Some(Entry {
                lower: 12,
                upper: 14,
                best: Some(19),
                level: 0,
            })
        );
    }

    /// A selective pass's bounds never reach a surer search; an exact
    /// search's replace them, and the passes' best move is kept.
    #[test]
    fn levels_keep_selective_bounds_apart() {
        let table = Table::new(1 << 16);
        table.store(1, 2, 9, 10, 12, Some(19), 100, 2);
        let e = table.probe(1, 2).unwrap();
        assert_eq!((e.lower, e.upper, e.best, e.level), (12, 64, Some(19), 2));
        assert_eq!(e.bounds_for(0), (-64, 64));
        assert_eq!(e.bounds_for(1), (-64, 64));
        assert_eq!(e.bounds_for(2), (12, 64));
        assert_eq!(e.bounds_for(3), (12, 64));
        // An exact bound replaces the pass's, the move stays.
        table.store(1, 2, 3, 4, 2, None, 100, 0);
        let e = table.probe(1, 2).unwrap();
        assert_eq!((e.lower, e.upper, e.best, e.level), (-64, 2, Some(19), 0));
        // A pass met again leaves the exact bound alone.
        table.store(1, 2, 29, 30, 40, Some(7), 100, 1);
        let e = table.probe(1, 2).unwrap();
        assert_eq!((e.lower, e.upper, e.best, e.level), (-64, 2, Some(19), 0));
    }

    #[test]
    fn a_full_bucket_keeps_the_newer_or_costlier_entry() {
        // One bucket: every position lands in it.
        let table = Table::new(64);
        table.store(1, 2, 0, 1, 4, None, 1 << 20, 0);
        table.store(3, 4, 0, 1, 4, None, 1 << 10, 0);
        table.new_date();
        table.store(5, 6, 0, 1, 4, None, 1, 0);
        // The cheaper of the two older entries made way.
        assert!(table.probe(1, 2).is_some());
        assert!(table.probe(3, 4).is_none());
        assert!(table.probe(5, 6).is_some());
    }

    /// The position of key `k` and the exact entry every store of it
    /// writes: a read mixing two stores' keys and data would not match.
    fn keyed(k: u64) -> (u64, u64, Entry) {
        let player = (k + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15) & 0x00ff_ff00_ff00_ffff;
        let opponent = !player & (k + 1).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        let value = (k % 65) as i32 * 2 - 64;
        let entry = Entry {
            lower: value,
            upper: value,
            best: Some((k % 64) as u8),
            level: 0,
        };
        (player, opponent, entry)
    }

    /// Many threads storing and reading a few buckets at once: a read
    /// returns nothing or what some store of that very position wrote,
    /// never a mix (the sequence lock's fences; on x86-64 the hardware
    /// orders stores anyway, so this fails only on weaker processors or
    /// a broken lock).
    #[test]
    fn concurrent_stores_never_mix_entries() {
        // Four buckets, 64 positions: every store evicts.
        let table = Table::new(4 * 64);
        let threads = 8;
        let torn = std::sync::atomic::AtomicU64::new(0);
        let hits = std::sync::atomic::AtomicU64::new(0);
        std::thread::scope(|scope| {
            for t in 0..threads {
                let (table, torn, hits) = (&table, &torn, &hits);
                scope.spawn(move || {
                    let mut rng = crate::testkit::Rng::new(100 + t);
                    for i in 0..200_000u64 {
                        let k = rng.next() % 64;
                        let (p, o, e) = keyed(k);
                        if i % 3 == 0 {
                            table.store(p, o, e.lower - 1, e.upper + 1, e.lower, e.best, i, 0);
                        } else if let Some(found) = table.probe(p, o) {
                            hits.fetch_add(1, Ordering::Relaxed);
                            if found != e {
                                torn.fetch_add(1, Ordering::Relaxed);
                            }
                        }
                    }
                });
            }
        });
        assert_eq!(torn.into_inner(), 0, "reads mixing two entries");
        assert!(hits.into_inner() > 1000, "the threads hardly ever met");
    }

    #[test]
    fn packing_keeps_negative_values() {
        let e = Entry {
            lower: -64,
            upper: -2,
            best: None,
            level: 3,
        };
        assert_eq!(unpack(pack(e, 40, 3)), e);
    }
}
