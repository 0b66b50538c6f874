//! `kifu split`: games into a training and a validation part, without
//! leakage.

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};
use kifu::batch::Seen;
use kifu::formats::parquet::TableWriter;
use kifu::formats::{token_npy, Format, GameWriter, TextWriter, WriteError};
use kifu::record::row::Game;
use kifu::record::select::duplicate_key;

use super::convert::Converting;
use super::io::{format_of_output, format_parser, InputArgs};
use super::output::{self, AtomicFile, Output, Target};
use super::run::run_inputs;
use super::{report, Outcome};

/// Split games into two parts (training and validation) without leakage.
///
/// Every game goes to one part, chosen from its moves under the 8
/// symmetries and the seed: all the symmetric copies of a game (and its
/// repeats) land in the same part, so no game of one part is a turned or
/// mirrored game of the other. The same seed gives the same split, on any
/// machine, whatever the order of the inputs. The games found more than
/// once are counted and said (--unique leaves them out instead).
///
/// Both parts are written in one format: --to, else the first -o's
/// extension (text formats, Parquet, tokens).
///
/// Examples:
///   kifu split games.txt --ratio 0.8 -o train.txt -o valid.txt
///   kifu split synthetic.parquet --ratio 0.9 --seed 7 -o train.npy -o valid.npy
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// The share of games that go to the first output, 0 to 1.
    #[arg(long, value_name = "R", value_parser = parse_ratio)]
    ratio: f64,

    /// The seed of the split (the same seed, the same split).
    #[arg(long, value_name = "S", default_value_t = 0)]
    seed: u64,

    /// The two outputs: the first part, then the second.
    #[arg(long, short = 'o', value_name = "OUT", num_args = 1, required = true)]
    output: Vec<PathBuf>,

    /// Output format (default: the one the first -o's extension names).
    #[arg(long, short = 't', value_name = "FORMAT", value_parser = format_parser(true))]
    to: Option<Format>,

    /// Leave out games whose moves repeat an earlier game's, turned or
    /// mirrored or not (the first is kept).
    #[arg(long, conflicts_with = "shard")]
    unique: bool,

    #[command(flatten)]
    input: InputArgs,
}

fn parse_ratio(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(r) if (0.0..=1.0).contains(&r) => Ok(r),
        _ => Err(format!(
            "{text:?} is not a ratio: give a number from 0 to 1, such as 0.8"
        )),
    }
}

/// The part of a game with duplicate key `key`: a hash of the key and the
/// seed (SplitMix64's finaliser), below `ratio` of the range for the
/// first part.
fn first_part(key: u128, seed: u64, ratio: f64) -> bool {
    let mut z = (key as u64) ^ ((key >> 64) as u64).rotate_left(32) ^ seed;
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    // The top 53 bits as a fraction of 1.
    ((z >> 11) as f64 / (1u64 << 53) as f64) < ratio
}

/// One part's writer, owning its output.
enum Part {
    Text(TextWriter<Output>),
    Parquet(Box<TableWriter<Output>>),
    Tokens(token_npy::Writer<AtomicFile>),
}

impl Part {
    fn open(to: Format, path: &Path) -> Result<Part> {
        Ok(match to {
            Format::Parquet => {
                Part::Parquet(Box::new(TableWriter::new(Output::open(Some(path))?)?))
            }
            Format::Tokens => {
                let file = AtomicFile::create(path)?;
                if !file.seekable() {
                    bail!(
                        "-o {}: tokens need a file (the count goes into the header last)",
                        path.display()
                    );
                }
                Part::Tokens(token_npy::Writer::new(file)?)
            }
            _ => match TextWriter::new(to, Output::open(Some(path))?)? {
                Some(writer) => Part::Text(writer),
                None => bail!("split writes text formats, Parquet or tokens, not {to}"),
            },
        })
    }

    fn writer(&mut self) -> &mut dyn GameWriter {
        match self {
            Part::Text(w) => w,
            Part::Parquet(w) => w.as_mut(),
            Part::Tokens(w) => w,
        }
    }

    fn commit(self) -> Result<()> {
        match self {
            Part::Text(w) => w.into_inner().commit(),
            Part::Parquet(w) => match w.into_inner()? {
                Some(out) => out.commit(),
                None => Ok(()),
            },
            Part::Tokens(w) => w.into_inner().commit(),
        }
    }
}

