//! The search: from the first illegal move back, every single edit that
//! makes the record play further, then again after the best of them, up
//! to [`Options::max_edits`]; and the whole record under each symmetry.

use std::cmp::Ordering;

use crate::engine::game::{Finish, Move, Replay, Status};
use crate::record::repair::edits::{Draft, Edit, Kind, Mark, Tok, Typo};
use crate::record::repair::rank::{final_score, orbit_key, Rank, Suggestion};
use crate::record::{GameRecord, RecordedMove, Token};
use crate::{Position, Square, Symmetry};

/// Limits of the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Most edits in one candidate (1 to 3 are sensible).
    pub max_edits: usize,
    /// Candidates searched again when one edit is not enough.
    pub beam: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            max_edits: 2,
            beam: 8,
        }
    }
}

/// A draft the search edits further: the record itself (the root) or a
/// candidate that is searched again.
struct Base {
    draft: Draft,
    cost: u32,
    distance: usize,
    /// Index in the draft's tokens of the first illegal move.
    fail: usize,
}

/// One candidate found: an edit to a base, and how far it plays.
#[derive(Clone, Debug)]
struct Hyp {
    base: usize,
    kind: Kind,
    /// Index in the base's tokens where the edit is.
    at: usize,
    progress: usize,
    /// Index in the edited token list of the first illegal move.
    fail: usize,
    finish: Option<Finish>,
    cost: u32,
    distance: usize,
    rank: Rank,
}

/// Plays one token; false if it is illegal.
#[inline]
fn play(replay: &mut Replay, tok: &Tok) -> bool {
    match tok.mv.token {
        Token::Move(mv) => replay.play(mv, tok.mv.color).is_ok(),
        Token::Unreadable => false,
    }
}

/// The squares of a bitboard, a1 first.
pub(super) fn squares(mut bits: u64) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        if bits == 0 {
            return None;
        }
        let index = bits.trailing_zeros() as u8;
        bits &= bits - 1;
        Square::new(index)
    })
}

/// The candidates found so far for one record.
struct Search<'r> {
    record: &'r GameRecord,
    total: usize,
    bases: Vec<Base>,
    hyps: Vec<Hyp>,
}

