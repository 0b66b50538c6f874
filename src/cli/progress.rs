//! A progress bar on standard error, shown only on a terminal.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Bytes read and games done across every input of a run.
pub struct Progress {
    bar: Option<ProgressBar>,
    done_bytes: u64,
    games: u64,
    started: Instant,
}

impl Progress {
    /// A bar over `total` bytes (unknown for standard input), hidden when
    /// standard error is not a terminal or with `--quiet`.
    pub fn new(quiet: bool, total: Option<u64>) -> Progress {
        let bar = (!quiet && std::io::stderr().is_terminal()).then(|| {
            let bar = match total {
                Some(n) => ProgressBar::with_draw_target(Some(n), ProgressDrawTarget::stderr()),
                None => ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()),
            };
            let template = if total.is_some() {
                "{bar:30.cyan/blue} {bytes}/{total_bytes} {msg} (eta {eta})"
            } else {
                "{spinner} {bytes} {msg}"
            };
            if let Ok(style) = ProgressStyle::with_template(template) {
                bar.set_style(style.progress_chars("=> "));
            }
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        Progress {
            bar,
            done_bytes: 0,
            games: 0,
            started: Instant::now(),
        }
    }

    /// Games finished, and how far into the current input (bytes).
    pub fn advance(&mut self, games: u64, offset_in_input: u64) {
        self.games += games;
        if let Some(bar) = &self.bar {
            bar.set_position(self.done_bytes + offset_in_input);
            let secs = self.started.elapsed().as_secs_f64().max(1e-9);
            bar.set_message(format!(
                "{} games, {:.0} games/s",
                self.games,
                self.games as f64 / secs
            ));
        }
    }

    /// The current input is done; it was `size` bytes.
    pub fn input_done(&mut self, size: u64) {
        self.done_bytes += size;
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
