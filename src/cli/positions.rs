//! `kifu positions`: the positions of the games as training data.

use std::io::{self, IsTerminal, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use kifu::batch::{self, BatchError, Flag, Returned, SliceReport};
use kifu::formats::parquet::PositionsWriter;
use kifu::jobs::positions::{GameRows, Made};
use kifu::ml::positions::{
    self, csv_source, json_source, npy_header, push_csv, push_jsonl, push_npy, Empties, Row, Seen,
    NPY_NO_SCORE,
};
use kifu::ml::tensors;
use kifu::record::select::Selection;
use kifu::solve::Solver;
use kifu::{GameRecord, Status};

use super::diagnostic;
use super::io::InputArgs;
use super::output::{self, AtomicFile, Output, Scratch, Target};
use super::run::{run_counted, run_inputs, Done, Games, Job};
use super::{report, Outcome};

/// Write the positions of the games as training data.
///
/// One row per position in which the side to move places a disc, in every
/// complete game: the game, the ply (moves and passes before it), the
/// empty squares, the side to move, the discs of the side to move
/// (`player`) and of the other side (`opponent`) as 64-bit integers with
/// bit i = square i (a1 = 0, b1 = 1, …, h8 = 63), the move, and the final
/// score of the side to move minus the other's (empties to the winner).
/// Incomplete and invalid games are counted and skipped, unless
/// --all-games. The filters choose the games first.
///
/// npy is a NumPy structured array (`numpy.load`, no pickle): player <u8,
/// opponent <u8, move u1 (square index), ply u1, empties u1, side u1
/// (0 black, 1 white), score i1 (-128 where there is no score), game <u4
/// (the game's number among all games read in the run).
///
/// Examples:
///   kifu positions WTH_*.wtb -o train.npy
///   kifu positions WTH_*.wtb --empties 20..40 --symmetries --unique -o mid.parquet
///   kifu positions games.pgn --to csv | head
///   kifu positions synthetic.npy -o tensors.npz      (per-move tensors)
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// Output format (default: the one -o's extension names).
    #[arg(long, short = 't', value_enum, value_name = "FORMAT")]
    to: Option<To>,

    /// Output file (default: standard output; npy and Parquet only to a
    /// file or a pipe).
    #[arg(long, short = 'o', value_name = "OUT")]
    output: Option<PathBuf>,

    /// Keep positions with this many empty squares: A..B, A.., ..B or N.
    #[arg(long, value_name = "A..B")]
    empties: Option<String>,

    /// Add each position's 7 other symmetric images (turned and mirrored),
    /// the move mapped alike: 8 rows per position.
    #[arg(long)]
    symmetries: bool,

    /// Keep only the first row of each distinct position (the same discs
    /// of the side to move and of the other side).
    #[arg(long, conflicts_with = "shard")]
    unique: bool,

    /// Also the positions of incomplete games (no score) and of invalid
    /// ones, up to their first bad move (no score).
    #[arg(long)]
    all_games: bool,

    /// The score of a row: the game's final score (`final`), or the
    /// position's exact value under perfect play (`exact`, by solving;
    /// needs --empties A..B with B at most 30).
    #[arg(long, value_enum, default_value_t = Scoring::Final)]
    score: Scoring,

    /// The solver's transposition table for --score exact, in MB, at
    /// most: 16 MB when B is at most 20, twice that for each empty beyond.
    #[arg(long, value_name = "MB", default_value_t = kifu::jobs::DEFAULT_HASH_MB)]
    hash: usize,

    #[command(flatten)]
    input: InputArgs,
}

/// Where a row's score comes from.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scoring {
    /// How the game ended.
    Final,
    /// Perfect play from the position.
    Exact,
}

/// The output formats of `positions`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum To {
    /// The CSV table.
    Csv,
    /// One JSON object per row.
    Jsonl,
    /// A NumPy structured array.
    Npy,
    /// Apache Parquet.
    Parquet,
    /// Per-move tensors: a NumPy .npz of boolean 8×8 planes (mine,
    /// theirs, empty, legal, flipped) and move, ply, side, score, game.
    Npz,
}