/// The two parts as one writer: each game to its part.
struct Splitter {
    parts: [Part; 2],
    seed: u64,
    ratio: f64,
    seen: Seen,
    duplicates: u64,
    written: [u64; 2],
}

impl GameWriter for Splitter {
    fn write(&mut self, game: &Game<'_>) -> Result<(), WriteError> {
        let key = duplicate_key(game.record);
        let part = usize::from(!first_part(key, self.seed, self.ratio));
        self.parts[part].writer().write(game)?;
        if !self.seen.first(key) {
            self.duplicates += 1;
        }
        self.written[part] += 1;
        Ok(())
    }

    fn finish(&mut self) -> std::io::Result<()> {
        for part in &mut self.parts {
            // A Parquet part writes its footer as it gives its output back
            // (`Part::commit`).
            if !matches!(part, Part::Parquet(_)) {
                part.writer().finish()?;
            }
        }
        Ok(())
    }
}

pub fn run(args: Args) -> Result<Outcome> {
    let [train, valid] = &args.output[..] else {
        bail!(
            "-o: give two outputs, the first part then the second (-o TRAIN -o VALID); {} given",
            args.output.len()
        );
    };
    let to = match (args.to, format_of_output(train)) {
        (Some(to), _) | (None, Some(to)) => to,
        (None, None) => bail!(
            "cannot tell the output format: give --to FORMAT, or -o files whose extension names \
             one"
        ),
    };
    if args.to.is_none() && format_of_output(valid).is_some_and(|f| f != to) {
        bail!(
            "-o: {} and {} name two formats: both parts are written in one (give --to)",
            train.display(),
            valid.display()
        );
    }
    if !to.writable() || to == Format::Wthor {
        bail!("split writes text formats, Parquet or tokens, not {to}");
    }
    if train == valid {
        bail!("-o: the two parts must be two files");
    }
    let files = args.input.files();
    output::refuse_inputs_as_outputs(&files, &[Target::File(train), Target::File(valid)])?;
    let mut splitter = Splitter {
        parts: [Part::open(to, train)?, Part::open(to, valid)?],
        seed: args.seed,
        ratio: args.ratio,
        seen: Seen::default(),
        duplicates: 0,
        written: [0; 2],
    };
    let totals = run_inputs(
        &args.input,
        &mut Converting {
            to,
            writer: &mut splitter,
            options: args.input.options(),
            selection: args.input.selection(false)?,
            unique: args.unique.then(Seen::default),
            prepare: None,
        },
    )?;
    splitter.finish()?;
    let Splitter {
        parts,
        written,
        duplicates,
        ..
    } = splitter;
    let [a, b] = parts;
    a.commit()?;
    b.commit()?;
    report::losses(to, &totals);
    eprintln!(
        "kifu: split (ratio {}, seed {}): {} to {}, {} to {}",
        args.ratio,
        args.seed,
        report::counted(written[0], "game"),
        train.display(),
        report::counted(written[1], "game"),
        valid.display(),
    );
    let found = if args.unique {
        totals.duplicates
    } else {
        duplicates
    };
    let what = if args.unique {
        "left out"
    } else {
        "each in the part of the game it repeats"
    };
    eprintln!(
        "kifu: {} found (the same moves as an earlier game under the 8 symmetries), {what}",
        report::counted(found, "duplicate")
    );
    eprintln!("{}", report::summary(&totals));
    Ok(totals.outcome())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ratio_is_kept_and_the_seed_changes_the_split() {
        let keys: Vec<u128> = (0..20_000u128)
            .map(|k| k.wrapping_mul(0x1234_5678_9abc_def1))
            .collect();
        let first = |seed| keys.iter().filter(|&&k| first_part(k, seed, 0.8)).count();
        let share = first(0) as f64 / keys.len() as f64;
        assert!((share - 0.8).abs() < 0.02, "{share}");
        let same = keys
            .iter()
            .filter(|&&k| first_part(k, 1, 0.8) == first_part(k, 2, 0.8))
            .count();
        assert!(same < keys.len());
        assert!(keys.iter().all(|&k| first_part(k, 3, 1.0)));
        assert!(keys.iter().all(|&k| !first_part(k, 3, 0.0)));
    }

    #[test]
    fn ratios_outside_zero_to_one_are_refused() {
        assert_eq!(parse_ratio("0.8"), Ok(0.8));
        assert!(parse_ratio("1.5").is_err());
        assert!(parse_ratio("x").is_err());
    }
}
