//! The edits a repair makes, and what they do to a record's moves: the
//! public [`Edit`] and [`Typo`], and the [`Draft`] the search edits, a
//! record's moves with the edits made so far.

use std::fmt;

use crate::engine::game::Move;
use crate::record::source::{MoveSpans, Span};
use crate::record::{GameRecord, RecordedMove, Token};
use crate::{Position, Square, Symmetry};

/// How a substituted square relates to the one written.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Typo {
    /// One of the eight squares around it (`g8` for `h8`).
    Neighbour,
    /// Letter and digit exchanged (`e6` for `f5`: column and row swapped).
    Swapped,
    /// The column counted from the other edge (`c4` for `f4`).
    MirroredColumn,
    /// The row counted from the other edge (`f4` for `f5`).
    MirroredRow,
    /// The right column, another row (more than one away).
    WrongRow,
    /// The right row, another column (more than one away).
    WrongColumn,
    /// No relation to what was written.
    Other,
}

impl Typo {
    /// A few words for diagnostics.
    #[must_use]
    pub const fn describe(self) -> &'static str {
        match self {
            Typo::Neighbour => "neighbouring square",
            Typo::Swapped => "letter and digit swapped",
            Typo::MirroredColumn => "column mirrored",
            Typo::MirroredRow => "row mirrored",
            Typo::WrongRow => "wrong row",
            Typo::WrongColumn => "wrong column",
            Typo::Other => "another move",
        }
    }

    /// The plausibility cost of this slip (see the module docs).
    #[must_use]
    pub const fn cost(self) -> u32 {
        match self {
            Typo::Neighbour => 2,
            Typo::Swapped => 3,
            Typo::MirroredColumn | Typo::MirroredRow | Typo::WrongRow | Typo::WrongColumn => 4,
            Typo::Other => 7,
        }
    }

    /// How `to` relates to the square `written`.
    #[must_use]
    pub fn between(written: Square, to: Square) -> Typo {
        let (wc, wr) = (written.column(), written.row());
        let (c, r) = (to.column(), to.row());
        if written == to {
            return Typo::Other;
        }
        if wc.abs_diff(c) <= 1 && wr.abs_diff(r) <= 1 {
            Typo::Neighbour
        } else if to == written.transform(Symmetry::FlipDiagonal) {
            Typo::Swapped
        } else if r == wr && c == 7 - wc {
            Typo::MirroredColumn
        } else if c == wc && r == 7 - wr {
            Typo::MirroredRow
        } else if c == wc {
            Typo::WrongRow
        } else if r == wr {
            Typo::WrongColumn
        } else {
            Typo::Other
        }
    }

    /// How `to` relates to a token that is not a square (`f9`, `i5`): the
    /// letter or the digit that does name a column or row is kept.
    #[must_use]
    pub fn from_text(text: &str, to: Square) -> Typo {
        let bytes = text.as_bytes();
        let column = bytes
            .first()
            .map(|c| c.to_ascii_lowercase().wrapping_sub(b'a'))
            .filter(|c| *c < 8);
        let row = bytes
            .last()
            .map(|d| d.wrapping_sub(b'1'))
            .filter(|r| *r < 8);
        if column == Some(to.column()) {
            Typo::WrongRow
        } else if row == Some(to.row()) {
            Typo::WrongColumn
        } else {
            Typo::Other
        }
    }
}

/// One change to a record. Move numbers are 1-based and count the move
/// tokens of the record as written (explicit passes count), like the
/// replay's errors.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Edit {
    /// Move `number` was `written`; it becomes `square`.
    Substitute {
        /// The move's number.
        number: usize,
        /// The token as written (a square in lowercase, `pass`, or text).
        written: String,
        /// The square put in its place.
        square: Square,
        /// How the two relate.
        typo: Typo,
    },
    /// Moves `number` and `number + 1` change places.
    Transpose {
        /// The first of the two.
        number: usize,
        /// Move `number` as written.
        first: String,
        /// Move `number + 1` as written.
        second: String,
    },
    /// A move left out: `square` becomes move `number`, and the move that
    /// had that number follows it.
    Insert {
        /// The number of the inserted move.
        number: usize,
        /// The square inserted.
        square: Square,
    },
    /// Move `number` is dropped.
    Delete {
        /// The move's number.
        number: usize,
        /// The token as written.
        written: String,
        /// It repeats the move before it.
        repeated: bool,
    },
    /// Every square of the record is mapped by a symmetry of the board.
    Transform(Symmetry),
    /// The game starts from the start position with the disc colours
    /// swapped (d4 and e5 Black), the same side moving first.
    SwapStartColours,
}

