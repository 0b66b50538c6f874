//! `kifu train-eval`: the evaluation's training, from games to the
//! weights file and its manifest.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use kifu::eval::label::{self, LabelOptions, Labelled, Line};
use kifu::eval::manifest::{FileEntry, LabelCounts, Manifest, Measurement, Parameters};
use kifu::eval::{errors, patterns, train, FitOptions, Sample, Weights, SCALE};
use kifu::ml::positions::Empties;
use kifu::{Move, Position, Status, Token};

use super::io::InputArgs;
use super::output::{self, AtomicFile, Target};
use super::run::{run_inputs, Out, Replay, Replayed};
use super::{report, Outcome};

/// Train the evaluation: label positions, fit the pattern weights.
///
/// Every complete game of the inputs is a line of positions. Positions
/// with at most --exact-empties empty squares are labelled with their
/// exact value (kifu's solver); earlier ones with the exact value of the
/// first solved position of their line (the result the game's own moves
/// lead to under perfect play from there: an estimate). --generate adds
/// lines that leave random games (drawn by --seed) a little before the
/// exact labels start and are played to the end by a fixed weight-free
/// player, labelled the same way. --search-depth D labels the positions
/// before the exact ones by a depth-D search with --label-weights
/// instead (--search-share blends the two; --search-from N searches
/// only the positions with N empties or more). The weights, one table
/// per phase of two empties, are fitted by least squares and written
/// compressed (zstd); --manifest records the inputs' SHA-256, every
/// parameter and the weights' SHA-256. The crate's file is made by
/// scripts/train-eval.sh (see src/eval/manifest.json for its command).
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// The weights file to write.
    #[arg(long, short = 'o', value_name = "OUT")]
    output: PathBuf,

    /// Write the run's manifest (JSON) here.
    #[arg(long, value_name = "FILE")]
    manifest: Option<PathBuf>,

    /// Positions with at most this many empty squares get exact labels.
    #[arg(long, value_name = "N", default_value_t = 18)]
    exact_empties: u32,

    /// Train on positions with these empty squares.
    #[arg(long, value_name = "A..B", default_value = "0..60")]
    empties: String,

    /// Use this many of the inputs' complete games (drawn by --seed; 0:
    /// every one).
    #[arg(long, value_name = "N", default_value_t = 0)]
    games: usize,

    /// Generate this many lines by leaving the games.
    #[arg(long, value_name = "N", default_value_t = 0)]
    generate: usize,

    /// Generated lines leave their game 1 to this many empties before
    /// the exact labels start.
    #[arg(long, value_name = "N", default_value_t = 10)]
    reach: u32,

    /// The seed of every random draw.
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,

    /// Rounds of fitting.
    #[arg(long, value_name = "N", default_value_t = 40)]
    epochs: usize,

    /// A phase also learns from positions up to this many empties away.
    #[arg(long, value_name = "N", default_value_t = 2)]
    window: u32,

    /// The fit's weight of the squared weights beside the squared errors
    /// (discs²): more keeps rarely seen pattern indices nearer 0.
    #[arg(long, value_name = "X", default_value_t = 2.0)]
    ridge: f64,

    /// Label the positions before the exact ones by a search this many
    /// moves deep with --label-weights (without it, each takes the exact
    /// value later on its line).
    #[arg(long, value_name = "D", requires = "label_weights",
          value_parser = clap::value_parser!(u32).range(1..=20))]
    search_depth: Option<u32>,

    /// The weights the --search-depth labels are searched with (a file
    /// `kifu train-eval` wrote, for instance the built-in one's recipe
    /// run first).
    #[arg(long, value_name = "FILE", requires = "search_depth")]
    label_weights: Option<PathBuf>,

    /// The share (percent) of the search's estimate in a --search-depth
    /// label, the rest the exact value later on the line.
    #[arg(long, value_name = "PCT", default_value_t = 100, requires = "search_depth",
          value_parser = clap::value_parser!(u8).range(0..=100))]
    search_share: u8,

    /// Search only the positions with at least this many empty squares
    /// (the rest before the exact ones keep the exact value later on
    /// their line).
    #[arg(long, value_name = "N", default_value_t = 0, requires = "search_depth")]
    search_from: u32,

    /// Each labelling solver's transposition table, in MiB.
    #[arg(long, value_name = "MIB", default_value_t = 16)]
    hash: usize,

    /// Keep the labels in this file and read them from it when the
    /// inputs and the labelling parameters are the same.
    #[arg(long, value_name = "FILE")]
    labels_cache: Option<PathBuf>,

    /// Measure the fitted weights (and the built-in ones) on positions of
    /// these games, solved exactly: games no training input holds.
    #[arg(long, value_name = "FILE")]
    test: Vec<String>,

    /// Positions measured, one a game.
    #[arg(long, value_name = "N", default_value_t = 200)]
    test_positions: usize,

    /// The measured positions' empty squares.
    #[arg(long, value_name = "A..B", default_value = "20..24")]
    test_empties: String,

    /// Measure on the positions of this CSV instead (as --test-out writes
    /// it: a position and its exact value a row), solved before.
    #[arg(long, value_name = "FILE", conflicts_with = "test")]
    test_values: Option<PathBuf>,

    /// Write the measured positions as CSV (position, empties, exact
    /// value, the fitted estimate in discs), to measure other
    /// evaluations on the same positions.
    #[arg(long, value_name = "FILE")]
    test_out: Option<PathBuf>,

    #[command(flatten)]
    input: InputArgs,
}

