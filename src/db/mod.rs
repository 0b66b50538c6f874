//! A game database held in memory: games read once, kept compactly, and
//! asked the questions of SPEC section 7 — which games reached a position
//! and what they played next ([`Database::explore`]), which games those
//! are ([`Database::games`]), and one game whole ([`Database::game_json`]).
//! The database browser (`kifu serve`) answers from it.
//!
//! Each game keeps what the questions read — its moves as one byte each,
//! the names as numbers into one table of texts, its year, status, winner,
//! score and opening — in about 110 bytes. What a record holds beyond that
//! (another start, colours on moves, notes, comments, more tags, a result
//! that is no disc count) is rare; such a game keeps its whole record
//! beside (without its source spans), so that [`Database::record`] gives
//! back the record that was read, whatever the format.
//!
//! A lookup replays each game's legal moves up to the position's count of
//! discs ([`PositionQuery::find`]) in parallel: the loaded games once at
//! most, whatever the filters.
//!
//! ```
//! use kifu::db::{Database, Prepared};
//! use kifu::formats::Format;
//! use kifu::select::{Filter, Selection};
//! use kifu::PositionQuery;
//!
//! let text = "f5d6c3d3c4f4f6f3e6e7\nf5f6e6f4e3c5c4\nc4e3f6e6f5c5\n";
//! let selection = Selection::new(Filter::default(), true);
//! let mut db = Database::new();
//! let source = db.add_source("games.txt");
//! for record in Format::Transcript.reader(text.as_bytes()) {
//!     let record = record?;
//!     let (report, found) = selection.replay(&record);
//!     db.push(source, Prepared::new(&record, &report, found.opening));
//! }
//! // Two of them reach the Tiger's first moves (the third turned round).
//! let query = PositionQuery::from_moves("f5d6c3d3c4")?;
//! let answer = db.explore(&query, &Filter::default());
//! assert_eq!(answer.games(), 2);
//! let page = db.games(&query, &Filter::default(), 0, 10);
//! assert_eq!(page.total, 2);
//! assert_eq!(page.games[1].index, 3);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod strings;
#[cfg(test)]
mod tests;

use rayon::prelude::*;

use crate::explore::{Explored, Listing};
use crate::formats::jsonl::GameJson;
use crate::record::{GameError, ResultKind, ResultValue, Token};
use crate::select::{self, Facts, Filter};
use crate::table::Game;
use crate::{
    GameRecord, Hit, Move, Opening, Openings, Origin, Position, PositionQuery, RecordedMove,
    RecordedResult, Report, Square, Status, Tags, Winner,
};
use strings::Strings;

/// The pass, among the move bytes (0–63 are the squares).
const PASS: u8 = 64;
/// A token that is no move, among the move bytes; its text is in the
/// game's whole record.
const UNREADABLE: u8 = 65;
/// No text, no opening, no year: the value a field holds for none.
const NONE: u32 = u32::MAX;

/// Games scanned by one task of a parallel lookup.
const CHUNK: usize = 4096;

/// One game, compactly.
#[derive(Clone, Copy, Debug)]
struct Entry {
    /// Where its move bytes start in [`Database::moves`].
    moves: u32,
    /// Move tokens kept there: every token of a plain game, the legal
    /// ones of a game kept whole.
    len: u8,
    /// Legal move tokens (the replay's, before the first bad one).
    legal: u8,
    /// The input it came from.
    source: u16,
    /// Its 1-based number within that input.
    index: u64,
    /// Names, event and date as numbers into [`Database::strings`].
    black: u32,
    white: u32,
    event: u32,
    date: u32,
    /// The year played, 0 for none.
    year: u16,
    /// Index into the built-in openings, `u16::MAX` for none.
    opening: u16,
    status: Status,
    winner: Option<Winner>,
    /// Final scores, Black's and White's, of a complete game.
    scores: Option<(u8, u8)>,
    /// A recorded result of disc counts (the common one; any other result
    /// is kept in the whole record).
    result: Option<(u8, u8)>,
    theoretical: Option<u8>,
    depth: Option<u8>,
    /// 0 for a plain game, else 1 + its index in [`Database::whole`].
    whole: u32,
    /// Whether the replay looked at any position: a game on another board
    /// is invalid before its start.
    played: bool,
}