impl Edit {
    /// The plausibility cost (see the module docs). A symmetry costs one
    /// more when the repaired game does not start with f5, which the
    /// search adds itself.
    #[must_use]
    pub fn cost(&self) -> u32 {
        match self {
            Edit::Substitute { typo, .. } => typo.cost(),
            Edit::Transpose { .. } => 2,
            Edit::Delete { repeated: true, .. } => 1,
            Edit::Delete { .. } | Edit::Insert { .. } => 5,
            Edit::Transform(_) => 3,
            Edit::SwapStartColours => 4,
        }
    }

    /// The number of the first move it touches, `None` for whole-record
    /// edits.
    #[must_use]
    pub fn number(&self) -> Option<usize> {
        match self {
            Edit::Substitute { number, .. }
            | Edit::Transpose { number, .. }
            | Edit::Insert { number, .. }
            | Edit::Delete { number, .. } => Some(*number),
            Edit::Transform(_) | Edit::SwapStartColours => None,
        }
    }
}

/// What a symmetry does to a record, as the repair applies it.
fn describe_symmetry(symmetry: Symmetry) -> &'static str {
    match symmetry {
        Symmetry::Identity => "unchanged",
        Symmetry::Rotate90 => "turned a quarter turn clockwise",
        Symmetry::Rotate180 => "turned half a turn",
        Symmetry::Rotate270 => "turned a quarter turn anticlockwise",
        Symmetry::FlipVertical => "mirrored left to right (columns counted from the right)",
        Symmetry::FlipHorizontal => "mirrored top to bottom (rows counted from the bottom)",
        Symmetry::FlipDiagonal => "mirrored on the a1-h8 diagonal",
        Symmetry::FlipAntiDiagonal => "mirrored on the h1-a8 diagonal",
    }
}

impl fmt::Display for Edit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Edit::Substitute {
                number,
                written,
                square,
                typo,
            } => write!(
                f,
                "move {number}: {written} -> {square} ({})",
                typo.describe()
            ),
            Edit::Transpose {
                number,
                first,
                second,
            } => write!(
                f,
                "moves {number} and {}: {first} {second} -> {second} {first} (transposed)",
                number + 1
            ),
            Edit::Insert { number, square } => {
                write!(f, "move {number}: {square} inserted (missing move)")
            }
            Edit::Delete {
                number,
                written,
                repeated,
            } => write!(
                f,
                "move {number}: {written} deleted ({})",
                if *repeated {
                    "written twice"
                } else {
                    "extra move"
                }
            ),
            Edit::Transform(s) => write!(f, "whole record: {}", describe_symmetry(*s)),
            Edit::SwapStartColours => f.write_str("start: disc colours swapped (d4 and e5 black)"),
        }
    }
}

/// Where an edit shows in the repaired record.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Mark {
    /// A square put in place of the one written.
    Changed,
    /// A move inserted.
    Inserted,
    /// A move moved by a transposition.
    Moved,
}

/// A move token during the search, with where it came from.
#[derive(Clone, Copy, Debug)]
pub(super) struct Tok {
    pub(super) mv: RecordedMove,
    /// Index in the original record; `None` for an inserted move.
    pub(super) orig: Option<usize>,
    pub(super) mark: Option<Mark>,
}

impl Tok {
    /// What the move is, for telling edits that cancel out: the token,
    /// not its colour (an inserted move has none), and for text that is
    /// not a move, which text.
    fn key(&self) -> (Token, Option<usize>) {
        match self.mv.token {
            Token::Unreadable => (Token::Unreadable, self.orig),
            token => (token, None),
        }
    }
}

/// One edit as the search makes it, at a token of a [`Draft`].
#[derive(Clone, Copy, Debug)]
pub(super) enum Kind {
    Delete,
    Transpose,
    Substitute(Square, Typo),
    Insert(Square),
    Transform(Symmetry),
    SwapStart,
}

