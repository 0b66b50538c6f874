//! What every request of `kifu serve` shares ([`App`]), and the bounds on
//! its lookups.

use std::sync::Arc;
use std::time::Duration;

use kifu::db::Database;

use crate::cli::serve::hosts::Hosts;

/// What every request shares: the games, and the slots for lookups.
pub struct App {
    pub db: Database,
    /// Lookups running at once; more wait for a slot.
    pub lookups: Arc<tokio::sync::Semaphore>,
    /// Lookups running or waiting; more are answered 503 at once.
    pub admitted: Arc<tokio::sync::Semaphore>,
    /// The names requests may give in their `Host`.
    pub hosts: Hosts,
    /// The time a request may take (`--request-timeout`).
    pub request_timeout: Duration,
    /// The last lookups, most recent last (`api::cached`).
    pub cache: std::sync::Mutex<std::collections::VecDeque<(String, CachedLookup)>>,
}

impl App {
    pub fn new(db: Database, hosts: Hosts, request_timeout: Duration) -> Arc<App> {
        Arc::new(App {
            db,
            lookups: Arc::new(tokio::sync::Semaphore::new(LOOKUPS)),
            admitted: Arc::new(tokio::sync::Semaphore::new(LOOKUPS + QUEUED)),
            hosts,
            request_timeout,
            cache: std::sync::Mutex::new(std::collections::VecDeque::new()),
        })
    }
}

/// A lookup being made or made.
pub type CachedLookup = Arc<tokio::sync::OnceCell<Arc<kifu::db::Lookup>>>;

/// Lookups kept: 8 bytes a game that reached the position, so at most
/// 8 × 12 MB over 1.5 million games at the start.
pub const CACHED: usize = 8;

/// Lookups that may run at once: each one's work is bounded, and so is
/// the memory of those that wait.
pub const LOOKUPS: usize = 16;

/// Lookups that may wait for a slot; more are answered 503 at once.
pub const QUEUED: usize = 64;
