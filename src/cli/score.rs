//! `kifu score`: one line per game with the final score.

use std::io::{self, BufWriter, Write};

use anyhow::Result;
use kifu::batch::Seen;
use kifu::formats::jsonl::GameJson;
use kifu::formats::{text_format, Format};
use kifu::record::row::Game;
use kifu::Status;
use unicode_width::UnicodeWidthChar;

use super::io::InputArgs;
use super::run::{run_inputs, Out, Replay, Replayed};
use super::{report, Outcome};

/// Print the final score of every game.
///
/// One line per game: players, final discs, score with empties to the
/// winner, winner, status, and a note where the recorded result disagrees
/// with the replay.
///
/// Examples:
///   kifu score games.txt
///   kifu score WTH_2004.wtb --format csv > 2004.csv
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// Output: an aligned table, the CSV table, or JSON Lines.
    #[arg(long, value_enum, default_value_t = ScoreFormat::Table)]
    format: ScoreFormat,

    /// Leave out games whose moves repeat an earlier game's, turned or
    /// mirrored or not (the first is kept).
    #[arg(long, conflicts_with = "shard")]
    unique: bool,

    #[command(flatten)]
    input: InputArgs,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum ScoreFormat {
    Table,
    Csv,
    Json,
}

/// `text` in exactly `width` terminal columns: cut, or padded with
/// spaces. Wide characters (CJK) take two columns.
fn pad(text: &str, width: usize) -> String {
    let mut out = String::with_capacity(width);
    let mut used = 0;
    for c in text.chars() {
        let w = c.width().unwrap_or(0);
        if used + w > width {
            break;
        }
        out.push(c);
        used += w;
    }
    out.push_str(&" ".repeat(width - used));
    out
}

/// The note for a row: a disagreement, the recorded result of an
/// incomplete game, or the error of an invalid one.
pub fn note(row: &Game<'_>) -> String {
    match row.status() {
        Status::Complete => match (row.disagrees(), row.record.result) {
            (Some(true), Some(result)) => format!("recorded {result} differs"),
            _ => String::new(),
        },
        Status::Incomplete => row
            .record
            .result
            .map(|r| format!("recorded {r}"))
            .unwrap_or_default(),
        Status::Invalid => match (row.error_move(), row.error()) {
            (Some(n), Some(e)) => format!("move {n}: {e}"),
            (None, Some(e)) => e,
            _ => String::new(),
        },
    }
}

fn table_line(row: &Game<'_>, source_width: usize) -> String {
    let tags = &row.record.tags;
    let finish = &row.report.finish;
    let discs = format!("{}-{}", finish.score.black_discs, finish.score.white_discs);
    let score = row
        .scores()
        .map_or_else(|| "-".to_owned(), |(b, w)| format!("{b}-{w}"));
    let mut line = String::new();
    if source_width > 0 {
        line.push_str(&pad(row.source, source_width));
        line.push_str("  ");
    }
    line.push_str(&format!(
        "{:>6}  {}  {}  {:>5}  {:>5}  {}  {}  {}",
        row.record.origin.index,
        pad(tags.black.as_deref().unwrap_or("-"), 20),
        pad(tags.white.as_deref().unwrap_or("-"), 20),
        discs,
        score,
        pad(row.winner().map_or("-", |w| w.name()), 6),
        pad(row.status().name(), 10),
        note(row)
    ));
    let trimmed = line.trim_end().len();
    line.truncate(trimmed);
    line.push('\n');
    line
}

pub fn run(args: Args) -> Result<Outcome> {
    let files = args.input.files();
    // With several inputs a first column names the file.
    let source_width = if files.len() > 1 {
        files
            .iter()
            .map(|f| unicode_width::UnicodeWidthStr::width(f.as_str()))
            .max()
            .unwrap_or(0)
            .max(4)
    } else {
        0
    };
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let csv = text_format(Format::Csv).ok_or_else(|| anyhow::anyhow!("no CSV writer"))?;
    match args.format {
        ScoreFormat::Table => {
            let mut head = String::new();
            if source_width > 0 {
                head.push_str(&pad("file", source_width));
                head.push_str("  ");
            }
            head.push_str(&format!(
                "{:>6}  {}  {}  {:>5}  {:>5}  {}  {}  note",
                "game",
                pad("black", 20),
                pad("white", 20),
                "discs",
                "score",
                pad("winner", 6),
                pad("status", 10)
            ));
            writeln!(out, "{head}")?;
        }
        ScoreFormat::Csv => {
            let mut header = Vec::new();
            csv.header(&mut header);
            out.write_all(&header)?;
        }
        ScoreFormat::Json => {}
    }
    let format = args.format;
    // The CSV and JSON rows carry the table's `opening` column.
    let selection = args.input.selection(format != ScoreFormat::Table)?;
    let job = &mut Replayed {
        options: args.input.options().reading_ahead(),
        selection: &selection,
        unique: args.unique.then(Seen::default),
        work: |g: &Replay<'_>| {
            let row = Game::new(g.source, g.record, g.report).with_opening(g.found.opening);
            let mut bytes = Vec::new();
            match format {
                ScoreFormat::Table => {
                    bytes.extend_from_slice(table_line(&row, source_width).as_bytes());
                }
                ScoreFormat::Csv => csv.write(&row, &mut bytes),
                ScoreFormat::Json => {
                    let mut json = GameJson::from_row(&row);
                    json.plies.clear();
                    json.final_board.clear();
                    if serde_json::to_writer(&mut bytes, &json).is_ok() {
                        bytes.push(b'\n');
                    }
                }
            }
            Out {
                item: Some(bytes),
                notes: Vec::new(),
            }
        },
        sink: |bytes: Vec<u8>| out.write_all(&bytes),
    };
    let totals = run_inputs(&args.input, job)?;
    out.flush()?;
    eprintln!("kifu: {}", report::tally_line(&totals));
    Ok(totals.outcome())
}
