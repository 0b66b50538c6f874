//! `kifu openings`: the table of opening names kifu classifies games by.

use std::io::{self, Write};

use anyhow::Result;
use kifu::{Opening, Openings};

use super::shape::{csv_field, Shape};
use super::Outcome;

/// Print the table of named openings: name, moves from the start, other
/// names.
///
/// A game's opening is the entry with the most moves whose position the
/// game reaches after as many moves, turned or mirrored or not, whatever
/// the move order. The name is what `--opening` and `stats --by opening`
/// match.
///
/// Examples:
///   kifu openings
///   kifu openings --name rose
///   kifu openings --format csv > openings.csv
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// Only the openings whose name or another name contains TEXT
    /// (case-insensitive).
    #[arg(long, value_name = "TEXT")]
    name: Option<String>,

    /// An aligned table, CSV (`name,moves,aliases`), or JSON Lines.
    #[arg(long, value_enum, default_value_t = Shape::Table)]
    format: Shape,
}

fn moves(opening: &Opening) -> String {
    opening.moves().iter().map(ToString::to_string).collect()
}

pub fn run(args: Args) -> Result<Outcome> {
    let needle = args.name.as_deref().map(str::to_lowercase);
    let chosen: Vec<&Opening> = Openings::builtin()
        .entries()
        .iter()
        .filter(|o| {
            needle.as_deref().is_none_or(|n| {
                std::iter::once(o.name())
                    .chain(o.aliases().iter().map(String::as_str))
                    .any(|name| name.to_lowercase().contains(n))
            })
        })
        .collect();
    let mut out = io::stdout().lock();
    match args.format {
        Shape::Table => {
            let width = chosen
                .iter()
                .map(|o| o.name().chars().count())
                .chain([4])
                .max()
                .unwrap_or(4);
            let moves_width = chosen
                .iter()
                .map(|o| o.moves().len() * 2)
                .chain([5])
                .max()
                .unwrap_or(5);
            writeln!(
                out,
                "{:width$}  {:moves_width$}  other names",
                "name", "moves"
            )?;
            for o in &chosen {
                let line = format!(
                    "{:width$}  {:moves_width$}  {}",
                    o.name(),
                    moves(o),
                    o.aliases().join(", ")
                );
                writeln!(out, "{}", line.trim_end())?;
            }
        }
        Shape::Csv => {
            writeln!(out, "name,moves,aliases")?;
            for o in &chosen {
                writeln!(
                    out,
                    "{},{},{}",
                    csv_field(o.name()),
                    moves(o),
                    csv_field(&o.aliases().join("; "))
                )?;
            }
        }
        Shape::Json => {
            for o in &chosen {
                let object = serde_json::json!({
                    "name": o.name(),
                    "moves": moves(o),
                    "aliases": o.aliases(),
                });
                writeln!(out, "{object}")?;
            }
        }
    }
    out.flush()?;
    Ok(Outcome::Valid)
}