pub fn run(args: Args) -> Result<Outcome> {
    let empties: Empties = args.empties.parse()?;
    let test_empties: Empties = args.test_empties.parse()?;
    let mut outputs = vec![Target::File(&args.output)];
    for path in [&args.manifest, &args.test_out, &args.labels_cache]
        .into_iter()
        .flatten()
    {
        outputs.push(Target::File(path));
    }
    let mut inputs = args.input.files();
    inputs.extend(args.test.iter().cloned());
    inputs.extend(
        args.label_weights
            .iter()
            .map(|p| p.to_string_lossy().into_owned()),
    );
    output::refuse_inputs_as_outputs(&inputs, &outputs)?;
    let quiet = args.input.quiet;
    let say = |text: String| {
        if !quiet {
            eprintln!("kifu: {text}");
        }
    };
    let start = Instant::now();
    // The weights a searched label comes from, read before any work.
    let label_weights = match &args.label_weights {
        Some(path) => {
            let (weights, data) = super::io::read_weights(path)?;
            Some((weights, FileEntry::of(&path.to_string_lossy(), &data)))
        }
        None => None,
    };

    let (mut lines, totals) = read_lines(&args.input)?;
    if lines.is_empty() {
        bail!("no complete game to train on");
    }
    let games_read = lines.len();
    if args.games > 0 && args.games < lines.len() {
        lines = draw(lines, args.games, args.seed);
    }
    let generated = label::deviations(
        &lines,
        args.generate,
        args.seed,
        args.exact_empties,
        args.reach,
    );
    let options = LabelOptions {
        exact_empties: args.exact_empties,
        min_empties: u32::from(empties.min),
        max_empties: u32::from(empties.max),
        hash_bytes: args.hash << 20,
    };
    let input_entries = file_entries(&args.input.files())?;
    let key = cache_key(&input_entries, &args, &options);
    let cached = args
        .labels_cache
        .as_deref()
        .and_then(|p| read_labels(p, &key));
    let mut labelled = match cached {
        Some(l) => {
            say(format!(
                "{} read from the labels cache",
                report::counted(l.len() as u64, "label")
            ));
            l
        }
        None => {
            let all: Vec<Line> = lines.iter().chain(&generated).cloned().collect();
            say(format!(
                "labelling {} ({} and {} generated), exact from {} empties",
                report::counted(all.len() as u64, "line"),
                report::games(lines.len() as u64),
                generated.len(),
                args.exact_empties
            ));
            let progress = Twentieths::new(all.len(), "lines labelled", quiet, start);
            let l = label::label(&all, &options, &|done| progress.heard(done));
            if let Some(p) = &args.labels_cache {
                write_labels(p, &key, &l)?;
            }
            l
        }
    };
    let searched = match (&label_weights, args.search_depth) {
        (Some((weights, entry)), Some(depth)) => {
            say(format!(
                "labelling the positions before the exact ones by a depth-{depth} search of {}",
                entry.path
            ));
            let progress = Twentieths::new(labelled.len(), "positions searched", quiet, start);
            label::relabel_by_search(
                &mut labelled,
                weights,
                depth,
                args.search_share,
                args.search_from,
                args.hash << 20,
                &|done| progress.heard(done),
            )
        }
        _ => 0,
    };
    let exact = labelled.iter().filter(|l| l.exact).count();
    let samples: Vec<Sample> = labelled.iter().map(|l| l.sample).collect();
    if samples.is_empty() {
        bail!("no position with the wanted empty squares");
    }
    say(format!(
        "training on {} ({exact} exact, {}) in {:.0} s",
        report::counted(samples.len() as u64, "position"),
        if searched > 0 {
            format!("{searched} searched")
        } else {
            format!("{} propagated", samples.len() - exact)
        },
        start.elapsed().as_secs_f64()
    ));
    let fit = FitOptions {
        epochs: args.epochs,
        window: args.window,
        ridge: args.ridge,
    };
    let mut rmse = Vec::new();
    let weights = train(&samples, &fit, |epoch, e| {
        rmse.push(e);
        if !quiet {
            eprintln!("kifu: round {}: error {e:.3} discs", epoch + 1);
        }
    });
    let packed = weights.to_compressed()?;
    let mut file = AtomicFile::create(&args.output)?;
    file.write_all(&packed)?;
    file.commit()?;
    say(format!(
        "{} written ({} bytes) in {:.0} s",
        args.output.display(),
        packed.len(),
        start.elapsed().as_secs_f64()
    ));

    let measured = if args.test.is_empty() && args.test_values.is_none() {
        None
    } else {
        Some(measure(&args, test_empties, &weights, &say)?)
    };

    if let Some(path) = &args.manifest {
        let manifest = Manifest {
            about: "How kifu's evaluation weights were made: `kifu train-eval` with these \
                    inputs and parameters writes a file of this SHA-256 (src/eval/mod.rs \
                    documents the labels)."
                .to_string(),
            command: std::env::args().skip(1).collect(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            inputs: input_entries,
            parameters: Parameters {
                exact_empties: args.exact_empties,
                empties: [u32::from(empties.min), u32::from(empties.max)],
                generated: args.generate,
                reach: args.reach,
                search_depth: args.search_depth,
                search_share: args.search_depth.map(|_| args.search_share),
                search_from: (args.search_depth.is_some() && args.search_from > 0)
                    .then_some(args.search_from),
                seed: args.seed,
                epochs: args.epochs,
                window: args.window,
                ridge: args.ridge,
                phases: patterns::PHASES,
                phase_span: patterns::PHASE_SPAN,
                patterns: patterns::NAMES.map(String::from).to_vec(),
            },
            labels: LabelCounts {
                games: lines.len(),
                generated_lines: generated.len(),
                exact,
                propagated: samples.len() - exact - searched,
                searched,
                method: label_method(&args),
            },
            fit_rmse: [
                rmse.first().copied().unwrap_or(0.0),
                rmse.last().copied().unwrap_or(0.0),
            ],
            measured,
            label_weights: label_weights.map(|(_, entry)| entry),
            weights: FileEntry::of(&args.output.to_string_lossy(), &packed),
        };
        let mut file = AtomicFile::create(path)?;
        file.write_all(manifest.to_json().as_bytes())?;
        file.commit()?;
    }
    eprintln!(
        "kifu: {} of {games_read} read; {}",
        report::games(lines.len() as u64),
        report::tally_line(&totals)
    );
    Ok(Outcome::Valid)
}

/// Progress told on standard error at each twentieth of a long step
/// (from any thread), unless quiet.
struct Twentieths {
    total: usize,
    step: usize,
    next: std::sync::atomic::AtomicUsize,
    what: &'static str,
    quiet: bool,
    start: Instant,
}

impl Twentieths {
    fn new(total: usize, what: &'static str, quiet: bool, start: Instant) -> Twentieths {
        let step = (total / 20).max(1);
        Twentieths {
            total,
            step,
            next: std::sync::atomic::AtomicUsize::new(step),
            what,
            quiet,
            start,
        }
    }

    /// `done` of the total are done.
    fn heard(&self, done: usize) {
        use std::sync::atomic::Ordering::Relaxed;
        if done >= self.next.load(Relaxed) {
            self.next.fetch_add(self.step, Relaxed);
            if !self.quiet {
                eprintln!(
                    "kifu: {done} of {} {} ({:.0} s)",
                    self.total,
                    self.what,
                    self.start.elapsed().as_secs_f64()
                );
            }
        }
    }
}

/// What the labels are, in words, for the manifest.
fn label_method(args: &Args) -> String {
    let exact = format!(
        "exact: kifu's solver at most {} empties",
        args.exact_empties
    );
    let propagated = format!(
        "the exact value of the first position of the line with at most {} empties (or of its \
         end), seen from the earlier position's side to move",
        args.exact_empties
    );
    let Some(depth) = args.search_depth else {
        return format!("{exact}; propagated: {propagated}");
    };
    let (which, rest) = if args.search_from > 0 {
        (
            format!("positions with at least {} empties", args.search_from),
            format!("; propagated: the others before the exact ones, {propagated}"),
        )
    } else {
        ("before that".to_string(), String::new())
    };
    let search = format!("a depth-{depth} search (careful selectivity) with the label weights");
    if args.search_share == 100 {
        format!("{exact}; searched: {which}, {search}{rest}")
    } else {
        format!(
            "{exact}; searched: {which}, {}% {search} and {}% {propagated}{rest}",
            args.search_share,
            100 - args.search_share
        )
    }
}

/// Every complete game of the inputs as a line of positions.
fn read_lines(input: &InputArgs) -> Result<(Vec<Line>, super::run::Totals)> {
    let selection = input.selection(false)?;
    let mut lines: Vec<Line> = Vec::new();
    let job = &mut Replayed {
        options: input.options(),
        selection: &selection,
        unique: None,
        work: |g: &Replay<'_>| Out {
            item: game_line(g),
            notes: Vec::new(),
        },
        sink: |line: Line| {
            lines.push(line);
            Ok(())
        },
    };
    let totals = run_inputs(input, job)?;
    Ok((lines, totals))
}

