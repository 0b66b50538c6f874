//! The repairs kifu proposes for an invalid record, in words: the
//! `--suggest` block of `kifu validate` and the notes of `kifu repair`.

use kifu::record::repair::{self, is_unique, Mark, Options, Suggestion, Verdict};
use kifu::{GameError, GameRecord, Status, Winner};

/// What the repair did, for standard error, and the record to write
/// instead of the input's.
pub fn describe(verdict: &Verdict, max_edits: usize, moves: usize) -> (String, Option<GameRecord>) {
    match verdict {
        Verdict::Valid => ("valid".into(), None),
        Verdict::Repaired(s) => (
            format!("repaired: {}", edit_list(s)),
            Some(s.record.clone()),
        ),
        Verdict::Ambiguous(tied) => {
            let shown: Vec<String> = tied.iter().take(3).map(edit_list).collect();
            let more = if tied.len() > 3 {
                format!(" | {} more", tied.len() - 3)
            } else {
                String::new()
            };
            (
                format!(
                    "left as is: {} repairs tie: {}{more}",
                    tied.len(),
                    shown.join(" | ")
                ),
                None,
            )
        }
        Verdict::Unrepairable(best) => {
            let closest = match best {
                Some(s) => format!(
                    " (the closest, {}, stops at move {} of {moves})",
                    edit_list(s),
                    s.progress + 1
                ),
                None => String::new(),
            };
            (
                format!(
                    "left as is: no repair of {} plays the record to its end{closest}",
                    if max_edits == 1 {
                        "one edit".to_string()
                    } else {
                        format!("up to {max_edits} edits")
                    }
                ),
                None,
            )
        }
        Verdict::Unreadable => (
            "left as is: the record cannot be read to its end".into(),
            None,
        ),
    }
}

fn edit_list(s: &Suggestion) -> String {
    let edits: Vec<String> = s.edits.iter().map(ToString::to_string).collect();
    edits.join("; ")
}

/// How a suggestion ends: `plays to the end, white wins 39-25`.
fn ending(s: &Suggestion, moves: usize) -> String {
    if !s.reaches_end {
        return format!("stops at move {} of {moves}", s.progress + 1);
    }
    match (s.status, s.score) {
        (Status::Complete, Some(score)) => {
            let (b, w) = (score.black_score, score.white_score);
            match score.winner {
                Winner::Black => format!("plays to the end, black wins {b}-{w}"),
                Winner::White => format!("plays to the end, white wins {w}-{b}"),
                Winner::Draw => format!("plays to the end, a draw {b}-{w}"),
            }
        }
        _ => "plays to the end, incomplete".into(),
    }
}

/// The moves of a suggestion around its edits, edited moves in brackets:
/// `from move 5: c4 f4 f6 [f3] e6 e7`; `[+d8]` an inserted move, `[-a1]` a
/// deleted one.
fn excerpt(s: &Suggestion) -> String {
    const AROUND: usize = 3;
    let record = &s.record;
    let n = record.moves.len();
    let mut spots: Vec<usize> = s.marks.iter().map(|(i, _)| *i).collect();
    spots.extend(s.deleted.iter().map(|(i, _)| *i));
    spots.sort_unstable();
    if spots.is_empty() {
        // A whole-record edit: the opening.
        spots.push(0);
    }
    let mut windows: Vec<(usize, usize)> = Vec::new();
    for at in spots {
        let lo = at.saturating_sub(AROUND);
        let hi = (at + AROUND + 1).min(n);
        match windows.last_mut() {
            Some(w) if lo <= w.1 => w.1 = w.1.max(hi),
            _ => windows.push((lo, hi)),
        }
    }
    let mut parts = Vec::new();
    for (lo, hi) in windows {
        let mut words = Vec::new();
        for i in lo..=hi {
            for (_, text) in s.deleted.iter().filter(|(at, _)| *at == i) {
                words.push(format!("[-{text}]"));
            }
            if i >= hi {
                break;
            }
            let token = record.token_text(i);
            words.push(match s.marks.iter().find(|(at, _)| *at == i).map(|m| m.1) {
                Some(Mark::Inserted) => format!("[+{token}]"),
                Some(Mark::Changed | Mark::Moved) => format!("[{token}]"),
                None => token,
            });
        }
        parts.push(format!("from move {}: {}", lo + 1, words.join(" ")));
    }
    parts.join(" ... ")
}

/// The block `kifu validate --suggest` prints under an invalid game's
/// diagnostic: the best `count` candidates, edited moves in brackets.
pub fn suggestions(record: &GameRecord, error: &GameError, count: usize) -> String {
    if matches!(error, GameError::Parse(_)) {
        return "  no suggestion: the record cannot be read to its end\n\n".into();
    }
    let options = Options::default();
    let found = repair::suggest_with(record, count.max(1) + 5, &options);
    if found.is_empty() {
        return format!(
            "  no suggestion: nothing within {} edits gets further\n\n",
            options.max_edits
        );
    }
    let moves = record.moves.len();
    let mut out = String::from("  suggestions, best first:\n");
    for (i, s) in found.iter().take(count.max(1)).enumerate() {
        out.push_str(&format!(
            "  {}. {}: {}\n     {}\n",
            i + 1,
            edit_list(s),
            ending(s, moves),
            excerpt(s)
        ));
    }
    if found.first().is_some_and(|s| s.reaches_end) && !is_unique(&found) {
        let tied = found.iter().filter(|s| s.rank == found[0].rank).count();
        out.push_str(&format!(
            "  the first {tied} tie: kifu repair leaves this game as is\n"
        ));
    }
    out.push('\n');
    out
}