impl To {
    /// The format an output file's extension names.
    fn from_path(path: &Path) -> Option<To> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "csv" => Some(To::Csv),
            "jsonl" | "ndjson" => Some(To::Jsonl),
            "npy" => Some(To::Npy),
            "parquet" | "pq" => Some(To::Parquet),
            "npz" => Some(To::Npz),
            _ => None,
        }
    }

    /// Binary: never to a terminal.
    fn binary(self) -> bool {
        matches!(self, To::Npy | To::Parquet | To::Npz)
    }
}

/// The output format: `--to`, else `-o`'s extension.
fn output_format(to: Option<To>, output: Option<&Path>) -> Result<To> {
    match (to, output.and_then(To::from_path)) {
        (Some(to), _) | (None, Some(to)) => Ok(to),
        (None, _) => bail!(
            "--to: cannot tell the output format: give --to csv|jsonl|npy|parquet|npz, or -o a \
             file ending in .csv, .jsonl, .npy, .parquet or .npz"
        ),
    }
}

/// What the run came to, beyond the games' counts.
#[derive(Default, Clone, Copy, Debug)]
struct Counts {
    /// Games that gave rows.
    used: u64,
    /// Chosen games left out as incomplete.
    skipped_incomplete: u64,
    /// Chosen games left out as invalid.
    skipped_invalid: u64,
    /// Rows written.
    written: u64,
    /// Rows left out as repeats (`--unique`).
    duplicates: u64,
    /// Rows written without a score.
    unscored: u64,
}

impl Counts {
    fn add(&mut self, other: &Counts) {
        self.used += other.used;
        self.skipped_incomplete += other.skipped_incomplete;
        self.skipped_invalid += other.skipped_invalid;
        self.written += other.written;
        self.duplicates += other.duplicates;
        self.unscored += other.unscored;
    }
}

/// What a worker makes of a slice.
struct Part {
    /// The rows, encoded (CSV, JSON Lines, npy).
    bytes: Vec<u8>,
    /// Under `--unique`: where each encoded row ends, and its position.
    ends: Vec<usize>,
    keys: Vec<(u64, u64, bool)>,
    /// Rows encoded into `bytes`.
    encoded: u64,
    /// Parquet: the rows and their game numbers.
    rows: Vec<(u64, Row)>,
    report: SliceReport,
    counts: Counts,
    notes: Vec<String>,
}

/// Where the rows go.
enum Sink {
    /// CSV or JSON Lines.
    Text(Output),
    /// npy to a file, the count patched at the end.
    Npy(AtomicFile),
    /// npy to standard output or a pipe: a scratch file first, the count
    /// patched, then copied.
    NpyPiped(Scratch, Output),
    Parquet(Box<PositionsWriter<Output>>),
    /// npz: each array in a scratch file, zipped at the end.
    Npz(Vec<Scratch>, Output),
}

impl Sink {
    fn write(&mut self, bytes: &[u8]) -> io::Result<()> {
        match self {
            Sink::Text(out) => out.write_all(bytes),
            Sink::Npy(file) => file.write_all(bytes),
            Sink::NpyPiped(scratch, _) => scratch.file().write_all(bytes),
            // Parquet and npz take rows, never bytes.
            Sink::Parquet(_) | Sink::Npz(..) => Err(io::Error::other("written by columns")),
        }
    }
}

struct Positions<'a> {
    to: To,
    options: batch::Options,
    selection: &'a Selection,
    rows: positions::Options,
    seen: Option<Seen>,
    sink: &'a mut Sink,
    /// Games read in the inputs before this one.
    base: u64,
    counts: Counts,
    /// With `--score exact`, the solver that values each position.
    solver: Option<&'a Solver>,
}

/// The line naming an invalid game and what became of it.
fn invalid_note(name: &str, flag: &Flag, all_games: bool) -> String {
    let what = if all_games {
        "rows up to its first bad move"
    } else {
        "skipped"
    };
    format!(
        "kifu: {}: {} ({what})",
        diagnostic::location(name, flag),
        diagnostic::headline(flag)
    )
}