/// `count` of `lines` drawn by `seed`, in their order.
fn draw(lines: Vec<Line>, count: usize, seed: u64) -> Vec<Line> {
    let mut order: Vec<usize> = (0..lines.len()).collect();
    let mut rng = label::Seeded::new(seed, u64::MAX - 1);
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let mut keep = vec![false; lines.len()];
    for &i in &order[..count] {
        keep[i] = true;
    }
    lines
        .into_iter()
        .zip(keep)
        .filter_map(|(l, k)| k.then_some(l))
        .collect()
}

/// The positions of one complete game, each before its move, then the
/// last.
fn game_line(g: &Replay<'_>) -> Option<Line> {
    if g.report.status() != Status::Complete {
        return None;
    }
    let mut out = Vec::with_capacity(61);
    let mut pos = g.record.start;
    for turn in g.record.plies(g.report) {
        if !turn.legal {
            return None;
        }
        if turn.pass_before {
            pos.pass();
        }
        match turn.token {
            Token::Move(Move::Play(square)) => {
                out.push(pos);
                pos.play(square).ok()?;
            }
            Token::Move(Move::Pass) => pos.pass(),
            Token::Unreadable => return None,
        }
    }
    if !pos.is_game_over() {
        return None;
    }
    out.push(pos);
    Some(out)
}