/// What a game brings to a database, made where the game was replayed
/// (in a batch's workers); [`Database::push`] then stores it.
#[derive(Clone, Debug)]
pub struct Prepared {
    tokens: Vec<u8>,
    legal: u8,
    black: Option<String>,
    white: Option<String>,
    event: Option<String>,
    date: Option<String>,
    year: Option<u16>,
    opening: Option<&'static Opening>,
    status: Status,
    winner: Option<Winner>,
    scores: Option<(u8, u8)>,
    result: Option<(u8, u8)>,
    theoretical: Option<u8>,
    depth: Option<u8>,
    index: u64,
    played: bool,
    whole: Option<Box<GameRecord>>,
}

impl Prepared {
    /// The game's 1-based number within its input.
    #[must_use]
    pub fn index(&self) -> u64 {
        self.index
    }

    /// The compact form of `record`, replayed into `report`, with the
    /// opening its replay named.
    #[must_use]
    pub fn new(
        record: &GameRecord,
        report: &Report,
        opening: Option<&'static Opening>,
    ) -> Prepared {
        let played = record.other_board.is_none();
        let legal = if played {
            report
                .error
                .as_ref()
                .and_then(GameError::move_number)
                .map_or(record.moves.len(), |n| n - 1)
        } else {
            0
        };
        let byte = |m: &RecordedMove| match m.token {
            Token::Move(Move::Play(square)) => square.index() as u8,
            Token::Move(Move::Pass) => PASS,
            Token::Unreadable => UNREADABLE,
        };
        let result = record.result.and_then(|r| match r {
            RecordedResult {
                value: ResultValue::Discs { black, white },
                kind: ResultKind::Score,
            } => Some((black, white)),
            _ => None,
        });
        let plain = is_plain(record, result.is_some() || record.result.is_none());
        // A legal prefix is at most 60 discs and a pass between any two.
        let legal = u8::try_from(legal).unwrap_or(u8::MAX);
        let kept = if plain {
            record.moves.len()
        } else {
            usize::from(legal)
        };
        let tags = &record.tags;
        Prepared {
            tokens: record.moves[..kept].iter().map(byte).collect(),
            legal,
            black: tags.black.clone(),
            white: tags.white.clone(),
            event: tags.event.clone(),
            date: tags.date.clone(),
            year: select::year(record),
            opening,
            status: report.status(),
            winner: select::winner(record, report),
            scores: report.final_score().map(|s| (s.black_score, s.white_score)),
            result,
            theoretical: record.theoretical_black_score,
            depth: record.theoretical_depth,
            index: record.origin.index,
            played,
            whole: (!plain).then(|| Box::new(stripped(record))),
        }
    }
}

/// Whether the compact fields give `record` back whole: the standard
/// start, at most 255 move tokens without colours, no notes, no other
/// tags than the names, event and date, a result of disc counts or none,
/// nothing the reader found wrong.
fn is_plain(record: &GameRecord, result_kept: bool) -> bool {
    let tags = &record.tags;
    result_kept
        && record.has_standard_start()
        && record.moves.len() <= usize::from(u8::MAX)
        && record.moves.iter().all(|m| m.color.is_none())
        && record.unreadable.is_empty()
        && record.notes.is_empty()
        && tags.site.is_none()
        && tags.round.is_none()
        && tags.black_rating.is_none()
        && tags.white_rating.is_none()
        && tags.extra.is_empty()
        && record.rules == crate::Rules::Standard
        && record.defect.is_none()
        && record.annotations.is_empty()
        && record.other_board.is_none()
}

/// `record` without what only diagnostics read (its source lines and
/// spans), to keep.
fn stripped(record: &GameRecord) -> GameRecord {
    let mut kept = record.clone();
    kept.spans = crate::MoveSpans::Unknown;
    kept.origin = Origin {
        index: record.origin.index,
        line: record.origin.line,
        byte: record.origin.byte,
        text: None,
    };
    kept
}

/// The games of a database that reached a position, one page of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Page {
    /// How many games reached it (and passed the filters).
    pub total: u64,
    /// The page: in input order, from the offset asked.
    pub games: Vec<Listing>,
}

/// Games held in memory for lookups; see the module.
#[derive(Debug, Default)]
pub struct Database {
    sources: Vec<String>,
    /// For each source, the range of its entries (they come in input
    /// order, so each input's games are together).
    ranges: Vec<std::ops::Range<usize>>,
    entries: Vec<Entry>,
    moves: Vec<u8>,
    strings: Strings,
    whole: Vec<GameRecord>,
}

impl Database {
    /// No games.
    #[must_use]
    pub fn new() -> Database {
        Database::default()
    }

