//! The texts of a database (names, events, dates), each kept once and
//! named by a number.

use std::collections::HashMap;
use std::sync::Arc;

/// Texts by number, and numbers by text.
#[derive(Debug, Default)]
pub(super) struct Strings {
    texts: Vec<Arc<str>>,
    numbers: HashMap<Arc<str>, u32>,
}

impl Strings {
    /// The number of `text`, given it the first time.
    pub(super) fn intern(&mut self, text: &str) -> u32 {
        if let Some(&n) = self.numbers.get(text) {
            return n;
        }
        let n = u32::try_from(self.texts.len()).unwrap_or(u32::MAX - 1);
        let text: Arc<str> = Arc::from(text);
        self.texts.push(Arc::clone(&text));
        self.numbers.insert(text, n);
        n
    }

    /// The text of number `n` (one [`Strings::intern`] gave).
    pub(super) fn get(&self, n: u32) -> &str {
        self.texts.get(n as usize).map_or("", |t| t)
    }

    /// About how many bytes the texts take.
    pub(super) fn heap_bytes(&self) -> usize {
        let texts: usize = self.texts.iter().map(|t| t.len() + 16).sum();
        texts + self.numbers.capacity() * 24 + self.texts.capacity() * 16
    }

    pub(super) fn shrink_to_fit(&mut self) {
        self.texts.shrink_to_fit();
        self.numbers.shrink_to_fit();
    }
}