/// Each file's path, size and SHA-256.
fn file_entries(files: &[String]) -> Result<Vec<FileEntry>> {
    files
        .iter()
        .map(|f| {
            if f == "-" {
                bail!(
                    "train-eval names its inputs in the manifest: give files, not standard input"
                );
            }
            let data = std::fs::read(f).with_context(|| format!("reading {f}"))?;
            Ok(FileEntry::of(f, &data))
        })
        .collect()
}

/// What the labels depend on, as a digest: a cache made under another
/// key is not read.
fn cache_key(inputs: &[FileEntry], args: &Args, options: &LabelOptions) -> String {
    let mut text = String::from("kifu-labels-1\n");
    for i in inputs {
        text.push_str(&i.sha256);
        text.push('\n');
    }
    text.push_str(&format!(
        "{:?} {:?} {} {} {} {} {}\n",
        args.input.filter,
        args.input.source.from,
        args.games,
        args.generate,
        args.reach,
        args.seed,
        options.exact_empties
    ));
    text.push_str(&format!(
        "{} {}\n",
        options.min_empties, options.max_empties
    ));
    kifu::eval::sha256::hex(text.as_bytes())
}

/// A labels cache: the key's 64 digits, a line break, then 18 bytes a
/// label (the two bitboards little-endian, the score, exact or not).
fn write_labels(path: &Path, key: &str, labels: &[Labelled]) -> Result<()> {
    let mut out = Vec::with_capacity(65 + labels.len() * 18);
    out.extend_from_slice(key.as_bytes());
    out.push(b'\n');
    for l in labels {
        out.extend_from_slice(&l.sample.player.to_le_bytes());
        out.extend_from_slice(&l.sample.opponent.to_le_bytes());
        out.push(l.sample.score as u8);
        out.push(u8::from(l.exact));
    }
    let mut file = AtomicFile::create(path)?;
    file.write_all(&out)?;
    file.commit()?;
    Ok(())
}