    /// Names the input the next games come from; its number for
    /// [`Database::push`].
    pub fn add_source(&mut self, name: &str) -> u16 {
        self.sources.push(name.to_owned());
        let at = self.entries.len();
        self.ranges.push(at..at);
        // More than 65,535 inputs share the last number.
        u16::try_from(self.sources.len() - 1).unwrap_or(u16::MAX)
    }

    /// Adds a game of input `source` (the last one added: games come in
    /// input order).
    pub fn push(&mut self, source: u16, game: Prepared) {
        let moves = u32::try_from(self.moves.len()).unwrap_or(u32::MAX);
        self.moves.extend_from_slice(&game.tokens);
        let whole = match game.whole {
            Some(record) => {
                self.whole.push(*record);
                u32::try_from(self.whole.len()).unwrap_or(u32::MAX)
            }
            None => 0,
        };
        let mut text = |t: Option<String>| t.map_or(NONE, |t| self.strings.intern(&t));
        let entry = Entry {
            moves,
            len: u8::try_from(game.tokens.len()).unwrap_or(u8::MAX),
            legal: game.legal,
            source,
            index: game.index,
            black: text(game.black),
            white: text(game.white),
            event: text(game.event),
            date: text(game.date),
            year: game.year.unwrap_or(0),
            opening: game
                .opening
                .and_then(|o| {
                    Openings::builtin()
                        .entries()
                        .iter()
                        .position(|e| std::ptr::eq(e, o))
                })
                .and_then(|i| u16::try_from(i).ok())
                .unwrap_or(u16::MAX),
            status: game.status,
            winner: game.winner,
            scores: game.scores,
            result: game.result,
            theoretical: game.theoretical,
            depth: game.depth,
            whole,
            played: game.played,
        };
        self.entries.push(entry);
        if let Some(range) = self.ranges.get_mut(usize::from(source)) {
            range.end = self.entries.len();
        }
    }

    /// Games held.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether it holds no game.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The inputs, as named, in order.
    #[must_use]
    pub fn sources(&self) -> &[String] {
        &self.sources
    }

    /// About how many bytes the games take (the entries, the moves, the
    /// texts and the whole records kept).
    #[must_use]
    pub fn heap_bytes(&self) -> usize {
        self.entries.capacity() * std::mem::size_of::<Entry>()
            + self.moves.capacity()
            + self.strings.heap_bytes()
            + self.whole.len() * (std::mem::size_of::<GameRecord>() + 64 * 4)
    }

    /// Gives back memory held for games still to come.
    pub fn shrink_to_fit(&mut self) {
        self.entries.shrink_to_fit();
        self.moves.shrink_to_fit();
        self.whole.shrink_to_fit();
        self.strings.shrink_to_fit();
    }

    fn text(&self, id: u32) -> Option<&str> {
        (id != NONE).then(|| self.strings.get(id))
    }

