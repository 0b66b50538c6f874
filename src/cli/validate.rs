//! `kifu validate`: replay every game and report the invalid ones.

use std::io::{self, BufWriter, Write};

use anyhow::Result;
use kifu::formats::Format;
use kifu::Status;

use super::{diagnostic, input, Outcome};

/// Replay every game and report each invalid one with where and why.
///
/// For each invalid game: file, line and column (or record number), game
/// number, move number, colour to move, the token and the reason, with the
/// source line and a caret under the token. Ends with a summary line.
///
/// Examples:
///   kifu validate games.txt
///   kifu validate --strict a.txt b.txt
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

    /// Read every input as this format instead of guessing.
    #[arg(long, value_name = "FORMAT")]
    from: Option<Format>,
}

#[derive(Default)]
struct Counts {
    read: u64,
    complete: u64,
    incomplete: u64,
    invalid: u64,
}

pub fn run(args: Args) -> Result<Outcome> {
    let files = if args.files.is_empty() {
        vec!["-".to_owned()]
    } else {
        args.files.clone()
    };
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut counts = Counts::default();
    let mut failed = false;
    for name in &files {
        let input = match input::open(name, args.from) {
            Ok(input) => input,
            Err(err) => {
                out.flush()?;
                eprintln!("kifu: {err:#}");
                failed = true;
                continue;
            }
        };
        for item in input.format.reader(input.reader) {
            let record = match item {
                Ok(record) => record,
                Err(err) => {
                    out.flush()?;
                    eprintln!("kifu: {name}: {err}");
                    failed = true;
                    break;
                }
            };
            counts.read += 1;
            let report = record.replay();
            match report.status() {
                Status::Complete => counts.complete += 1,
                Status::Incomplete => {
                    counts.incomplete += 1;
                    if args.strict {
                        let mover = report.finish.position.side_to_move();
                        writeln!(
                            out,
                            "{name}:{}: game {}: incomplete: the record stops while {mover} is to move",
                            record.origin.line.map_or_else(
                                || format!("record {}", record.origin.index),
                                |l| l.to_string()
                            ),
                            record.origin.index,
                        )?;
                    }
                }
                Status::Invalid => {
                    counts.invalid += 1;
                    if let Some(error) = &report.error {
                        out.write_all(diagnostic::render(name, &record, error).as_bytes())?;
                    }
                }
            }
        }
    }
    writeln!(
        out,
        "{} games read: {} complete, {} incomplete, {} invalid",
        counts.read, counts.complete, counts.incomplete, counts.invalid
    )?;
    out.flush()?;
    Ok(if failed {
        Outcome::Failed
    } else if counts.invalid > 0 || (args.strict && counts.incomplete > 0) {
        Outcome::Invalid
    } else {
        Outcome::Valid
    })
}
