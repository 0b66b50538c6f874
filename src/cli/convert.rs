//! `kifu convert`: any input format to any output format.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use kifu::formats::{wthor, Format};
use kifu::table::Game;
use kifu::Status;

use super::output::{self, AtomicFile, Output, Target};
use super::run::{run_inputs, BatchArgs, Totals};
use super::{diagnostic, input, Outcome};

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

    /// WTHOR: write one file per game year, `OUT_YYYY.wtb` (the name
    /// files shared; undated games in OUT itself).
    #[arg(long)]
    split_year: bool,

    /// WTHOR: the depth (P3) of the theoretical scores (default: the
    /// depth the inputs carry, else 1).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(0..=60))]
    depth: Option<u8>,

    #[command(flatten)]
    batch: BatchArgs,
}

pub fn run(args: Args) -> Result<Outcome> {
    let files = super::default_files(&args.files);
    let to = args.to;
    let target = match &args.output {
        Some(path) => Target::File(path),
        None => Target::Stdout,
    };
    output::refuse_inputs_as_outputs(&files, &[target])?;
    if to == Format::Wthor {
        return run_wthor(&args, &files);
    }
    if !to.writable() {
        bail!("{to} is read only: choose another output format");
    }
    if args.split_year || args.depth.is_some() {
        bail!("--split-year and --depth are for WTHOR output (--to wthor)");
    }
    let mut out = Output::open(args.output.as_deref())?;
    out.write_all(&to.header())?;
    let totals = run_inputs(
        &files,
        &args.batch,
        |name, games, slice| {
            let rows = games.iter().map(|(g, r)| Game::new(name, g, r));
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
    out.commit()?;
    report_losses(to, &totals);
    eprintln!("{}", summary(&totals));
    Ok(totals.outcome())
}

/// The depth (P3) of the theoretical scores the named inputs carry (a
/// WTHOR file's header; JSON Lines keep it), each with the files that say
/// it, first file first. An input's depth is that of the first of its
/// first 64 games that states one; standard input is not looked at.
fn input_depths(files: &[String], from: Option<Format>) -> Vec<(u8, Vec<String>)> {
    let mut depths: Vec<(u8, Vec<String>)> = Vec::new();
    for name in files.iter().filter(|f| *f != "-") {
        let Ok(opened) = input::open(name, from) else {
            continue;
        };
        let mut quiet = Vec::new();
        let depth = opened
            .games(None, &mut quiet)
            .take(64)
            .map_while(Result::ok)
            .find_map(|g| g.theoretical_depth);
        let Some(depth) = depth else { continue };
        match depths.iter_mut().find(|(d, _)| *d == depth) {
            Some((_, names)) => names.push(name.clone()),
            None => depths.push((depth, vec![name.clone()])),
        }
    }
    depths
}

/// The player and tournament files a written `.wtb` extends or creates:
/// those `--names` names (a folder, or a `.JOU`/`.TRN` file and its
/// pair), else those beside the output.
fn archive_names(path: &Path, names: Option<&Path>) -> Result<wthor::ArchiveNames> {
    let folder = |p: &Path| match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let stem_of = |p: &Path| {
        p.file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("")
            .to_owned()
    };
    let (dir, stem) = match names {
        Some(file) if file.is_file() => (folder(file), stem_of(file)),
        Some(dir) => (dir.to_path_buf(), stem_of(path)),
        None => (folder(path), stem_of(path)),
    };
    wthor::archive_name_files(&dir, &stem)
        .map_err(|e| anyhow::anyhow!("{e}: name the pair to extend with --names FILE.JOU"))
}

/// The names already in a name file, when it exists.
fn existing_names(path: &Path, exists: bool, record_len: usize) -> Result<Vec<String>> {
    if !exists {
        return Ok(Vec::new());
    }
    let list = wthor::load_list(path, record_len)
        .with_context(|| format!("cannot extend {}", path.display()))?;
    for warning in &list.warnings {
        eprintln!("kifu: warning: {}: {warning}", path.display());
    }
    Ok(list.names)
}

/// The `.wtb` of one game year: `STEM_YYYY.wtb` beside `path`.
fn year_path(path: &Path, year: u16) -> PathBuf {
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("games");
    let ext = path.extension().and_then(|s| s.to_str()).unwrap_or("wtb");
    path.with_file_name(format!("{stem}_{year:04}.{ext}"))
}

/// Converts to WTHOR: games are encoded in parallel and written in order
/// by the WTHOR writer (one per year with `--split-year`), which needs a
/// file (it patches the header at the end). The player and tournament
/// files beside the output (or named by `--names`) are extended, keeping
/// their numbering, or created. Nothing is renamed into place until every
/// file is complete.
fn run_wthor(args: &Args, files: &[String]) -> Result<Outcome> {
    let Some(path) = &args.output else {
        bail!("WTHOR output needs a file: use -o OUT.wtb (the name files go beside it)");
    };
    let depths = input_depths(files, args.batch.from);
    if depths.len() > 1 && args.depth.is_none() {
        let said: Vec<String> = depths
            .iter()
            .map(|(d, names)| format!("{d} in {}", names.join(", ")))
            .collect();
        eprintln!(
            "kifu: warning: the WTHOR inputs disagree on the depth of their theoretical scores \
             ({}): the output says {} (--depth sets it)",
            said.join("; "),
            depths[0].0
        );
    }
    let depth = args
        .depth
        .or_else(|| depths.first().map(|(d, _)| *d))
        .unwrap_or(1);
    let (year, month, day) = today();
    let options = wthor::WriterOptions {
        depth,
        ..wthor::WriterOptions::new(year, month, day)
    };
    let archive = archive_names(path, args.batch.names.as_deref())?;
    let mut book = wthor::NameBook::new(
        existing_names(
            &archive.players,
            archive.players_exist,
            wthor::PLAYER_RECORD_LEN,
        )?,
        existing_names(
            &archive.tournaments,
            archive.tournaments_exist,
            wthor::TOURNAMENT_RECORD_LEN,
        )?,
    );
    let split = args.split_year;
    let mut writers: BTreeMap<Option<u16>, wthor::Writer<AtomicFile>> = BTreeMap::new();
    let open_writer = |year: Option<u16>| -> Result<wthor::Writer<AtomicFile>> {
        let target = match year {
            Some(y) => year_path(path, y),
            None => path.clone(),
        };
        output::refuse_inputs_as_outputs(files, &[Target::File(&target)])?;
        let file = AtomicFile::create(&target)?;
        let options = wthor::WriterOptions {
            year: year.or(options.year),
            ..options
        };
        wthor::Writer::new(file, options)
            .with_context(|| format!("cannot write {}", target.display()))
    };
    if !split {
        writers.insert(None, open_writer(None)?);
    }
    let mut refused_after_encoding = 0u64;
    let mut sink_error: Option<anyhow::Error> = None;
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
                match wthor::encode(game, report, depth) {
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
                let key = if split { game.year } else { None };
                let writer = match writers.entry(key) {
                    std::collections::btree_map::Entry::Occupied(e) => e.into_mut(),
                    std::collections::btree_map::Entry::Vacant(e) => match open_writer(key) {
                        Ok(w) => e.insert(w),
                        Err(err) => {
                            sink_error = Some(err);
                            return Err(std::io::Error::other("the output cannot be written"));
                        }
                    },
                };
                let written = book
                    .ids(tags)
                    .map_err(wthor::WriteError::from)
                    .and_then(|ids| writer.write_encoded(game, ids));
                match written {
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
    );
    if let Some(err) = sink_error {
        return Err(err);
    }
    let mut totals = totals?;
    let mut stats = wthor::WriteStats::default();
    let mut finished = Vec::with_capacity(writers.len());
    for writer in writers.into_values() {
        let (file, file_stats) = writer.finish()?;
        if !split && !file_stats.other_years.is_empty() {
            let years: Vec<String> = file_stats
                .other_years
                .iter()
                .map(|(y, n)| format!("{y}: {n}"))
                .collect();
            eprintln!(
                "kifu: warning: {} of other years ({}) dated {} in {}: --split-year writes one file per year",
                super::run::games(file_stats.other_years.values().sum()),
                years.join(", "),
                file_stats.year,
                file.target().display()
            );
        }
        stats.merge(&file_stats);
        finished.push(file);
    }
    // The name files first: a .wtb never refers to names not yet there.
    write_name_files(&archive, &book, &options)?;
    for file in finished {
        file.commit()?;
    }
    if stats.scores_replaced > 0 {
        eprintln!(
            "kifu: warning: {} record another score than their replay: written with the replayed score",
            super::run::games(stats.scores_replaced)
        );
    }
    if stats.theoretical_unverified > 0 {
        eprintln!(
            "kifu: warning: {} have no theoretical score known at depth {depth}: written with \
             their own (of another depth) or, lacking one, their score",
            super::run::games(stats.theoretical_unverified)
        );
    }
    totals.written -= refused_after_encoding.min(totals.written);
    report_losses(Format::Wthor, &totals);
    eprintln!("{}", summary(&totals));
    Ok(totals.outcome())
}

/// Writes the name files that are new or gained names, atomically, and
/// says what was added to existing ones.
fn write_name_files(
    archive: &wthor::ArchiveNames,
    book: &wthor::NameBook,
    options: &wthor::WriterOptions,
) -> Result<()> {
    let (new_players, new_tournaments) = book.added();
    let kinds = [
        (
            &archive.players,
            archive.players_exist,
            book.players(),
            new_players,
            wthor::PLAYER_RECORD_LEN,
            "player",
        ),
        (
            &archive.tournaments,
            archive.tournaments_exist,
            book.tournaments(),
            new_tournaments,
            wthor::TOURNAMENT_RECORD_LEN,
            "tournament",
        ),
    ];
    for (path, exists, names, added, record_len, what) in kinds {
        if exists && added == 0 {
            continue;
        }
        let mut file = AtomicFile::create(path)?;
        wthor::write_name_file(&mut file, names, record_len, options.created)
            .with_context(|| format!("cannot write {}", path.display()))?;
        file.commit()?;
        if exists {
            eprintln!(
                "kifu: note: {} added to {} ({} now)",
                counted(added as u64, what),
                path.display(),
                names.len()
            );
        }
    }
    Ok(())
}

/// `1 player`, `2 players`.
fn counted(n: u64, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
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