    fn opening(e: &Entry) -> Option<&'static Opening> {
        Openings::builtin().entries().get(usize::from(e.opening))
    }

    fn facts(&self, e: &Entry) -> Facts<'_> {
        Facts {
            black: self.text(e.black),
            white: self.text(e.white),
            event: self.text(e.event),
            year: (e.year != 0).then_some(e.year),
            status: e.status,
            winner: e.winner,
            opening: Database::opening(e),
        }
    }

    fn start(&self, e: &Entry) -> Position {
        match e.whole {
            0 => Position::start(),
            n => self.whole[n as usize - 1].start,
        }
    }

    /// Where the game reached `query`, looking at its legal moves only.
    fn reaches(&self, e: &Entry, query: &PositionQuery) -> Option<Hit> {
        if !e.played {
            return None;
        }
        let at = e.moves as usize;
        let moves =
            self.moves[at..at + usize::from(e.legal)]
                .iter()
                .map(|&b| match Square::new(b) {
                    Some(square) => Move::Play(square),
                    None => Move::Pass,
                });
        query.find(self.start(e), moves).map(|(_, hit)| hit)
    }

    /// Whether a game passes the filters (and reaches the filter's
    /// position), and where it reached `query`.
    fn hit(&self, e: &Entry, query: &PositionQuery, filter: &Filter) -> Option<Hit> {
        if !filter.accepts_facts(&self.facts(e)) {
            return None;
        }
        if let Some(position) = filter.position() {
            self.reaches(e, position)?;
        }
        self.reaches(e, query)
    }

    /// Which games reached `query`'s position (any symmetry, any move
    /// order) among those `filter` keeps, and what each played next: the
    /// answer of `kifu explore` over the same games.
    #[must_use]
    pub fn explore(&self, query: &PositionQuery, filter: &Filter) -> Explored {
        let target = *query.target();
        self.entries
            .par_chunks(CHUNK)
            .map(|entries| {
                let mut part = Explored::new(target);
                for e in entries {
                    if let Some(hit) = self.hit(e, query, filter) {
                        part.add(hit.next, e.winner, e.scores.map(|s| s.0));
                    }
                }
                part
            })
            .reduce(
                || Explored::new(target),
                |mut a, b| {
                    a.merge(&b);
                    a
                },
            )
    }

    /// The games that reached `query`'s position among those `filter`
    /// keeps, in input order: how many, and `limit` of them from
    /// `offset` on, as `kifu explore --games` lists them.
    #[must_use]
    pub fn games(&self, query: &PositionQuery, filter: &Filter, offset: u64, limit: usize) -> Page {
        let found: Vec<Vec<u32>> = self
            .entries
            .par_chunks(CHUNK)
            .enumerate()
            .map(|(chunk, entries)| {
                let mut hits = Vec::new();
                for (i, e) in entries.iter().enumerate() {
                    let at = chunk * CHUNK + i;
                    if self.hit(e, query, filter).is_some() {
                        hits.push(at as u32);
                    }
                }
                hits
            })
            .collect();
        let total: usize = found.iter().map(Vec::len).sum();
        let games = found
            .iter()
            .flatten()
            .skip(usize::try_from(offset).unwrap_or(usize::MAX))
            .take(limit)
            .map(|&at| self.listing(&self.entries[at as usize]))
            .collect();
        Page {
            total: total as u64,
            games,
        }
    }

    fn listing(&self, e: &Entry) -> Listing {
        Listing {
            source: self.sources[usize::from(e.source)].clone(),
            index: e.index,
            black: self.text(e.black).map(str::to_owned),
            white: self.text(e.white).map(str::to_owned),
            year: (e.year != 0).then_some(e.year),
            result: Listing::result_text(e.status, e.winner, e.scores),
            opening: Database::opening(e).map(|o| o.name().to_owned()),
        }
    }

    /// Game `index` (1-based, as listed) of input `source`.
    fn find(&self, source: &str, index: u64) -> Option<usize> {
        let s = self.sources.iter().position(|s| s == source)?;
        let range = self.ranges[s].clone();
        let entries = &self.entries[range.clone()];
        let at = entries.binary_search_by_key(&index, |e| e.index).ok()?;
        Some(range.start + at)
    }

    /// Whether an input of this name was loaded.
    #[must_use]
    pub fn has_source(&self, source: &str) -> bool {
        self.sources.iter().any(|s| s == source)
    }

    /// The record of game `index` of input `source`, as it was read (but
    /// for its source spans and lines).
    #[must_use]
    pub fn record(&self, source: &str, index: u64) -> Option<GameRecord> {
        self.find(source, index).map(|at| self.record_at(at))
    }

    fn record_at(&self, at: usize) -> GameRecord {
        let e = &self.entries[at];
        if e.whole != 0 {
            return self.whole[e.whole as usize - 1].clone();
        }
        let start = e.moves as usize;
        let mut record = GameRecord::new(Position::start());
        record.moves = self.moves[start..start + usize::from(e.len)]
            .iter()
            .map(|&b| match (Square::new(b), b) {
                (Some(square), _) => RecordedMove::new(Move::Play(square)),
                (None, PASS) => RecordedMove::new(Move::Pass),
                // Unreadable tokens make a game whole (never plain).
                (None, _) => RecordedMove {
                    token: Token::Unreadable,
                    color: None,
                },
            })
            .collect();
        let text = |id| self.text(id).map(str::to_owned);
        record.tags = Tags {
            black: text(e.black),
            white: text(e.white),
            event: text(e.event),
            date: text(e.date),
            ..Tags::default()
        };
        record.result = e
            .result
            .map(|(black, white)| RecordedResult::new(ResultValue::Discs { black, white }));
        record.theoretical_black_score = e.theoretical;
        record.theoretical_depth = e.depth;
        record.origin.index = e.index;
        record
    }

    /// Game `index` of input `source` as its JSON Lines object (SPEC
    /// section 2): the line `kifu convert --to jsonl` writes for it.
    #[must_use]
    pub fn game_json(&self, source: &str, index: u64) -> Option<String> {
        let at = self.find(source, index)?;
        let record = self.record_at(at);
        let report = record.replay();
        let e = &self.entries[at];
        let name = &self.sources[usize::from(e.source)];
        let game = Game::new(name, &record, &report).with_opening(Database::opening(e));
        serde_json::to_string(&GameJson::from_row(&game)).ok()
    }
}
