//! `kifu convert`: any input format to any output format.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use kifu::formats::{wthor, Format};
use kifu::table::Row;
use kifu::Status;

use super::run::{run_inputs, BatchArgs, Totals};
use super::{diagnostic, Outcome};

/// Convert game records between formats, whole databases at once.
///
/// Inputs of any readable format (mixed freely) are replayed in parallel
/// and written in input order. In CSV and JSON Lines an invalid game is a
/// row with status=invalid and its error; other formats write it as
/// recorded and name it on standard error. What the output format cannot
/// keep is named once per run. A summary goes to standard error.
///
/// Examples:
///   kifu convert games.txt --to csv -o games.csv
///   kifu convert a.txt b.csv --to jsonl > all.jsonl
///   cat games.txt | kifu convert --to csv
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// Input files (`-` or none: standard input).
    #[arg(value_name = "FILE")]
    files: Vec<String>,

    /// Output format.
    #[arg(long, short = 't', value_name = "FORMAT")]
    to: Format,

    /// Output file (default: standard output).
    #[arg(long, short = 'o', value_name = "OUT")]
    output: Option<PathBuf>,

    #[command(flatten)]
    batch: BatchArgs,
}

pub fn run(args: Args) -> Result<Outcome> {
    let files = super::default_files(&args.files);
    let to = args.to;
    if to == Format::Wthor {
        return run_wthor(&args, &files);
    }
    if !to.writable() {
        bail!("{to} is read only: choose another output format");
    }
    let mut out: Box<dyn Write> = match &args.output {
        Some(path) => Box::new(BufWriter::with_capacity(
            1 << 16,
            File::create(path).with_context(|| format!("cannot write {}", path.display()))?,
        )),
        None => Box::new(BufWriter::with_capacity(1 << 16, io::stdout().lock())),
    };
    out.write_all(&to.header())?;
    let totals = run_inputs(
        &files,
        &args.batch,
        |name, games, slice| {
            let rows = games.iter().map(|(g, r)| Row::new(name, g, r));
            if let Err(err) = to.write_rows(rows, &mut slice.bytes) {
                slice
                    .notes
                    .push(format!("kifu: cannot format a game: {err}"));
            }
            slice.written += games.len() as u64;
            let mut lost = Vec::new();
            for (game, report) in games {
                lost.clear();
                to.losses(game, &mut lost);
                for what in &lost {
                    *slice.losses.entry(what).or_default() += 1;
                }
                if report.status() == Status::Invalid && !to.carries_status() {
                    if let Some(error) = &report.error {
                        slice.notes.push(format!(
                            "kifu: {}: {} (written as recorded)",
                            diagnostic::location(name, game, error),
                            diagnostic::headline(game, error)
                        ));
                    }
                }
            }
        },
        |slice| out.write_all(&slice.bytes),
    )?;
    out.flush()?;
    report_losses(to, &totals);
    eprintln!("{}", summary(&totals));
    Ok(totals.outcome())
}

/// Converts to WTHOR: games are encoded in parallel and written in order
/// by the WTHOR writer, which needs a file (it patches the header at the
/// end); the player and tournament files are written beside it.
fn run_wthor(args: &Args, files: &[String]) -> Result<Outcome> {
    let Some(path) = &args.output else {
        bail!("WTHOR output needs a file: use -o OUT.wtb (the name files go beside it)");
    };
    let (year, month, day) = today();
    let options = wthor::WriterOptions::new(year, month, day);
    let file = File::create(path).with_context(|| format!("cannot write {}", path.display()))?;
    let mut writer = wthor::Writer::new(BufWriter::with_capacity(1 << 16, file), options)
        .with_context(|| format!("cannot write {}", path.display()))?;
    let mut refused_after_encoding = 0u64;
    let totals = run_inputs(
        files,
        &args.batch,
        |name, games, slice| {
            let mut lost = Vec::new();
            for (game, report) in games {
                lost.clear();
                Format::Wthor.losses(game, &mut lost);
                for what in &lost {
                    *slice.losses.entry(what).or_default() += 1;
                }
                match wthor::encode(game, report) {
                    Ok(encoded) => {
                        slice.encoded.push((encoded, game.tags.clone()));
                        slice.written += 1;
                    }
                    Err(refusal) => slice.notes.push(format!(
                        "kifu: {name}: game {}: left out: {refusal}",
                        game.origin.index
                    )),
                }
            }
        },
        |slice| {
            for (game, tags) in &slice.encoded {
                match writer.write_encoded(game, tags) {
                    Ok(()) => {}
                    Err(wthor::WriteError::Refused(refusal)) => {
                        refused_after_encoding += 1;
                        eprintln!("kifu: a game was left out: {refusal}");
                    }
                    Err(wthor::WriteError::Io(err)) => return Err(err),
                }
            }
            Ok(())
        },
    )?;
    let (mut out, names) = writer
        .finish()
        .with_context(|| format!("cannot write {}", path.display()))?;
    out.flush()?;
    let (players, tournaments) = wthor::name_paths(path);
    wthor::write_names(&players, &tournaments, &names, &options).with_context(|| {
        format!(
            "cannot write {} and {}",
            players.display(),
            tournaments.display()
        )
    })?;
    let mut totals = totals;
    totals.written -= refused_after_encoding.min(totals.written);
    report_losses(Format::Wthor, &totals);
    eprintln!("{}", summary(&totals));
    Ok(totals.outcome())
}

/// Today's date (UTC) as year, month, day.
fn today() -> (u16, u8, u8) {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    civil_from_days((secs / 86_400) as i64)
}

/// The proleptic Gregorian date of a day count from 1970-01-01 (Howard
/// Hinnant's algorithm).
fn civil_from_days(days: i64) -> (u16, u8, u8) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year as u16, month as u8, day as u8)
}

/// One warning per thing the output could not keep.
pub fn report_losses(to: Format, totals: &Totals) {
    for (what, games) in &totals.losses {
        eprintln!(
            "kifu: warning: {to} cannot keep {what} ({games} game{})",
            if *games == 1 { "" } else { "s" }
        );
    }
}

/// `kifu: 12 games read: 10 complete, 1 incomplete, 1 invalid; 12 written, 0 left out`
pub fn summary(totals: &Totals) -> String {
    let t = &totals.tally;
    format!(
        "kifu: {}; {} written, {} left out",
        super::run::tally_line(t),
        totals.written,
        t.read - totals.written.min(t.read)
    )
}

#[cfg(test)]
mod tests {
    use super::civil_from_days;

    #[test]
    fn days_to_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_778), (2026, 11, 21));
    }
}