/// A record's moves under edit: the record itself, or with the edits of
/// a candidate made.
#[derive(Clone, Debug)]
pub(super) struct Draft {
    pub(super) start: Position,
    pub(super) toks: Vec<Tok>,
    pub(super) edits: Vec<Edit>,
    /// First index where a further edit may go.
    pub(super) lo: usize,
    /// Original tokens deleted, with the index in `toks` they stood before.
    pub(super) deleted: Vec<(usize, usize)>,
    /// The whole-record symmetry among the edits (`Identity` if none).
    turn: Symmetry,
}

impl Draft {
    /// The record as written, no edit made.
    pub(super) fn of(record: &GameRecord) -> Draft {
        Draft {
            start: record.start,
            toks: record
                .moves
                .iter()
                .enumerate()
                .map(|(i, m)| Tok {
                    mv: *m,
                    orig: Some(i),
                    mark: None,
                })
                .collect(),
            edits: Vec::new(),
            lo: 0,
            deleted: Vec::new(),
            turn: Symmetry::Identity,
        }
    }

    /// Whether one more edit, `head` in place of the tokens `at..resume`,
    /// would leave moves that differ from the record's by fewer edits than
    /// the draft would then make: edits that cancel out, such as a move
    /// deleted and the same move inserted where it stood, a move inserted
    /// before the same move as written and that one deleted, or a move
    /// deleted and the next one changed into it. Such a candidate is no
    /// repair: it plays further than the record only because the inserted
    /// or changed move lost the colour the record wrote.
    pub(super) fn cancels_out(
        &self,
        record: &GameRecord,
        at: usize,
        head: &[Tok],
        resume: usize,
    ) -> bool {
        // A whole-record edit changes every move and never cancels out;
        // the reference is the record under it.
        let edits = 1 + self.edits.iter().filter(|e| e.number().is_some()).count();
        if edits < 2 {
            // One edit alone changes something: the search makes no
            // substitution by the same square and no transposition of
            // equal moves.
            return false;
        }
        let turn = self.turn;
        let written: Vec<_> = record
            .moves
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let token = match m.token {
                    Token::Move(Move::Play(sq)) => Token::Move(Move::Play(sq.transform(turn))),
                    other => other,
                };
                Tok {
                    mv: RecordedMove { token, ..*m },
                    orig: Some(i),
                    mark: None,
                }
                .key()
            })
            .collect();
        let before = self.toks.get(..at).unwrap_or(&self.toks);
        let after = self.toks.get(resume..).unwrap_or(&[]);
        let edited: Vec<_> = before
            .iter()
            .chain(head)
            .chain(after)
            .map(Tok::key)
            .collect();
        osa_distance(&written, &edited) < edits
    }

    /// This draft with one more edit, `kind` at token `at` (`record` is
    /// the record the draft was made from).
    pub(super) fn edited(&self, record: &GameRecord, kind: Kind, at: usize) -> Draft {
        let mut toks = self.toks.clone();
        let mut start = self.start;
        let mut deleted = self.deleted.clone();
        let mut turn = self.turn;
        let written = |i: usize| -> String {
            match self.toks.get(i).map(|t| (t.mv.token, t.orig)) {
                Some((Token::Move(mv), _)) => mv.to_string(),
                Some((Token::Unreadable, Some(o))) => record.token_text(o),
                _ => String::new(),
            }
        };
        let number = |i: usize| -> usize {
            self.toks
                .get(i)
                .and_then(|t| t.orig)
                .map_or(record.moves.len() + 1, |o| o + 1)
        };
        let (edit, lo) = match kind {
            Kind::Delete => {
                let repeated = at > 0
                    && self.toks.get(at - 1).map(|t| t.mv.token)
                        == self.toks.get(at).map(|t| t.mv.token);
                let edit = Edit::Delete {
                    number: number(at),
                    written: written(at),
                    repeated,
                };
                if let Some(o) = toks.get(at).and_then(|t| t.orig) {
                    deleted.push((at, o));
                }
                if at < toks.len() {
                    toks.remove(at);
                }
                for d in &mut deleted {
                    if d.0 > at {
                        d.0 -= 1;
                    }
                }
                (edit, at)
            }
            Kind::Transpose => {
                let edit = Edit::Transpose {
                    number: number(at),
                    first: written(at),
                    second: written(at + 1),
                };
                if at + 1 < toks.len() {
                    toks.swap(at, at + 1);
                    toks[at].mark = Some(Mark::Moved);
                    toks[at + 1].mark = Some(Mark::Moved);
                }
                (edit, at + 2)
            }
            Kind::Substitute(square, typo) => {
                let edit = Edit::Substitute {
                    number: number(at),
                    written: written(at),
                    square,
                    typo,
                };
                if let Some(t) = toks.get_mut(at) {
                    t.mv.token = Token::Move(Move::Play(square));
                    t.mark = Some(Mark::Changed);
                }
                (edit, at + 1)
            }
            Kind::Insert(square) => {
                let edit = Edit::Insert {
                    number: number(at),
                    square,
                };
                toks.insert(
                    at.min(toks.len()),
                    Tok {
                        mv: RecordedMove::new(Move::Play(square)),
                        orig: None,
                        mark: Some(Mark::Inserted),
                    },
                );
                for d in &mut deleted {
                    if d.0 >= at {
                        d.0 += 1;
                    }
                }
                (edit, at + 1)
            }
            Kind::Transform(s) => {
                for t in &mut toks {
                    if let Token::Move(Move::Play(sq)) = t.mv.token {
                        t.mv.token = Token::Move(Move::Play(sq.transform(s)));
                    }
                }
                turn = s;
                (Edit::Transform(s), 0)
            }
            Kind::SwapStart => {
                start = Position::new(start.board().swapped(), start.side_to_move());
                (Edit::SwapStartColours, 0)
            }
        };
        let mut edits = self.edits.clone();
        edits.push(edit);
        Draft {
            start,
            toks,
            edits,
            lo,
            deleted,
            turn,
        }
    }

    /// The record this draft stands for, made from `record`: its tags,
    /// result and notes, each move with its own span.
    pub(super) fn record(&self, record: &GameRecord) -> GameRecord {
        let mut out = GameRecord {
            start: self.start,
            moves: Vec::with_capacity(self.toks.len()),
            unreadable: Vec::new(),
            notes: Vec::new(),
            // The edited moves no longer sit at regular intervals: each
            // gets its own span.
            spans: MoveSpans::Unknown,
            ..record.clone()
        };
        let has_spans = !record.spans.is_unknown();
        let last_span = record
            .moves
            .len()
            .checked_sub(1)
            .and_then(|i| record.span(i));
        for (i, t) in self.toks.iter().enumerate() {
            out.moves.push(t.mv);
            if t.mv.token == Token::Unreadable {
                if let Some(o) = t.orig {
                    out.unreadable
                        .push((i, record.token_text(o).into_boxed_str()));
                }
            }
            if !record.notes.is_empty() {
                let note = t
                    .orig
                    .and_then(|o| record.notes.get(o).copied())
                    .unwrap_or_default();
                out.notes.push(note);
            }
            if has_spans {
                let span = match t.orig {
                    Some(o) => record.span(o).unwrap_or_default(),
                    None => {
                        // Where the next written move is, with no length.
                        let next = self.toks[i..]
                            .iter()
                            .find_map(|n| n.orig)
                            .and_then(|o| record.span(o))
                            .or(last_span)
                            .unwrap_or_default();
                        Span { len: 0, ..next }
                    }
                };
                out.spans.push(span);
            }
        }
        out
    }
}

/// The optimal string alignment distance: the fewest deletions,
/// insertions, substitutions and transpositions of neighbours that turn
/// `a` into `b`, no token edited twice (the edits of the search).
pub(super) fn osa_distance<T: PartialEq>(a: &[T], b: &[T]) -> usize {
    let width = b.len() + 1;
    // d[i * width + j]: the distance between a[..i] and b[..j]; every
    // index below stays inside the (a.len() + 1) × width table.
    let mut d = vec![0; (a.len() + 1) * width];
    for (i, row) in d.chunks_mut(width).enumerate() {
        row[0] = i;
    }
    for (j, cell) in d.iter_mut().take(width).enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let same = a[i - 1] == b[j - 1];
            let mut best = (d[(i - 1) * width + j] + 1)
                .min(d[i * width + j - 1] + 1)
                .min(d[(i - 1) * width + j - 1] + usize::from(!same));
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[(i - 2) * width + j - 2] + 1);
            }
            d[i * width + j] = best;
        }
    }
    d[a.len() * width + b.len()]
}