impl Job for Positions<'_> {
    fn input(&mut self, name: &str, games: Games, done: &mut Done<'_>) -> Result<(), BatchError> {
        let to = self.to;
        let selection = self.selection;
        let options = self.rows;
        let unique = self.seen.is_some();
        let base = self.base;
        let solver = self.solver;
        let csv_name = csv_source(name);
        let json_name = json_source(name);
        if let Sink::Parquet(writer) = self.sink {
            writer.set_source(name);
        }
        let sink = &mut *self.sink;
        let seen = &mut self.seen;
        let counts = &mut self.counts;
        let (spare_bytes, spare_rows) = (Returned::new(), Returned::new());
        let result = batch::run(
            games,
            &self.options,
            |records: Vec<GameRecord>| {
                let (bytes, rows) = match to {
                    To::Parquet | To::Npz => (Vec::new(), spare_rows.take()),
                    _ => (spare_bytes.take(), Vec::new()),
                };
                let mut part = Part {
                    bytes,
                    ends: Vec::new(),
                    keys: Vec::new(),
                    encoded: 0,
                    rows,
                    report: SliceReport::default(),
                    counts: Counts::default(),
                    notes: Vec::new(),
                };
                let mut maker = GameRows::new(selection, options, solver);
                for record in &records {
                    part.report.read += 1;
                    part.report.quirks.add(record);
                    part.report.last_byte = record.origin.byte;
                    let Made::Kept { report, rows } = maker.game(record) else {
                        continue;
                    };
                    let status = report.status();
                    part.report.tally.add(status);
                    if let Some(error) = &report.error {
                        let flag = Flag::of(record, error);
                        part.notes
                            .push(invalid_note(name, &flag, options.all_games));
                    }
                    let Some(rows) = rows else {
                        match status {
                            Status::Invalid => part.counts.skipped_invalid += 1,
                            _ => part.counts.skipped_incomplete += 1,
                        }
                        continue;
                    };
                    part.counts.used += 1;
                    let game = record.origin.index;
                    // More than 4 billion games in one run do not fit the
                    // npy's u4 and keep the last number.
                    let run_game = u32::try_from(base + game).unwrap_or(u32::MAX);
                    let by_rows = matches!(to, To::Parquet | To::Npz);
                    if part.bytes.is_empty() && !by_rows {
                        let per_row = match to {
                            To::Npy => positions::NPY_RECORD,
                            _ => 80,
                        };
                        part.bytes
                            .reserve(records.len() * rows.len().max(1) * per_row);
                    }
                    for row in rows {
                        match to {
                            To::Csv => push_csv(&mut part.bytes, &csv_name, game, row),
                            To::Jsonl => push_jsonl(&mut part.bytes, &json_name, game, row),
                            To::Npy => push_npy(&mut part.bytes, run_game, row),
                            To::Parquet => part.rows.push((game, *row)),
                            To::Npz => part.rows.push((u64::from(run_game), *row)),
                        }
                        if unique && !by_rows {
                            part.ends.push(part.bytes.len());
                            part.keys
                                .push((row.player, row.opponent, row.score.is_none()));
                        } else if !by_rows {
                            part.encoded += 1;
                            part.counts.unscored += u64::from(row.score.is_none());
                        }
                    }
                }
                part
            },
            |part: Part| {
                let mut report = part.report;
                let mut slice = part.counts;
                match (to, seen.as_mut()) {
                    (To::Parquet | To::Npz, seen) => {
                        let mut rows = part.rows;
                        if let Some(seen) = seen {
                            let before = rows.len();
                            rows.retain(|(_, row)| seen.first(row.player, row.opponent));
                            slice.duplicates += (before - rows.len()) as u64;
                        }
                        match &mut *sink {
                            Sink::Parquet(writer) => {
                                writer.push_rows(&rows).map_err(io::Error::other)?;
                            }
                            Sink::Npz(scratch, _) => npz_rows(scratch, &rows)?,
                            _ => return Err(io::Error::other("rows without a writer of rows")),
                        }
                        slice.written += rows.len() as u64;
                        slice.unscored +=
                            rows.iter().filter(|(_, row)| row.score.is_none()).count() as u64;
                        rows.clear();
                        spare_rows.give(rows);
                    }
                    (_, None) => {
                        sink.write(&part.bytes)?;
                        slice.written += part.encoded;
                    }
                    (_, Some(seen)) => {
                        let mut start = 0;
                        for (end, (player, opponent, unscored)) in part.ends.iter().zip(&part.keys)
                        {
                            if seen.first(*player, *opponent) {
                                sink.write(&part.bytes[start..*end])?;
                                slice.written += 1;
                                slice.unscored += u64::from(*unscored);
                            } else {
                                slice.duplicates += 1;
                            }
                            start = *end;
                        }
                    }
                }
                let mut bytes = part.bytes;
                bytes.clear();
                spare_bytes.give(bytes);
                report.written = slice.used;
                counts.add(&slice);
                done(&report, &part.notes);
                Ok(())
            },
        );
        result
    }

    fn games_before(&mut self, games: u64) {
        self.base = games;
    }
}

