//! `kifu train-eval`: fit the solver's move-ordering evaluation to the
//! final scores of archived games.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{bail, Result};
use kifu::eval::{train, Sample};
use kifu::ml::positions::Empties;
use kifu::Token;
use kifu::{Move, Status};

use super::io::InputArgs;
use super::output::{self, AtomicFile, Target};
use super::run::{run_inputs, Out, Replay, Replayed};
use super::{report, Outcome};

/// Fit the solver's move-ordering evaluation to archived games.
///
/// Every position of every complete game with the given empty squares,
/// labelled with the game's final score from the side to move, fits the
/// pattern weights by least squares; the weights are written compressed
/// (zstd). The solver orders its moves by them beyond about 14 empty
/// squares: its values are exact with any weights. The crate's file is
/// made by:
///
///   kifu train-eval ../shared/corpus/wthor/WTH_*.wtb \
///     ../shared/corpus/wthor/misc/Logistello_book_1999.wtb -o src/solve/eval.zst
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// The weights file to write.
    #[arg(long, short = 'o', value_name = "OUT")]
    output: PathBuf,

    /// Train on positions with this many empty squares.
    #[arg(long, value_name = "A..B", default_value = "10..40")]
    empties: String,

    /// Rounds of fitting.
    #[arg(long, value_name = "N", default_value_t = 40)]
    epochs: usize,

    #[command(flatten)]
    input: InputArgs,
}

pub fn run(args: Args) -> Result<Outcome> {
    let empties: Empties = args.empties.parse()?;
    output::refuse_inputs_as_outputs(&args.input.files(), &[Target::File(&args.output)])?;
    let selection = args.input.selection(false)?;
    let mut samples: Vec<Sample> = Vec::new();
    let job = &mut Replayed {
        options: args.input.options(),
        selection: &selection,
        unique: None,
        work: |g: &Replay<'_>| Out {
            item: Some(game_samples(g, empties)),
            notes: Vec::new(),
        },
        sink: |mut s: Vec<Sample>| {
            samples.append(&mut s);
            Ok(())
        },
    };
    let totals = run_inputs(&args.input, job)?;
    if samples.is_empty() {
        bail!("no position of a complete game to train on");
    }
    eprintln!(
        "kifu: training on {} from {}",
        report::counted(samples.len() as u64, "position"),
        report::games(totals.tally.complete)
    );
    let raw = train(&samples, args.epochs, |epoch, rmse| {
        if !args.input.quiet {
            eprintln!("kifu: round {}: error {rmse:.2} discs", epoch + 1);
        }
    });
    let packed = zstd::encode_all(&raw[..], 19)?;
    let mut file = AtomicFile::create(&args.output)?;
    file.write_all(&packed)?;
    file.commit()?;
    eprintln!("kifu: {}", report::tally_line(&totals));
    Ok(Outcome::Valid)
}

/// The positions of one complete game with the wanted empties, each with
/// the final score from its side to move.
fn game_samples(g: &Replay<'_>, empties: Empties) -> Vec<Sample> {
    let Some(score) = g
        .report
        .final_score()
        .filter(|_| g.report.status() == Status::Complete)
    else {
        return Vec::new();
    };
    let black = i16::from(score.black_score) - i16::from(score.white_score);
    let mut out = Vec::new();
    let mut pos = g.record.start;
    for turn in g.record.plies(g.report) {
        if !turn.legal {
            break;
        }
        if turn.pass_before {
            pos.pass();
        }
        let n = pos.board().empty().count();
        if empties.contains(n as u8) {
            let (player, opponent) = pos.relative();
            let mine = if pos.side_to_move() == kifu::Color::Black {
                black
            } else {
                -black
            };
            out.push(Sample {
                player,
                opponent,
                score: mine as i8,
            });
        }
        match turn.token {
            Token::Move(Move::Play(square)) => {
                if pos.play(square).is_err() {
                    break;
                }
            }
            Token::Move(Move::Pass) => pos.pass(),
            Token::Unreadable => break,
        }
    }
    out
}
