//! A progress bar on standard error, shown only on a terminal.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Bytes read and games done across every input of a run; or, for a
/// long job whose games were counted first, games done of the games to
/// do, which makes a better estimate of the time left than bytes.
pub struct Progress {
    /// Shown at all (standard error is a terminal, no `--quiet`).
    wanted: bool,
    total: Option<u64>,
    /// The bar counts games kept, of this many (`total` is then unused).
    games_total: Option<u64>,
    kept: u64,
    bar: Option<ProgressBar>,
    done_bytes: u64,
    games: u64,
    started: Instant,
}

/// A run shorter than this shows no bar at all: it would only flash.
const DELAY: Duration = Duration::from_millis(500);

impl Progress {
    /// A bar over `total` bytes (unknown for standard input), hidden when
    /// standard error is not a terminal or with `--quiet`, and drawn only
    /// once the run has taken half a second.
    pub fn new(quiet: bool, total: Option<u64>) -> Progress {
        Progress {
            wanted: wanted(quiet),
            total,
            games_total: None,
            kept: 0,
            bar: None,
            done_bytes: 0,
            games: 0,
            started: Instant::now(),
        }
    }

    /// A bar over `games` games to keep (counted ahead): the games kept
    /// so far, their speed and the time left.
    pub fn over_games(quiet: bool, games: u64) -> Progress {
        Progress {
            games_total: Some(games),
            ..Progress::new(quiet, None)
        }
    }

    /// The bar, made the first time it is due.
    fn bar(&mut self) -> Option<&ProgressBar> {
        if self.bar.is_none() && self.wanted && self.started.elapsed() >= DELAY {
            let length = self.games_total.or(self.total);
            let bar = ProgressBar::with_draw_target(length, ProgressDrawTarget::stderr());
            let template = if self.games_total.is_some() {
                "{bar:30.cyan/blue} {pos}/{len} games {msg} (eta {eta})"
            } else if self.total.is_some() {
                "{bar:30.cyan/blue} {bytes}/{total_bytes} {msg} (eta {eta})"
            } else {
                "{spinner} {bytes} {msg}"
            };
            if let Ok(style) = ProgressStyle::with_template(template) {
                bar.set_style(style.progress_chars("=> "));
            }
            bar.enable_steady_tick(Duration::from_millis(200));
            self.bar = Some(bar);
        }
        self.bar.as_ref()
    }

    /// Games finished (read, and kept of those), and how far into the
    /// current input (bytes).
    pub fn advance(&mut self, games: u64, kept: u64, offset_in_input: u64) {
        self.games += games;
        self.kept += kept;
        let (done, count, kept, started) = (self.done_bytes, self.games, self.kept, self.started);
        let by_games = self.games_total.is_some();
        if let Some(bar) = self.bar() {
            let secs = started.elapsed().as_secs_f64().max(1e-9);
            if by_games {
                bar.set_position(kept);
                bar.set_message(format!("{:.1} games/s", kept as f64 / secs));
            } else {
                bar.set_position(done + offset_in_input);
                bar.set_message(format!("{count} games, {:.0} games/s", count as f64 / secs));
            }
        }
    }

    /// The current input is done; it was `size` bytes.
    pub fn input_done(&mut self, size: u64) {
        self.done_bytes += size;
        if self.games_total.is_some() {
            return;
        }
        if let Some(bar) = &self.bar {
            bar.set_position(self.done_bytes);
        }
    }

    /// Removes the bar before the summary is printed.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }

    /// Prints a line on standard error above the bar.
    pub fn println(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.suspend(|| eprintln!("{line}")),
            None => eprintln!("{line}"),
        }
    }
}

/// Whether a bar is shown: standard error is a terminal and no `--quiet`.
pub fn wanted(quiet: bool) -> bool {
    !quiet && std::io::stderr().is_terminal()
}

/// The size of every named file, when all are regular files.
pub fn total_size(files: &[String]) -> Option<u64> {
    files
        .iter()
        .map(|f| {
            if f == "-" {
                None
            } else {
                std::fs::metadata(f)
                    .ok()
                    .filter(|m| m.is_file())
                    .map(|m| m.len())
            }
        })
        .sum()
}

/// A bar over a number of steps (positions, games) with the solver's
/// speed, shown only on a terminal and once the run has taken half a
/// second; updated while a long step is under way.
pub struct Steps {
    wanted: bool,
    total: Option<u64>,
    unit: &'static str,
    bar: Option<ProgressBar>,
    done: u64,
    started: Instant,
}

impl Steps {
    /// A bar over `total` steps of `unit` (a plural noun).
    pub fn new(quiet: bool, total: u64, unit: &'static str) -> Steps {
        Steps {
            total: Some(total),
            ..Steps::unbounded(quiet, unit)
        }
    }

    /// A counter of steps of `unit` whose number is not known ahead.
    pub fn unbounded(quiet: bool, unit: &'static str) -> Steps {
        Steps {
            wanted: wanted(quiet),
            total: None,
            unit,
            bar: None,
            done: 0,
            started: Instant::now(),
        }
    }

    fn bar(&mut self) -> Option<&ProgressBar> {
        if self.bar.is_none() && self.wanted && self.started.elapsed() >= DELAY {
            let bar = ProgressBar::with_draw_target(self.total, ProgressDrawTarget::stderr());
            let template = match self.total {
                Some(_) => format!(
                    "{{bar:30.cyan/blue}} {{pos}}/{{len}} {} {{msg}} (eta {{eta}})",
                    self.unit
                ),
                None => format!("{{spinner}} {{pos}} {} {{msg}} ({{elapsed}})", self.unit),
            };
            if let Ok(style) = ProgressStyle::with_template(&template) {
                bar.set_style(style.progress_chars("=> "));
            }
            bar.enable_steady_tick(Duration::from_millis(200));
            bar.set_position(self.done);
            self.bar = Some(bar);
        }
        self.bar.as_ref()
    }

    /// Runs `job`, showing the solver's nodes per second meanwhile.
    pub fn watch<T>(&mut self, solver: &kifu::solve::Solver, job: impl FnOnce() -> T) -> T {
        if !self.wanted {
            return job();
        }
        let done = std::sync::atomic::AtomicBool::new(false);
        let started = self.started;
        let this = &mut *self;
        std::thread::scope(|scope| {
            scope.spawn(|| {
                while !done.load(std::sync::atomic::Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(100));
                    let nodes = solver.nodes_so_far();
                    let secs = started.elapsed().as_secs_f64().max(1e-9);
                    if let Some(bar) = this.bar() {
                        bar.set_message(format!("{:.1} M nodes/s", nodes as f64 / secs / 1e6));
                    }
                }
            });
            let out = job();
            done.store(true, std::sync::atomic::Ordering::Relaxed);
            out
        })
    }

    /// One more step done.
    pub fn step(&mut self) {
        self.done += 1;
        let done = self.done;
        if let Some(bar) = self.bar() {
            bar.set_position(done);
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
