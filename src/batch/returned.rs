//! Buffers handed back from the sink to the workers.

use std::sync::Mutex;

/// Buffers of a slice's results (its formatted rows, its games), handed
/// back by the sink once written so that the workers fill them again.
///
/// Freed on the sink's thread instead, their memory would stay with the
/// allocator of the worker that made them: mimalloc leaves another
/// thread's frees to the owning thread, which sees them late.
/// `positions --to parquet` on big.wtb peaked at 93–100 MB and
/// `positions --to npy` at 38–42 MB; with the buffers handed back,
/// 58–59 MB and 18 MB.
///
/// ```
/// use kifu::batch::Returned;
/// let spare: Returned<Vec<u8>> = Returned::new();
/// let mut rows = spare.take();
/// rows.extend_from_slice(b"f5d6");
/// let at = rows.as_ptr();
/// rows.clear();
/// spare.give(rows);
/// assert_eq!(spare.take().as_ptr(), at);
/// ```
#[derive(Debug, Default)]
pub struct Returned<T>(Mutex<Vec<T>>);

impl<T: Default> Returned<T> {
    /// The most buffers kept: more than the slices of the batches in
    /// flight.
    pub const KEEP: usize = 32;

    /// No buffer yet.
    #[must_use]
    pub fn new() -> Returned<T> {
        Returned(Mutex::new(Vec::new()))
    }

    /// A buffer handed back, or a new one.
    #[must_use]
    pub fn take(&self) -> T {
        self.0
            .lock()
            .ok()
            .and_then(|mut kept| kept.pop())
            .unwrap_or_default()
    }

    /// Hands `buffer` back, emptied by the caller, unless
    /// [`Returned::KEEP`] are kept already (it is then dropped).
    pub fn give(&self, buffer: T) {
        if let Ok(mut kept) = self.0.lock() {
            if kept.len() < Self::KEEP {
                kept.push(buffer);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_at_most_keep_buffers() {
        let spare: Returned<Vec<u64>> = Returned::new();
        assert_eq!(spare.take().capacity(), 0);
        for _ in 0..Returned::<Vec<u64>>::KEEP + 5 {
            spare.give(Vec::with_capacity(10));
        }
        let mut taken = 0;
        while spare.take().capacity() == 10 {
            taken += 1;
        }
        assert_eq!(taken, Returned::<Vec<u64>>::KEEP);
    }
}
