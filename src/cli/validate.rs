//! `kifu validate`: replay every game and report the invalid ones.

use std::io::{self, BufWriter, Write};

use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::Result;
use kifu::jobs::theoretical::{self, Wrong};
use kifu::{GameError, GameRecord, Report, Status};
use serde::Serialize;

use super::io::InputArgs;
use super::run::{run_counted, run_inputs, Out, Replay, Replayed};
use super::{diagnostic, report, suggest, ColorWhen, Outcome};

/// Replay every game and report the invalid ones with where and why.
///
/// For each invalid game: file, line and column (or record number and byte
/// offset in a binary file), game number, move number, colour to move, the
/// token and the reason, with the source line and a caret under the token.
/// Ends with a summary line. `--format json` prints one JSON object per
/// reported game instead (the summary then goes to standard error).
///
/// Examples:
///   kifu validate games.txt
///   kifu validate --strict a.txt b.txt
///   kifu validate --suggest games.txt
///   kifu validate --theoretical WTH_2004.wtb
///   cat games.txt | kifu validate --format json
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
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

    /// Also solve every stored theoretical score (WTHOR) again at its
    /// file's depth and report each that differs (exit 1).
    #[arg(long)]
    theoretical: bool,

    /// The solver's transposition table for --theoretical, in MB.
    #[arg(
        long,
        value_name = "MB",
        default_value_t = kifu::jobs::DEFAULT_HASH_MB,
        requires = "theoretical"
    )]
    hash: usize,

    /// Report as text with source snippets, or as JSON Lines for tools.
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    format: ReportFormat,

    /// Colour the report: auto (on a terminal, unless NO_COLOR is set),
    /// always or never.
    #[arg(long, value_enum, default_value_t = ColorWhen::Auto, value_name = "WHEN")]
    color: ColorWhen,

    #[command(flatten)]
    input: InputArgs,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum ReportFormat {
    Text,
    Json,
}

/// One reported game, for `--format json`.
#[derive(Serialize)]
struct Finding<'a> {
    file: &'a str,
    game: u64,
    status: Status,
    line: Option<u32>,
    column: Option<u32>,
    byte: u64,
    #[serde(rename = "move")]
    move_number: Option<usize>,
    color: Option<kifu::Color>,
    token: Option<&'a str>,
    reason: String,
    message: String,
}

fn finding<'a>(name: &'a str, record: &GameRecord, error: &'a GameError) -> Finding<'a> {
    let pos = error.span(record);
    let (color, token) = match error {
        GameError::Replay(e) => (Some(e.color), Some(e.token.as_str())),
        GameError::Parse(_) => (None, None),
    };
    Finding {
        file: name,
        game: record.origin.index,
        status: Status::Invalid,
        line: pos.map(|p| p.line).filter(|&l| l > 0),
        column: pos.map(|p| p.column).filter(|&c| c > 0),
        byte: pos.map_or(record.origin.byte, |p| p.byte),
        move_number: error.move_number(),
        color,
        token,
        reason: error.reason(),
        message: error.to_string(),
    }
}

fn incomplete(name: &str, record: &GameRecord, report: &Report, json: bool) -> String {
    let mover = report.finish.position.side_to_move();
    let reason = format!("the record stops while {mover} is to move");
    if json {
        let f = Finding {
            file: name,
            game: record.origin.index,
            status: Status::Incomplete,
            line: record.origin.line,
            column: None,
            byte: record.origin.byte,
            move_number: None,
            color: Some(mover),
            token: None,
            reason: reason.clone(),
            message: format!("incomplete: {reason}"),
        };
        serde_json::to_string(&f).unwrap_or_default() + "\n"
    } else {
        let at = record.origin.line.map_or_else(
            || format!(" record {}", record.origin.index),
            |l| l.to_string(),
        );
        format!(
            "{name}:{at}: game {}: incomplete: {reason}\n",
            record.origin.index
        )
    }
}

/// A stored theoretical score that exact solving contradicts.
#[derive(Serialize)]
struct WrongScore<'a> {
    file: &'a str,
    game: u64,
    status: &'static str,
    depth: u8,
    stored: u8,
    solved: u8,
    message: String,
}

fn theoretical_text(name: &str, record: &GameRecord, wrong: Wrong, json: bool) -> String {
    let Wrong {
        stored,
        solved,
        depth,
    } = wrong;
    let message = wrong.message();
    if json {
        let f = WrongScore {
            file: name,
            game: record.origin.index,
            status: theoretical::WRONG,
            depth,
            stored,
            solved,
            message,
        };
        serde_json::to_string(&f).unwrap_or_default() + "\n"
    } else {
        format!("{name}: record {}: {message}\n", record.origin.index)
    }
}

pub fn run(args: Args) -> Result<Outcome> {
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let strict = args.strict;
    let json = args.format == ReportFormat::Json;
    let color = !json && args.color.enabled();
    let suggest = args.suggest;
    let selection = args.input.selection(false)?;
    let solver = args.theoretical.then(|| super::solver::solver(args.hash));
    let checked = AtomicU64::new(0);
    let wrong = AtomicU64::new(0);
    // Solving takes long a game: small slices spread the games over every
    // worker, even for a file of a few games.
    let options = if args.theoretical {
        kifu::batch::Options {
            chunk: 4,
            slice: 4,
            chunk_bytes: 256,
            slice_bytes: 256,
            ..args.input.options()
        }
    } else {
        args.input.options().counting()
    };
    let job = &mut Replayed {
        options,
        selection: &selection,
        unique: None,
        work: |g: &Replay<'_>| {
            let (name, record, report) = (g.source, g.record, g.report);
            let text = match (report.status(), &report.error) {
                (Status::Incomplete, _) if strict => incomplete(name, record, report, json),
                (Status::Invalid, Some(error)) if json => {
                    serde_json::to_string(&finding(name, record, error)).unwrap_or_default() + "\n"
                }
                (Status::Invalid, Some(error)) => {
                    let mut text = diagnostic::render(name, record, error, color);
                    if let Some(n) = suggest {
                        text.push_str(&suggest::suggestions(record, error, n));
                    }
                    text
                }
                _ => String::new(),
            };
            let mut text = text;
            if let Some(solver) = &solver {
                if theoretical::checkable(record, report) {
                    checked.fetch_add(1, Ordering::Relaxed);
                    if let Some(wrong_score) = theoretical::check(solver, record, report) {
                        wrong.fetch_add(1, Ordering::Relaxed);
                        text.push_str(&theoretical_text(name, record, wrong_score, json));
                    }
                }
            }
            Out {
                // A valid game has nothing to say.
                item: (!text.is_empty()).then_some(text),
                notes: Vec::new(),
            }
        },
        sink: |text: String| out.write_all(text.as_bytes()),
    };
    // Solving takes long: the bar counts the games and tells the time left.
    let totals = if args.theoretical {
        run_counted(&args.input, &selection, job)?
    } else {
        run_inputs(&args.input, job)?
    };
    let t = &totals.tally;
    let mut summary = report::tally_line(&totals);
    let wrong = wrong.into_inner();
    if args.theoretical {
        summary.push_str(&format!(
            "; {} checked by exact solving, {wrong} wrong",
            report::counted(checked.into_inner(), "theoretical score")
        ));
    }
    if json {
        out.flush()?;
        eprintln!("kifu: {summary}");
    } else {
        writeln!(out, "{summary}")?;
    }
    out.flush()?;
    let outcome = totals.outcome();
    Ok(
        if outcome == Outcome::Valid && (strict && t.incomplete > 0 || wrong > 0) {
            Outcome::Invalid
        } else {
            outcome
        },
    )
}