impl Search<'_> {
    /// Progress in original tokens of an edited list that fails at `fail`.
    fn progress(&self, toks: &[Tok], fail: usize) -> usize {
        match toks.get(fail) {
            None => self.total,
            // A failing token is one the record wrote: inserted moves are
            // played before the rest and a failure there drops the
            // candidate. Fall back on the position all the same.
            Some(t) => t.orig.unwrap_or(fail),
        }
    }

    /// Searches one more edit on base `b`, keeping candidates that get
    /// further than it.
    fn expand(&mut self, b: usize) {
        let base = &self.bases[b];
        let draft = &base.draft;
        let toks = &draft.toks;
        let fail = base.fail.min(toks.len());
        let base_progress = self.progress(toks, base.fail);
        let edits = draft.edits.len() + 1;
        // Positions before each move up to the failure.
        let mut prefix = Vec::with_capacity(fail + 1);
        let mut replay = Replay::new(draft.start);
        prefix.push(replay.clone());
        for tok in &toks[..fail] {
            if !play(&mut replay, tok) {
                break;
            }
            prefix.push(replay.clone());
        }
        let mut found = Vec::new();
        let try_edit = |at: usize,
                        head: &[Tok],
                        resume: usize,
                        kind: Kind,
                        cost: u32,
                        found: &mut Vec<Hyp>| {
            let Some(state) = prefix.get(at) else {
                return;
            };
            let mut replay = state.clone();
            if !head.iter().all(|t| play(&mut replay, t)) {
                return;
            }
            let rest = toks.get(resume..).unwrap_or(&[]);
            let played = rest.iter().take_while(|t| play(&mut replay, t)).count();
            let fail_in_new = at + head.len() + played;
            let progress = match rest.get(played) {
                None => self.total,
                Some(t) => t.orig.unwrap_or(fail_in_new),
            };
            if progress <= base_progress {
                return;
            }
            // Only a move's colour can make such a candidate play further
            // (an inserted move has none): it is no repair.
            if draft.cancels_out(self.record, at, head, resume) {
                return;
            }
            let finish = (played == rest.len()).then(|| replay.finish());
            let cost = base.cost + cost;
            let distance = base.distance + fail.saturating_sub(at);
            found.push(Hyp {
                base: b,
                kind,
                at,
                progress,
                fail: fail_in_new,
                rank: Rank::of(self.record, edits, progress, finish.as_ref(), cost),
                finish,
                cost,
                distance,
            });
        };
        for at in draft.lo..=fail.min(prefix.len() - 1) {
            let Some(state) = prefix.get(at) else {
                break;
            };
            let here = toks.get(at);
            // Delete this move.
            if let Some(tok) = here {
                let repeated =
                    at > 0 && toks.get(at - 1).is_some_and(|p| p.mv.token == tok.mv.token);
                let cost = Edit::Delete {
                    number: 0,
                    written: String::new(),
                    repeated,
                }
                .cost();
                try_edit(at, &[], at + 1, Kind::Delete, cost, &mut found);
            }
            // Swap it with the next one.
            if let (Some(a), Some(b)) = (here, toks.get(at + 1)) {
                if a.mv.token != b.mv.token {
                    let head = [
                        Tok {
                            mark: Some(Mark::Moved),
                            ..*b
                        },
                        Tok {
                            mark: Some(Mark::Moved),
                            ..*a
                        },
                    ];
                    try_edit(at, &head, at + 2, Kind::Transpose, 2, &mut found);
                }
            }
            let legal = state.position().next_moves().0;
            for square in squares(legal) {
                // Another square in its place.
                if let Some(tok) = here {
                    let typo = match tok.mv.token {
                        Token::Move(Move::Play(w)) if w == square => None,
                        Token::Move(Move::Play(w)) => Some(Typo::between(w, square)),
                        Token::Move(Move::Pass) => Some(Typo::Other),
                        Token::Unreadable => Some(match tok.orig {
                            Some(i) => Typo::from_text(&self.record.token_text(i), square),
                            None => Typo::Other,
                        }),
                    };
                    if let Some(typo) = typo {
                        let head = [Tok {
                            mv: RecordedMove {
                                token: Token::Move(Move::Play(square)),
                                color: tok.mv.color,
                            },
                            orig: tok.orig,
                            mark: Some(Mark::Changed),
                        }];
                        try_edit(
                            at,
                            &head,
                            at + 1,
                            Kind::Substitute(square, typo),
                            typo.cost(),
                            &mut found,
                        );
                    }
                }
                // A move left out before it.
                let head = [Tok {
                    mv: RecordedMove::new(Move::Play(square)),
                    orig: None,
                    mark: Some(Mark::Inserted),
                }];
                try_edit(at, &head, at, Kind::Insert(square), 5, &mut found);
            }
        }
        self.hyps.extend(found);
    }

    /// The whole record under each symmetry and from the colour-swapped
    /// start.
    fn whole_record(&mut self) {
        let root = &self.bases[0].draft;
        let base_progress = self.progress(&root.toks, self.bases[0].fail);
        let mut found = Vec::new();
        let mut variants: Vec<(Kind, Position, Vec<Tok>)> = Symmetry::ALL[1..]
            .iter()
            .map(|&s| {
                let toks = root
                    .toks
                    .iter()
                    .map(|t| Tok {
                        mv: RecordedMove {
                            token: match t.mv.token {
                                Token::Move(Move::Play(sq)) => {
                                    Token::Move(Move::Play(sq.transform(s)))
                                }
                                other => other,
                            },
                            color: t.mv.color,
                        },
                        ..*t
                    })
                    .collect();
                (Kind::Transform(s), root.start, toks)
            })
            .collect();
        let swapped = Position::new(root.start.board().swapped(), root.start.side_to_move());
        variants.push((Kind::SwapStart, swapped, root.toks.clone()));
        for (kind, start, toks) in variants {
            let mut replay = Replay::new(start);
            let played = toks.iter().take_while(|t| play(&mut replay, t)).count();
            let progress = self.progress(&toks, played);
            if progress <= base_progress {
                continue;
            }
            let f5 = Square::from_coords(5, 4);
            let first_is_f5 = toks
                .iter()
                .find_map(|t| match t.mv.token {
                    Token::Move(Move::Play(sq)) => Some(Some(sq) == f5),
                    _ => None,
                })
                .unwrap_or(false);
            let edit_cost = match kind {
                Kind::SwapStart => 4,
                _ => 3 + u32::from(!first_is_f5),
            };
            let finish = (played == toks.len()).then(|| replay.finish());
            found.push(Hyp {
                base: 0,
                kind,
                at: 0,
                progress,
                fail: played,
                rank: Rank::of(self.record, 1, progress, finish.as_ref(), edit_cost),
                finish,
                cost: edit_cost,
                distance: 0,
            });
        }
        self.hyps.extend(found);
    }

    /// The edited draft of a candidate, as a new base.
    fn apply(&self, hyp: &Hyp) -> Base {
        Base {
            draft: self.bases[hyp.base]
                .draft
                .edited(self.record, hyp.kind, hyp.at),
            cost: hyp.cost,
            distance: hyp.distance,
            fail: hyp.fail,
        }
    }

    /// A candidate as the caller sees it.
    fn suggestion(&self, hyp: &Hyp) -> Suggestion {
        let base = self.apply(hyp).draft;
        let record = base.record(self.record);
        let mut edits = base.edits.clone();
        edits.sort_by_key(|e| e.number().unwrap_or(0));
        let marks = base
            .toks
            .iter()
            .enumerate()
            .filter_map(|(i, t)| t.mark.map(|m| (i, m)))
            .collect();
        // In record order: two moves deleted at one place are shown in
        // the order they were written, not by their text.
        let mut order = base.deleted.clone();
        order.sort_unstable();
        let deleted = order
            .into_iter()
            .map(|(at, o)| (at, self.record.token_text(o)))
            .collect();
        let reaches_end = hyp.progress >= self.total;
        let status = match (&hyp.finish, reaches_end) {
            (Some(f), true) => f.status,
            _ => Status::Invalid,
        };
        let score = match &hyp.finish {
            Some(f) if status == Status::Complete => Some(final_score(self.record, f)),
            _ => None,
        };
        Suggestion {
            edits,
            record,
            reaches_end,
            progress: hyp.progress.min(self.total),
            status,
            score,
            rank: hyp.rank,
            marks,
            deleted,
        }
    }
}