pub fn run(args: Args) -> Result<Outcome> {
    let to = output_format(args.to, args.output.as_deref())?;
    let empties = match &args.empties {
        Some(text) => text.parse::<Empties>()?,
        None => Empties::default(),
    };
    if to.binary() {
        let what = if to == To::Npy { "npy" } else { "parquet" };
        output::refuse_binary_on_terminal(
            what,
            args.output.as_deref(),
            io::stdout().is_terminal(),
        )?;
    }
    let files = args.input.files();
    let target = match &args.output {
        Some(path) => Target::File(path),
        None => Target::Stdout,
    };
    output::refuse_inputs_as_outputs(&files, &[target])?;
    let selection = args.input.selection(false)?;
    if args.score == Scoring::Exact {
        match (args.empties.is_some(), empties.max) {
            (true, max) if max <= 30 => {}
            (true, max) => bail!(
                "--score exact solves every position: --empties allows {max} empty squares, \
                 more than 30 (a position of 36 empties can take hours); give --empties A..B \
                 with B at most 30"
            ),
            (false, _) => {
                bail!("--score exact solves every position: give --empties A..B with B at most 30")
            }
        }
    }
    let solver = (args.score == Scoring::Exact)
        .then(|| super::solver::analysis_solver(args.hash, u32::from(empties.max)));
    let mut sink = match to {
        To::Csv | To::Jsonl => {
            let mut out = Output::open(args.output.as_deref())?;
            if to == To::Csv {
                writeln!(out, "{}", positions::CSV_HEADER)?;
            }
            Sink::Text(out)
        }
        To::Npy => match Output::open(args.output.as_deref())? {
            Output::File(mut file) if file.seekable() => {
                file.write_all(&npy_header(0))?;
                Sink::Npy(file)
            }
            out => {
                let mut scratch = Scratch::create("positions")?;
                scratch.file().write_all(&npy_header(0))?;
                Sink::NpyPiped(scratch, out)
            }
        },
        To::Parquet => Sink::Parquet(Box::new(PositionsWriter::new(Output::open(
            args.output.as_deref(),
        )?)?)),
        To::Npz => {
            let scratch = tensors::ARRAYS
                .iter()
                .map(|(name, _)| Scratch::create(&format!("npz-{name}")))
                .collect::<Result<Vec<_>>>()?;
            Sink::Npz(scratch, Output::open(args.output.as_deref())?)
        }
    };
    // A game's positions take many times its bytes (a text row about a
    // hundred bytes for each byte of WTHOR read, npy 22): smaller batches
    // keep the rows in flight (two batches' worth) to a few megabytes.
    let mut options = args.input.options();
    if matches!(to, To::Csv | To::Jsonl) {
        options.chunk_bytes = 32 << 10;
        options.slice_bytes = 8 << 10;
    } else {
        options.chunk_bytes = options.chunk_bytes.min(128 << 10);
    }
    if solver.is_some() {
        // Solving takes long a game: small slices keep every worker busy.
        options.chunk = 4;
        options.slice = 4;
        options.chunk_bytes = 256;
        options.slice_bytes = 256;
    }
    let mut job = Positions {
        to,
        options,
        selection: &selection,
        rows: positions::Options {
            empties,
            symmetries: args.symmetries,
            all_games: args.all_games,
        },
        seen: args.unique.then(Seen::default),
        sink: &mut sink,
        base: 0,
        counts: Counts::default(),
        solver: solver.as_ref(),
    };
    // Solving takes long: the bar counts the games and tells the time left.
    let totals = if job.solver.is_some() {
        run_counted(&args.input, &selection, &mut job)?
    } else {
        run_inputs(&args.input, &mut job)?
    };
    let counts = job.counts;
    finish(sink, counts.written)?;
    if to == To::Npy && counts.unscored > 0 {
        eprintln!(
            "kifu: note: {} of unfinished or invalid games have score {NPY_NO_SCORE} in the npy \
             (no score)",
            report::counted(counts.unscored, "row")
        );
    }
    eprintln!(
        "kifu: {}",
        report::positions_line(
            &totals,
            counts.used,
            counts.skipped_incomplete,
            counts.skipped_invalid,
            counts.written,
            counts.duplicates,
        )
    );
    Ok(totals.outcome())
}

