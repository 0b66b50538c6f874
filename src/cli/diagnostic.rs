//! Rendering an invalid game as a diagnostic with its source line and a
//! caret under the offending token.

use std::ops::Range;

use codespan_reporting::diagnostic::{Diagnostic, Label};
use codespan_reporting::files::{Error as FilesError, Files};
use codespan_reporting::term::{self, Chars, Config};
use kifu::batch::Flag;
use kifu::{GameError, GameRecord, Span};

/// A single source line that knows its real line number.
struct OneLine<'a> {
    name: &'a str,
    text: &'a str,
    line: u32,
}

impl<'a> Files<'a> for OneLine<'a> {
    type FileId = ();
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, (): ()) -> Result<&'a str, FilesError> {
        Ok(self.name)
    }

    fn source(&'a self, (): ()) -> Result<&'a str, FilesError> {
        Ok(self.text)
    }

    fn line_index(&'a self, (): (), _byte_index: usize) -> Result<usize, FilesError> {
        Ok(0)
    }

    fn line_number(&'a self, (): (), _line_index: usize) -> Result<usize, FilesError> {
        Ok(self.line as usize)
    }

    fn line_range(&'a self, (): (), line_index: usize) -> Result<Range<usize>, FilesError> {
        if line_index == 0 {
            Ok(0..self.text.len())
        } else {
            Err(FilesError::LineTooLarge {
                given: line_index,
                max: 0,
            })
        }
    }
}

/// The headline: `game 3, move 7 (black) d3: flips nothing`.
pub fn headline(flag: &Flag) -> String {
    format!("game {}, {}", flag.index, flag.error)
}

/// Where a game error is, as `file:line:column` or `file: record N, byte B`.
pub fn location(name: &str, flag: &Flag) -> String {
    match flag.span {
        Some(span) if span.line > 0 => format!("{name}:{}:{}", span.line, span.column),
        Some(span) => format!("{name}: record {}, byte {}", flag.index, span.byte),
        None => match flag.line {
            Some(line) => format!("{name}:{line}"),
            None => format!("{name}: record {}", flag.index),
        },
    }
}

/// Renders an error of `record` read from `name`: a `file:line:col:`
/// headline, then the source line with a caret when the text is known;
/// with ANSI colours when `color` is set.
pub fn render(name: &str, record: &GameRecord, error: &GameError, color: bool) -> String {
    let flag = Flag::of(record, error);
    let location = location(name, &flag);
    let headline = headline(&flag);
    let head = if color {
        let bold = anstyle::Style::new().bold();
        format!(
            "{}{location}:{} {headline}\n",
            bold.render(),
            bold.render_reset()
        )
    } else {
        format!("{location}: {headline}\n")
    };
    let Some(snippet) = snippet(name, record, error, color) else {
        return head;
    };
    head + &snippet
}

fn snippet(name: &str, record: &GameRecord, error: &GameError, color: bool) -> Option<String> {
    let Span {
        line, column, len, ..
    } = error.span(record)?;
    // Control characters have no width on a terminal: show them as `?`
    // so that the caret still has something to point at.
    let shown: String = record
        .origin
        .line_text(line)?
        .chars()
        .map(|c| if c.is_control() && c != '\t' { '?' } else { c })
        .collect();
    let text = shown.as_str();
    let start = text
        .char_indices()
        .nth(column.checked_sub(1)? as usize)
        .map_or(text.len(), |(i, _)| i);
    let end = (start + len.max(1) as usize).min(text.len());
    let end = (end..=text.len())
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(text.len());
    let file = OneLine { name, text, line };
    let diagnostic = Diagnostic::error().with_labels(vec![
        Label::primary((), start..end).with_message(error.reason())
    ]);
    let config = Config {
        chars: Chars::ascii(),
        ..Config::default()
    };
    let plain = term::emit_into_string(&config, &file, &diagnostic).ok()?;
    // The first lines repeat the headline's "error:" and our location:
    // keep the source part only, from the first line of the gutter.
    let skip = plain
        .lines()
        .position(|l| l.trim_start().starts_with('|'))?;
    let rendered = if color {
        let mut buffer = term::termcolor::Buffer::ansi();
        term::emit_to_write_style(&mut buffer, &config, &file, &diagnostic).ok()?;
        String::from_utf8(buffer.into_inner()).ok()?
    } else {
        plain
    };
    let body: Vec<&str> = rendered.lines().skip(skip).collect();
    Some(body.join("\n") + "\n")
}
