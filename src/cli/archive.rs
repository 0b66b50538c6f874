//! Writing WTHOR output into an archive: the name files it extends, the
//! depth it carries, a file per year, and what it says about all that.

use std::io;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use kifu::formats::{wthor, GameWriter};
use kifu::record::date::civil_from_days;

use super::io::{InputArgs, SourceArgs};
use super::output::{self, AtomicFile, Target};
use super::report;

/// The WTHOR flags of `convert`.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct WthorArgs {
    /// WTHOR: write one file per game year, `OUT_YYYY.wtb` (the name
    /// files shared; undated games in OUT itself).
    #[arg(long)]
    pub split_year: bool,

    /// WTHOR: the depth (P3) of the theoretical scores (default: the
    /// depth the inputs carry, else 1).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(0..=60))]
    pub depth: Option<u8>,

    /// WTHOR: a game whose theoretical score at the depth is not known (a
    /// WTHOR input of that depth) gets it by exact solving (`solve`, the
    /// default), or keeps a copied score, named as unverified (`copy`).
    #[arg(long, value_enum, value_name = "HOW")]
    pub theoretical: Option<Theoretical>,

    /// WTHOR: the solver's transposition table, in MB (default 256).
    #[arg(long, value_name = "MB")]
    pub hash: Option<usize>,
}

/// Where WTHOR's theoretical scores come from when not known.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Theoretical {
    /// Solve each game from its position with P3 empty squares.
    #[default]
    Solve,
    /// Copy the game's own score (unverified).
    Copy,
}

impl WthorArgs {
    /// Whether any WTHOR flag is given.
    pub fn any(&self) -> bool {
        self.split_year || self.depth.is_some() || self.theoretical.is_some() || self.hash.is_some()
    }
}

/// A WTHOR output in progress: the writer and the name files it extends.
pub struct Archive<F: FnMut(Option<u16>) -> io::Result<AtomicFile>> {
    /// The writer of the games.
    pub writer: wthor::ArchiveWriter<AtomicFile, F>,
    names: wthor::ArchiveNames,
    options: wthor::WriterOptions,
    split: bool,
}

/// Starts writing WTHOR to `path`: the depth from `--depth` or the
/// inputs, the name files beside it (or `--names`) loaded to be extended.
/// Each `.wtb` is opened when its first game comes, refused if it is one
/// of the inputs.
pub fn open<'a>(
    path: &'a Path,
    inputs: &'a InputArgs,
    flags: &WthorArgs,
) -> Result<Archive<impl FnMut(Option<u16>) -> io::Result<AtomicFile> + 'a>> {
    let files = inputs.files();
    let depths = input_depths(&files, &inputs.source);
    if depths.len() > 1 && flags.depth.is_none() {
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
    let depth = flags
        .depth
        .or_else(|| depths.first().map(|(d, _)| *d))
        .unwrap_or(1);
    let (year, month, day) = today();
    let options = wthor::WriterOptions {
        depth,
        ..wthor::WriterOptions::new(year, month, day)
    };
    let names = archive_names(path, inputs.source.names.as_deref())?;
    let book = wthor::NameBook::new(
        existing_names(
            &names.players,
            names.players_exist,
            wthor::PLAYER_RECORD_LEN,
        )?,
        existing_names(
            &names.tournaments,
            names.tournaments_exist,
            wthor::TOURNAMENT_RECORD_LEN,
        )?,
    );
    let open_year = move |year: Option<u16>| -> io::Result<AtomicFile> {
        let target = match year {
            Some(y) => year_path(path, y),
            None => path.to_path_buf(),
        };
        let made = output::refuse_inputs_as_outputs(&files, &[Target::File(&target)])
            .and_then(|()| AtomicFile::create(&target))
            .and_then(|file| {
                // The header's game count is written last, back at the start.
                if !file.seekable() {
                    bail!(
                        "cannot write WTHOR to {}: a device, a pipe or an open file cannot be \
                         sought back into; name a file",
                        target.display()
                    );
                }
                Ok(file)
            });
        made.map_err(|e| io::Error::other(format!("{e:#}")))
    };
    Ok(Archive {
        writer: wthor::ArchiveWriter::new(options, book, flags.split_year, open_year),
        names,
        options,
        split: flags.split_year,
    })
}

impl<F: FnMut(Option<u16>) -> io::Result<AtomicFile>> Archive<F> {
    /// The depth (P3) of the theoretical scores written.
    pub fn depth(&self) -> u8 {
        self.options.depth
    }

    /// Completes every file, writes the name files that gained names, then
    /// renames every `.wtb` into place; says what was changed.
    pub fn commit(mut self) -> Result<()> {
        self.writer.finish()?;
        let (book, files) = self.writer.into_parts();
        let mut stats = wthor::WriteStats::default();
        for (_, file, file_stats) in &files {
            if !self.split && !file_stats.other_years.is_empty() {
                let years: Vec<String> = file_stats
                    .other_years
                    .iter()
                    .map(|(y, n)| format!("{y}: {n}"))
                    .collect();
                eprintln!(
                    "kifu: warning: {} of other years ({}) dated {} in {}: --split-year writes one file per year",
                    report::games(file_stats.other_years.values().sum()),
                    years.join(", "),
                    file_stats.year,
                    file.target().display()
                );
            }
            stats.merge(file_stats);
        }
        // The name files first: a .wtb never refers to names not yet there.
        write_name_files(&self.names, &book, &self.options)?;
        for (_, file, _) in files {
            file.commit()?;
        }
        if stats.scores_replaced > 0 {
            eprintln!(
                "kifu: warning: {} record another score than their replay: written with the replayed score",
                report::games(stats.scores_replaced)
            );
        }
        if stats.theoretical_unverified > 0 {
            eprintln!(
                "kifu: warning: {} have no theoretical score known at depth {}: written with \
                 their own (of another depth) or, lacking one, their score",
                report::games(stats.theoretical_unverified),
                self.options.depth
            );
        }
        Ok(())
    }
}

/// The depth (P3) of the theoretical scores the named inputs carry (a
/// WTHOR file's header; JSON Lines keep it), each with the files that say
/// it, first file first. An input's depth is that of the first of its
/// first 64 games that states one; standard input is not looked at.
fn input_depths(files: &[String], source: &SourceArgs) -> Vec<(u8, Vec<String>)> {
    let mut depths: Vec<(u8, Vec<String>)> = Vec::new();
    for name in files.iter().filter(|f| *f != "-") {
        let Ok(opened) = super::io::open_input(name, source.from) else {
            continue;
        };
        let mut quiet = Vec::new();
        let source = SourceArgs {
            names: None,
            ..source.clone()
        };
        let depth = super::io::games(opened, &source, &mut quiet)
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
        .map_err(|e| anyhow!("{e}: name the pair to extend with --names FILE.JOU"))
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
                report::counted(added as u64, what),
                path.display(),
                names.len()
            );
        }
    }
    Ok(())
}

/// Today's date (UTC) as year, month, day.
fn today() -> (u16, u8, u8) {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    civil_from_days((secs / 86_400) as i64)
}
