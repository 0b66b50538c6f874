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

/// The cells a row of `solve` and `eval` starts with, in every format:
/// where the position came from, the position, its empty squares and the
/// side to move.
#[derive(serde::Serialize)]
pub struct Where<'a> {
    pub source: &'a str,
    pub position: String,
    pub empties: u32,
    pub side: kifu::Color,
}

impl Where<'_> {
    /// The cells of `item`.
    pub fn of(item: &Item) -> Where<'_> {
        let pos = &item.position;
        Where {
            source: item.source.as_deref().unwrap_or(""),
            position: pos.to_string(),
            empties: pos.board().empty().count(),
            side: pos.side_to_move(),
        }
    }

    /// Its CSV cells, in order.
    pub fn cells(&self) -> Vec<String> {
        vec![
            self.source.to_owned(),
            self.position.clone(),
            self.empties.to_string(),
            self.side.name().to_owned(),
        ]
    }
}

/// Every move's value or estimate, `(move, value)` pairs, as JSON lists
/// them.
pub fn json_moves(moves: impl Iterator<Item = (kifu::Move, i32)>) -> Vec<JsonMove> {
    moves
        .map(|(mv, value)| JsonMove {
            mv: mv.to_string(),
            value,
        })
        .collect()
}

/// The moves of `moves` (`(move, value)` pairs) whose value is `top`, by
/// square (a pass last).
pub fn best_by_square(moves: impl Iterator<Item = (kifu::Move, i32)>, top: i32) -> Vec<kifu::Move> {
    let mut best: Vec<kifu::Move> = moves
        .filter(|&(_, value)| value == top)
        .map(|(mv, _)| mv)
        .collect();
    best.sort_by_key(|m| m.slot());
    best
}

/// The CSV header line: `header`, then `moves` when every move is listed.
pub fn csv_header(out: &mut impl io::Write, header: &str, all_moves: bool) -> io::Result<()> {
    let moves = if all_moves { ",moves" } else { "" };
    writeln!(out, "{header}{moves}")
}

/// `row` as one line of JSON.
pub fn json_line(out: &mut impl io::Write, row: &impl serde::Serialize) -> Result<()> {
    serde_json::to_writer(&mut *out, row)?;
    writeln!(out)?;
    Ok(())
}

/// `d3:+4 c4:+2 …`, with `~` before each value when `mark` (estimates in
/// a table).
pub fn scored(moves: impl Iterator<Item = (kifu::Move, i32)>, mark: bool) -> String {
    let words: Vec<String> = moves
        .map(|(mv, value)| format!("{mv}:{}{value:+}", if mark { "~" } else { "" }))
        .collect();
    words.join(" ")
}

/// Each move's name (`d3`, `pass`).
pub fn names(moves: &[kifu::Move]) -> Vec<String> {
    moves.iter().map(ToString::to_string).collect()
}