/// Ends the output: the npy header gets its count, a piped npy is copied
/// out, a file is renamed into place.
fn finish(sink: Sink, count: u64) -> Result<()> {
    match sink {
        Sink::Text(out) => out.commit(),
        Sink::Npy(mut file) => {
            file.seek(SeekFrom::Start(0))?;
            file.write_all(&npy_header(count))?;
            file.commit()
        }
        Sink::NpyPiped(mut scratch, mut out) => {
            let file = scratch.file();
            file.seek(SeekFrom::Start(0))?;
            file.write_all(&npy_header(count))?;
            file.seek(SeekFrom::Start(0))?;
            io::copy(file, &mut out).context("cannot write the npy")?;
            out.commit()
        }
        Sink::Parquet(writer) => {
            let out = writer.finish()?;
            out.commit()
        }
        Sink::Npz(mut scratch, out) => {
            // NumPy's own .npz: a zip of .npy files, stored, as numpy.savez
            // writes it.
            let mut zip = zip::ZipWriter::new_stream(out);
            let options = zip::write::SimpleFileOptions::default()
                .compression_method(zip::CompressionMethod::Stored)
                .large_file(true);
            for (k, (name, _)) in tensors::ARRAYS.iter().enumerate() {
                zip.start_file(format!("{name}.npy"), options)
                    .context("cannot write the npz")?;
                zip.write_all(&tensors::npy_header(k, count))?;
                let file = scratch[k].file();
                file.seek(SeekFrom::Start(0))?;
                io::copy(file, &mut zip).context("cannot write the npz")?;
            }
            let out = zip.finish().context("cannot write the npz")?.into_inner();
            out.commit()
        }
    }
}

/// Appends the rows' tensors to the scratch files of the npz, one per
/// array.
fn npz_rows(scratch: &mut [Scratch], rows: &[(u64, Row)]) -> io::Result<()> {
    let mut columns = tensors::Columns::default();
    for (game, row) in rows {
        columns.push(u32::try_from(*game).unwrap_or(u32::MAX), row);
    }
    let mut bytes = Vec::new();
    for (k, file) in scratch.iter_mut().enumerate() {
        bytes.clear();
        columns.append_bytes(k, &mut bytes);
        file.file().write_all(&bytes)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_format_comes_from_the_extension() {
        let of = |path: &str| output_format(None, Some(Path::new(path))).ok();
        assert_eq!(of("a.npy"), Some(To::Npy));
        assert_eq!(of("a.PARQUET"), Some(To::Parquet));
        assert_eq!(of("a.csv"), Some(To::Csv));
        assert_eq!(of("a.jsonl"), Some(To::Jsonl));
        assert_eq!(of("a.wtb"), None);
        assert_eq!(
            output_format(Some(To::Csv), Some(Path::new("a.npy"))).ok(),
            Some(To::Csv)
        );
        let err = output_format(None, None).unwrap_err().to_string();
        assert!(err.starts_with("--to: "), "{err}");
    }
}