/// Reads [`write_labels`]'s file if it was made under `key`.
fn read_labels(path: &Path, key: &str) -> Option<Vec<Labelled>> {
    let data = std::fs::read(path).ok()?;
    let rest = data.strip_prefix(key.as_bytes())?.strip_prefix(b"\n")?;
    if rest.len() % 18 != 0 {
        return None;
    }
    // A file damaged or of another make is refused whole (the labels are
    // made again): each record is two bitboards without a common square,
    // a score and a flag.
    rest.chunks_exact(18)
        .map(|c| {
            let (player, c) = c.split_first_chunk::<8>()?;
            let (opponent, c) = c.split_first_chunk::<8>()?;
            let &[score, exact] = c else { return None };
            let (player, opponent) = (u64::from_le_bytes(*player), u64::from_le_bytes(*opponent));
            (player & opponent == 0).then_some(Labelled {
                sample: Sample {
                    player,
                    opponent,
                    score: score as i8,
                },
                exact: exact != 0,
            })
        })
        .collect()
}

/// The positions and exact values of a CSV as `--test-out` writes it.
fn read_values(path: &Path) -> Result<(Vec<Position>, Vec<i32>)> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut positions = Vec::new();
    let mut values = Vec::new();
    for (n, line) in text.lines().enumerate().skip(1) {
        let fields: Vec<&str> = line.split(',').collect();
        let (Some(p), Some(v)) = (fields.first(), fields.get(2)) else {
            bail!(
                "{}:{}: not a position,empties,exact row",
                path.display(),
                n + 1
            );
        };
        positions.push(
            p.parse::<Position>()
                .with_context(|| format!("{}:{}", path.display(), n + 1))?,
        );
        values.push(
            v.parse::<i32>()
                .with_context(|| format!("{}:{}", path.display(), n + 1))?,
        );
    }
    Ok((positions, values))
}

