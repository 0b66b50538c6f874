//! `kifu formats`: every format kifu reads and writes, as its table says.

use std::io::Write;

use anyhow::Result;
use kifu::formats::{Feature, FORMATS};

use super::Outcome;

/// List every format: read or write, file extensions, and what a written
/// game loses.
///
/// The names are those --from and --to take; a compressed input (.gz,
/// .bz2, .xz, .zst) holds any of them.
///
/// Example:
///   kifu formats
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {}

/// The listing, one block per format.
pub fn listing() -> String {
    let mut out = String::new();
    for info in &FORMATS {
        let access = match (info.readable, info.writable) {
            (true, true) => "read, write",
            (true, false) => "read",
            _ => "write",
        };
        let extensions: Vec<String> = info.extensions.iter().map(|e| format!(".{e}")).collect();
        out.push_str(&format!(
            "{:<11} {}\n  {access}; {}",
            info.name,
            info.summary,
            extensions.join(" ")
        ));
        if !info.aliases.is_empty() {
            out.push_str(&format!("; also named {}", info.aliases.join(", ")));
        }
        out.push('\n');
        if info.writable {
            let lost: Vec<&str> = Feature::ALL
                .into_iter()
                .filter(|f| info.loses.contains(*f))
                .map(Feature::loss)
                .chain(info.checks.iter().map(|c| c.loss))
                .collect();
            if lost.is_empty() {
                out.push_str("  keeps everything a record holds\n");
            } else {
                out.push_str(&wrap(
                    &format!("cannot keep: {}", lost.join("; ")),
                    78,
                    "  ",
                ));
            }
        }
    }
    out
}

/// `text` in lines of at most `width` characters (words kept whole), each
/// after `indent`.
fn wrap(text: &str, width: usize, indent: &str) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty()
            && indent.len() + line.chars().count() + 1 + word.chars().count() > width
        {
            out.push_str(indent);
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        out.push_str(indent);
        out.push_str(&line);
        out.push('\n');
    }
    out
}

pub fn run(_args: Args) -> Result<Outcome> {
    let mut out = std::io::stdout().lock();
    out.write_all(listing().as_bytes())?;
    out.flush()?;
    Ok(Outcome::Valid)
}
