//! `kifu validate`: replay every game and report the invalid ones.

use std::io::{self, BufWriter, Write};

use anyhow::Result;
use kifu::Status;

use super::run::{run_inputs, BatchArgs};
use super::{diagnostic, Outcome};

/// Replay every game and report the invalid ones with where and why.
///
/// For each invalid game: file, line and column (or record number), game
/// number, move number, colour to move, the token and the reason, with the
/// source line and a caret under the token. Ends with a summary line.
///
/// Examples:
///   kifu validate games.txt
///   kifu validate --strict a.txt b.txt
///   kifu validate --suggest games.txt
///   cat games.txt | kifu validate
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// Input files (`-` or none: standard input).
    #[arg(value_name = "FILE")]
    files: Vec<String>,

    /// Also fail games whose record stops before the game is over.
    #[arg(long)]
    strict: bool,

    /// Under each invalid game, the best repairs (--suggest=N: the N best;
    /// default 3), edited moves in brackets.
    #[arg(
        long,
        value_name = "N",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "3"
    )]
    suggest: Option<usize>,

    #[command(flatten)]
    batch: BatchArgs,
}

pub fn run(args: Args) -> Result<Outcome> {
    let files = super::default_files(&args.files);
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let strict = args.strict;
    let suggest = args.suggest;
    let totals = run_inputs(
        &files,
        &args.batch,
        |name, games, slice| {
            for (record, report) in games {
                match report.status() {
                    Status::Complete => {}
                    Status::Incomplete if strict => {
                        let mover = report.finish.position.side_to_move();
                        let at = record.origin.line.map_or_else(
                            || format!("record {}", record.origin.index),
                            |l| l.to_string(),
                        );
                        slice.bytes.extend_from_slice(
                            format!(
                                "{name}:{at}: game {}: incomplete: the record stops while {mover} is to move\n",
                                record.origin.index
                            )
                            .as_bytes(),
                        );
                    }
                    Status::Incomplete => {}
                    Status::Invalid => {
                        if let Some(error) = &report.error {
                            slice.bytes.extend_from_slice(
                                diagnostic::render(name, record, error).as_bytes(),
                            );
                            if let Some(n) = suggest {
                                slice.bytes.extend_from_slice(
                                    super::repair::suggestions(record, error, n).as_bytes(),
                                );
                            }
                        }
                    }
                }
            }
        },
        |slice| out.write_all(&slice.bytes),
    )?;
    let t = &totals.tally;
    writeln!(
        out,
        "{} games read: {} complete, {} incomplete, {} invalid",
        t.read, t.complete, t.incomplete, t.invalid
    )?;
    out.flush()?;
    let outcome = totals.outcome();
    Ok(if outcome == Outcome::Valid && strict && t.incomplete > 0 {
        Outcome::Invalid
    } else {
        outcome
    })
}