/// A stable order for candidates that rank the same: edits nearer the
/// first illegal move first, then by kind and square. It orders the list
/// only; it never makes a candidate unique.
fn tie_break(a: &Hyp, b: &Hyp) -> Ordering {
    fn kind_order(k: &Kind) -> (u8, u8) {
        match k {
            Kind::Substitute(sq, _) => (0, sq.index() as u8),
            Kind::Transpose => (1, 0),
            Kind::Delete => (2, 0),
            Kind::Insert(sq) => (3, sq.index() as u8),
            Kind::Transform(s) => (
                4,
                Symmetry::ALL.iter().position(|x| x == s).unwrap_or(0) as u8,
            ),
            Kind::SwapStart => (5, 0),
        }
    }
    (a.distance, a.base, a.at, kind_order(&a.kind)).cmp(&(
        b.distance,
        b.base,
        b.at,
        kind_order(&b.kind),
    ))
}

/// The best `limit` candidate repairs of an invalid record under
/// `options`, best first; empty when every move is legal.
#[must_use]
pub fn suggest_with(record: &GameRecord, limit: usize, options: &Options) -> Vec<Suggestion> {
    let draft = Draft::of(record);
    let mut replay = Replay::new(record.start);
    let fail = draft
        .toks
        .iter()
        .take_while(|t| play(&mut replay, t))
        .count();
    if fail >= draft.toks.len() || limit == 0 || options.max_edits == 0 {
        return Vec::new();
    }
    let mut search = Search {
        record,
        total: draft.toks.len(),
        bases: vec![Base {
            draft,
            cost: 0,
            distance: 0,
            fail,
        }],
        hyps: Vec::new(),
    };
    search.expand(0);
    search.whole_record();
    let mut level_start = 0;
    for _ in 1..options.max_edits {
        if search.hyps.iter().any(|h| h.progress >= search.total) {
            break;
        }
        // Search again after the edits that got furthest.
        let mut level: Vec<&Hyp> = search.hyps[level_start..].iter().collect();
        level.sort_by(|a, b| {
            b.progress
                .cmp(&a.progress)
                .then(a.cost.cmp(&b.cost))
                .then_with(|| tie_break(a, b))
        });
        let picked: Vec<Hyp> = level.into_iter().take(options.beam).cloned().collect();
        level_start = search.hyps.len();
        for hyp in picked {
            let base = search.apply(&hyp);
            search.bases.push(base);
            search.expand(search.bases.len() - 1);
        }
        if search.hyps.len() == level_start {
            break;
        }
    }
    let mut order: Vec<usize> = (0..search.hyps.len()).collect();
    order.sort_by(|&a, &b| {
        let (x, y) = (&search.hyps[a], &search.hyps[b]);
        x.rank.cmp(&y.rank).then_with(|| tie_break(x, y))
    });
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for i in order {
        let suggestion = search.suggestion(&search.hyps[i]);
        let key = orbit_key(&suggestion.record);
        if seen.contains(&key) {
            continue;
        }
        seen.push(key);
        out.push(suggestion);
        if out.len() >= limit {
            break;
        }
    }
    out
}
