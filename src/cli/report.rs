//! What commands say on standard error: counts, summaries, losses and
//! notes, worded once for every command.

use kifu::batch::{Flag, Quirked};
use kifu::formats::{Format, Refusal};
use kifu::Quirk;

use super::diagnostic;
use super::run::Totals;

/// `1 game` or `N games`.
pub fn games(n: u64) -> String {
    counted(n, "game")
}

/// `1 player`, `2 players`.
pub fn counted(n: u64, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// `N games read: a complete, b incomplete, c invalid`; with filters or
/// `--unique`, `N games read, M matched (D duplicates left out): …`, the
/// statuses those of the games kept.
pub fn tally_line(totals: &Totals) -> String {
    let t = &totals.tally;
    let mut head = games(totals.read);
    head.push_str(" read");
    if totals.filtered || totals.duplicates > 0 {
        let matched = t.read + totals.duplicates;
        head.push_str(&format!(", {matched} matched"));
    }
    if totals.duplicates > 0 {
        head.push_str(&format!(
            " ({} left out)",
            counted(totals.duplicates, "duplicate")
        ));
    }
    format!(
        "{head}: {} complete, {} incomplete, {} invalid",
        t.complete, t.incomplete, t.invalid
    )
}

/// `N games read[, M matched]: U used, S skipped (i incomplete, v invalid);
/// P positions written[ (D duplicates left out)]`
pub fn positions_line(
    totals: &Totals,
    used: u64,
    incomplete: u64,
    invalid: u64,
    written: u64,
    duplicates: u64,
) -> String {
    let mut head = games(totals.read);
    head.push_str(" read");
    if totals.filtered {
        head.push_str(&format!(", {} matched", totals.tally.read));
    }
    let mut line = format!(
        "{head}: {used} used, {} skipped ({incomplete} incomplete, {invalid} invalid); {} written",
        incomplete + invalid,
        counted(written, "position")
    );
    if duplicates > 0 {
        line.push_str(&format!(" ({} left out)", counted(duplicates, "duplicate")));
    }
    line
}

/// `kifu: 12 games read: 10 complete, 1 incomplete, 1 invalid; 12 written, 0 left out`
pub fn summary(totals: &Totals) -> String {
    let t = &totals.tally;
    format!(
        "kifu: {}; {} written, {} left out",
        tally_line(totals),
        totals.written,
        t.read - totals.written.min(t.read)
    )
}

/// `--shard K/N`: how many of the games in the inputs the shard took.
pub fn shard_line(part: kifu::jobs::Part, read: u64) -> String {
    format!(
        "kifu: shard {part} took {} of the {} in the inputs",
        part.count_of(read),
        games(read)
    )
}

/// One warning per thing the output could not keep.
pub fn losses(to: Format, totals: &Totals) {
    for (what, games) in &totals.losses {
        eprintln!(
            "kifu: warning: {to} cannot keep {what} ({})",
            self::games(*games)
        );
    }
}

/// The notes about one input's oddities (names aside: those are warned
/// about once per run, see [`missing_names`]).
pub fn input_notes(name: &str, quirks: &Quirked) -> Vec<String> {
    [
        Quirk::PaddedWith92,
        Quirk::ScoreOver64,
        Quirk::TheoreticalOver64,
        Quirk::CaseIgnored,
    ]
    .into_iter()
    .filter(|q| quirks.count(*q) > 0)
    .map(|q| {
        format!(
            "kifu: note: {name}: {} {}",
            games(quirks.count(q)),
            q.note()
        )
    })
    .collect()
}

/// The warning about player and tournament numbers missing from the name
/// files, if any.
pub fn missing_names(quirks: &Quirked) -> Option<String> {
    let list = |what: &str, ids: &std::collections::BTreeSet<u16>| {
        if ids.is_empty() {
            return None;
        }
        let first: Vec<String> = ids.iter().take(5).map(|id| format!("#{id}")).collect();
        let more = if ids.len() > 5 { ", …" } else { "" };
        Some(format!(
            "{} ({}{more})",
            counted(ids.len() as u64, &format!("{what} number")),
            first.join(", ")
        ))
    };
    let parts: Vec<String> = [
        list("player", &quirks.players),
        list("tournament", &quirks.tournaments),
    ]
    .into_iter()
    .flatten()
    .collect();
    (!parts.is_empty()).then(|| {
        format!(
            "kifu: warning: {} missing from the WTHOR name files: those names show as #N",
            parts.join(" and ")
        )
    })
}

/// `kifu: FILE:3:13: game 6, move 7 (black) d3: flips nothing (written as recorded)`
pub fn flagged(name: &str, flag: &Flag) -> String {
    format!(
        "kifu: {}: {} (written as recorded)",
        diagnostic::location(name, flag),
        diagnostic::headline(flag)
    )
}

/// `kifu: FILE: game 3: left out: invalid game: …`
pub fn refused(name: &str, index: u64, why: &Refusal) -> String {
    format!("kifu: {name}: game {index}: left out: {why}")
}