/// The mean absolute error of `weights` (and of the built-in weights,
/// printed beside it) on positions of the --test games, solved exactly.
fn measure(
    args: &Args,
    empties: Empties,
    weights: &Weights,
    say: &dyn Fn(String),
) -> Result<Measurement> {
    let (positions, values, inputs) = match &args.test_values {
        Some(path) => {
            let (p, v) = read_values(path)?;
            (p, v, file_entries(&[path.to_string_lossy().into_owned()])?)
        }
        None => {
            let mut input = args.input.clone();
            input.files = args.test.clone();
            let (lines, _) = read_lines(&input)?;
            let positions: Vec<Position> = label::draw_positions(
                &lines,
                args.test_positions,
                args.seed,
                u32::from(empties.min),
                u32::from(empties.max),
            );
            if positions.is_empty() {
                bail!("no position to measure in the --test games");
            }
            say(format!(
                "solving {} of the --test games",
                report::counted(positions.len() as u64, "position")
            ));
            let values = label::solve_all(&positions, args.hash << 20);
            (positions, values, file_entries(&args.test)?)
        }
    };
    let samples: Vec<Sample> = positions
        .iter()
        .zip(&values)
        .map(|(p, &v)| {
            let (player, opponent) = p.relative();
            Sample {
                player,
                opponent,
                score: v as i8,
            }
        })
        .collect();
    let mae = |w: &Weights| {
        let e = errors(w, &samples);
        e.iter().map(|x| x.0).sum::<f64>() / samples.len() as f64
    };
    let new = mae(weights);
    say(format!(
        "mean absolute error on {} positions: {new:.2} discs",
        samples.len()
    ));
    if let Some(b) = Weights::builtin() {
        say(format!("the built-in weights: {:.2} discs", mae(b)));
    }
    if let Some(path) = &args.test_out {
        let mut text = String::from("position,empties,exact,estimate\n");
        for (p, s) in positions.iter().zip(&samples) {
            let estimate = f64::from(weights.evaluate(s.player, s.opponent)) / f64::from(SCALE);
            text.push_str(&format!(
                "{p},{},{},{estimate:.2}\n",
                p.board().empty().count(),
                s.score
            ));
        }
        let mut file = AtomicFile::create(path)?;
        file.write_all(text.as_bytes())?;
        file.commit()?;
    }
    let (low, high) = samples.iter().fold((64, 0), |(l, h), s| {
        (l.min(s.empties()), h.max(s.empties()))
    });
    Ok(Measurement {
        inputs,
        positions: samples.len(),
        empties: [low, high],
        seed: args.seed,
        mean_absolute_error: new,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_label_cache_round_trips_and_a_damaged_one_is_refused() {
        let dir = std::env::temp_dir().join(format!("kifu-labels-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("labels.bin");
        let labels = vec![Labelled {
            sample: Sample {
                player: 0x0000_0008_1000_0000,
                opponent: 0x0000_0010_0800_0000,
                score: -6,
            },
            exact: true,
        }];
        write_labels(&path, "key", &labels).unwrap();
        let back = read_labels(&path, "key").unwrap();
        assert_eq!(back.len(), 1);
        assert_eq!(
            (
                back[0].sample.player,
                back[0].sample.opponent,
                back[0].sample.score,
                back[0].exact
            ),
            (0x0000_0008_1000_0000, 0x0000_0010_0800_0000, -6, true)
        );
        assert!(read_labels(&path, "other key").is_none());
        // Two discs on one square: not a position, so the whole file is
        // refused and the labels made again.
        let mut bytes = std::fs::read(&path).unwrap();
        let at = "key\n".len() + 8;
        bytes[at..at + 8].copy_from_slice(&0x0000_0008_0000_0000u64.to_le_bytes());
        std::fs::write(&path, &bytes).unwrap();
        assert!(read_labels(&path, "key").is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
