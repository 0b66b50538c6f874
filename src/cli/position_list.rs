//! Positions as `kifu solve` and `kifu eval` take them: arguments that are
//! a board and side to move or moves from the start, or files of them one
//! a line (OBF lines, boards, move sequences).

use std::io::{self, BufRead};

use anyhow::{bail, Context, Result};
use kifu::{Position, PositionQuery};

use super::Outcome;

/// A position and where it came from.
pub struct Item {
    /// `FILE:LINE`, or `None` for a command-line argument.
    pub source: Option<String>,
    /// How a table names it.
    pub label: String,
    pub position: Position,
}

/// Reads a position as a line of a file or an argument gives it: a board
/// and side to move (OBF's scored moves after a `;` ignored), or moves
/// from the start.
pub fn parse_position(text: &str) -> Result<Position, String> {
    let text = text.split('%').next().unwrap_or_default().trim();
    if text.is_empty() {
        return Err("no position".to_owned());
    }
    let board_like = text.starts_with(['X', 'x', '*', 'O', 'o', '-', '.']);
    let text = if board_like {
        text.split(';').next().unwrap_or_default()
    } else {
        text
    };
    PositionQuery::parse(text)
        .map(|q| *q.target())
        .map_err(|e| e.to_string())
}

/// The positions of every input, in order, each passed through `check`
/// (which may refuse one). An argument that cannot be read is an error
/// (exit 2); a line of a file is reported and skipped, and counted in
/// `bad_lines`.
pub fn gather(
    inputs: &[String],
    check: impl Fn(&Position) -> Result<(), String>,
    bad_lines: &mut u64,
) -> Result<Vec<Item>> {
    let mut items = Vec::new();
    for (n, input) in inputs.iter().enumerate() {
        let is_file = input == "-" || std::path::Path::new(input).is_file();
        if !is_file {
            let position = parse_position(input)
                .map_err(|e| anyhow::anyhow!("position {} ({input:?}): {e}", n + 1))?;
            check(&position).map_err(|e| anyhow::anyhow!("position {} ({input:?}): {e}", n + 1))?;
            let label = if input.len() > 24 {
                format!("#{}", n + 1)
            } else {
                input.clone()
            };
            items.push(Item {
                source: None,
                label,
                position,
            });
            continue;
        }
        let reader: Box<dyn BufRead> = if input == "-" {
            Box::new(io::BufReader::new(io::stdin()))
        } else {
            let file =
                std::fs::File::open(input).with_context(|| format!("cannot read {input}"))?;
            Box::new(io::BufReader::new(file))
        };
        let name = std::path::Path::new(input)
            .file_name()
            .map_or_else(|| input.clone(), |f| f.to_string_lossy().into_owned());
        for (i, line) in reader.lines().enumerate() {
            let line = line.with_context(|| format!("cannot read {input}"))?;
            let body = line.trim();
            if body.is_empty() || body.starts_with(['%', '#']) {
                continue;
            }
            let at = format!("{input}:{}", i + 1);
            match parse_position(body).and_then(|p| check(&p).map(|()| p)) {
                Ok(position) => items.push(Item {
                    source: Some(at),
                    label: format!("{name}:{}", i + 1),
                    position,
                }),
                Err(e) => {
                    eprintln!("kifu: {at}: {e}; skipped");
                    *bad_lines += 1;
                }
            }
        }
    }
    Ok(items)
}

/// `1.2M`, `35k`, `812`.
pub fn count(n: u64) -> String {
    match n {
        0..=9_999 => n.to_string(),
        10_000..=9_999_999 => format!("{}k", n / 1000),
        _ if n < 10_000_000_000 => format!("{:.1}M", n as f64 / 1e6),
        _ => format!("{:.1}G", n as f64 / 1e9),
    }
}

/// One CSV line (no header) of `fields`.
pub fn csv_line(fields: &[String]) -> Result<Vec<u8>> {
    let mut w = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(vec![]);
    w.write_record(fields)?;
    w.into_inner().map_err(|e| anyhow::anyhow!("{e}"))
}

/// What a run over `items` positions ends with: the summary on stderr
/// (`positions solved in …`, unless `quiet` or only one), and the exit
/// status — an error when no line could be read, invalid when some
/// could not.
pub fn finish(
    items: usize,
    done: &str,
    seconds: f64,
    nodes: u64,
    bad_lines: u64,
    quiet: bool,
) -> Result<Outcome> {
    if !quiet && items > 1 {
        eprintln!(
            "{items} positions {done} in {seconds:.2} s, {} nodes ({:.1} M nodes/s)",
            count(nodes),
            nodes as f64 / seconds.max(1e-9) / 1e6
        );
    }
    if bad_lines > 0 {
        if items == 0 {
            bail!("no position could be read");
        }
        return Ok(Outcome::Invalid);
    }
    Ok(Outcome::Valid)
}

/// One move's value or estimate in JSON (`{"move": "d3", "value": 4}`).
#[derive(serde::Serialize)]
pub struct JsonMove {
    #[serde(rename = "move")]
    pub mv: String,
    pub value: i32,
}

/// Each move's name (`d3`, `pass`).
pub fn names(moves: &[kifu::Move]) -> Vec<String> {
    moves.iter().map(ToString::to_string).collect()
}
