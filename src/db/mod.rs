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
//! Once all games are in ([`Database::finish`]), a position index tells
//! for each count of discs which board each game stood on, as a byte
//! hash: a lookup replays only the games whose byte matches, about the
//! games that reach the position and one in 256 of the others. Without
//! the index (before `finish`, or a board of fewer than 4 discs), a
//! lookup replays each game's legal moves up to the position's count of
//! discs ([`PositionQuery::find`]). Either way the candidates are
//! replayed exactly, in parallel, so the index never changes an answer.
//! The positions thousands of games reach (the openings) are counted
//! while the index is built ([`popular`]): their answers take no replay,
//! and add up to the lookup's to the game. The games are sorted by their
//! moves only for the scans that need it, at the first.
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

pub mod explore;
mod popular;
mod saved;
mod strings;
#[cfg(test)]
mod tests;
mod walk;

use rayon::prelude::*;

use crate::db::explore::{Explored, Listing};
use crate::formats::jsonl::GameJson;
use crate::record::row::Game;
use crate::record::select::{self, Facts, Filter};
use crate::record::{GameError, ResultKind, ResultValue, Token};
use crate::{
    GameRecord, Hit, Move, Opening, Openings, Origin, Position, PositionQuery, RecordedMove,
    RecordedResult, Replay, Report, Square, Status, Tags, Winner,
};
pub use saved::SavedIndexError;
use strings::Strings;
use walk::Walk;

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
    end: Ending,
    /// 0 for a plain game, else 1 + its index in [`Database::whole`].
    whole: u32,
    /// Whether the replay looked at any position: a game on another board
    /// is invalid before its start.
    played: bool,
}

/// How a game ended, as its replay and its record say.
#[derive(Clone, Copy, Debug)]
struct Ending {
    status: Status,
    winner: Option<Winner>,
    /// Final scores, Black's and White's, of a complete game.
    scores: Option<(u8, u8)>,
    /// A recorded result of disc counts (the common one; any other result
    /// is kept in the whole record).
    result: Option<(u8, u8)>,
    theoretical: Option<u8>,
    depth: Option<u8>,
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
    end: Ending,
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
            end: Ending {
                status: report.status(),
                winner: select::winner(record, report),
                scores: report.final_score().map(|s| (s.black_score, s.white_score)),
                result,
                theoretical: record.theoretical_black_score,
                depth: record.theoretical_depth,
            },
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

/// The games of a database that reached a position, in input order,
/// each with the move it played next ([`Database::lookup`]).
#[derive(Clone, Debug)]
pub struct Lookup {
    target: Position,
    hits: Vec<(u32, Option<Move>)>,
}

impl Lookup {
    /// How many games.
    #[must_use]
    pub fn len(&self) -> usize {
        self.hits.len()
    }

    /// Whether no game reached the position.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.hits.is_empty()
    }

    /// Their moves played next and results, as `kifu explore` counts them
    /// (`db` is the database looked in).
    #[must_use]
    pub fn explored(&self, db: &Database) -> Explored {
        let mut answer = Explored::new(self.target);
        for &(at, next) in &self.hits {
            let e = &db.entries[at as usize];
            answer.add(next, e.end.winner, e.end.scores.map(|s| s.0));
        }
        answer
    }

    /// `limit` of the games from `offset` on, with the total.
    #[must_use]
    pub fn page(&self, db: &Database, offset: u64, limit: usize) -> Page {
        let games = self
            .hits
            .iter()
            .skip(usize::try_from(offset).unwrap_or(usize::MAX))
            .take(limit)
            .map(|&(at, _)| db.listing(&db.entries[at as usize]))
            .collect();
        Page {
            total: self.hits.len() as u64,
            games,
        }
    }
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
    /// Whether [`Database::finish`] ran (and no game came since).
    finished: bool,
    /// The games sorted by their moves, for the scans that need them
    /// (positions the index does not know: rare), made at the first.
    sorted: std::sync::OnceLock<Sorted>,
    /// The position index [`Database::finish`] builds; see [`Index`].
    index: Index,
    /// The positions many games reach, counted by [`Database::finish`].
    popular: popular::Popular,
    /// Which positions those are.
    popular_rule: popular::Rule,
}

/// The games in the order of their moves (sorted by start, then by their
/// legal moves), so that neighbours share their first moves.
#[derive(Debug, Default)]
struct Sorted {
    order: Vec<u32>,
    /// For each game of `order`: 0 when its start differs from the game
    /// before's, else 1 + the legal moves both begin with (at most 254).
    shared: Vec<u8>,
}

/// Fewest discs a position the index knows has: positions of fewer
/// (only games from other starts reach them) are looked up by a scan.
const INDEXED_FROM: u32 = 4;
/// Columns of the index: one for each count of discs from
/// [`INDEXED_FROM`] to 64.
const COLUMNS: usize = (65 - INDEXED_FROM) as usize;

/// Which games may reach a position, found without replaying them: for
/// each count of discs, a byte for each game, a hash of the board it
/// stood on with that many discs (0 for none: it never had that many),
/// the same for the eight images of the board and either side to move.
///
/// A game reaches a position only by standing on an image of its board,
/// and every move adds a disc, so the games whose byte in the column of
/// the position's discs is the position's hash are all that may reach
/// it; about one in 256 of the others share the hash by chance. A lookup
/// replays the candidates alone, exactly as a scan does, so the index
/// only chooses which games to replay and never changes an answer. A
/// byte a game (and count of discs): about 61 bytes a game.
#[derive(Debug, Default, PartialEq)]
struct Index {
    /// Column `c` (the positions of `INDEXED_FROM + c` discs) holds
    /// `games` bytes from `c * games`.
    hashes: Vec<u8>,
    games: usize,
}

impl Index {
    /// The byte of a board in the index: the same for its eight images,
    /// never 0.
    fn hash(board: &crate::Board) -> u8 {
        let key = Position::new(*board, crate::Color::Black).canonical_key().0;
        let mut x = (key as u64) ^ ((key >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        x ^= x >> 31;
        x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
        x ^= x >> 29;
        match (x >> 56) as u8 {
            0 => 1,
            h => h,
        }
    }

    /// The column of positions of `discs` discs, if the index has one.
    fn column(&self, discs: u32) -> Option<&[u8]> {
        let c = usize::try_from(discs.checked_sub(INDEXED_FROM)?).ok()?;
        (c < COLUMNS && self.games > 0).then(|| &self.hashes[c * self.games..(c + 1) * self.games])
    }
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
        if self.finished {
            // The index and the order no longer cover every game: lookups
            // scan until the next `finish`.
            self.finished = false;
            self.index = Index::default();
            self.sorted = std::sync::OnceLock::new();
            self.popular = popular::Popular::default();
        }
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
            end: game.end,
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
            + self.index.hashes.capacity()
            + self.popular.heap_bytes()
    }

    /// Positions whose games were counted at [`Database::finish`] (the
    /// openings most games pass through): their lookups take no replay.
    #[must_use]
    pub fn popular_positions(&self) -> usize {
        self.popular.len()
    }

    /// Readies the games for lookups once all are in: gives back memory
    /// held for games to come and builds the position index ([`Index`]).
    /// The scans of positions the index does not know sort the games by
    /// their moves at the first, so that they replay the moves games begin
    /// with once for all of them (the openings they share). Lookups give
    /// the same answers before.
    pub fn finish(&mut self) {
        self.ready();
        let counting = popular::Counting::choose(self, self.popular_rule);
        let (index, partials) = self.build_index(&counting);
        self.index = index;
        self.popular = counting.finish(partials);
        self.finished = true;
    }

    /// Gives back memory held for games to come; the order of the games is
    /// made again at the first scan that needs it.
    fn ready(&mut self) {
        self.entries.shrink_to_fit();
        self.moves.shrink_to_fit();
        self.whole.shrink_to_fit();
        self.strings.shrink_to_fit();
        self.sorted = std::sync::OnceLock::new();
    }

    /// The played games sorted by their moves ([`Sorted`]).
    fn sort(&self) -> Sorted {
        let key = |at: u32| {
            let e = &self.entries[at as usize];
            (self.start(e), self.legal_moves(e))
        };
        let mut order: Vec<u32> = (0..self.entries.len() as u32)
            .filter(|&at| self.entries[at as usize].played)
            .collect();
        order.par_sort_unstable_by(|&a, &b| {
            let (sa, ma) = key(a);
            let (sb, mb) = key(b);
            (
                sa.board().black().0,
                sa.board().white().0,
                sa.side_to_move() as u8,
                ma,
            )
                .cmp(&(
                    sb.board().black().0,
                    sb.board().white().0,
                    sb.side_to_move() as u8,
                    mb,
                ))
        });
        let mut shared = Vec::with_capacity(order.len());
        for (i, &at) in order.iter().enumerate() {
            let same = if i == 0 {
                None
            } else {
                let (sa, ma) = key(order[i - 1]);
                let (sb, mb) = key(at);
                (sa == sb).then(|| ma.iter().zip(mb).take_while(|(x, y)| x == y).count())
            };
            shared.push(match same {
                Some(n) => 1 + n.min(253) as u8,
                None => 0,
            });
        }
        Sorted { order, shared }
    }

    /// The position index of the games held ([`Index`]), each game
    /// replayed once, in parallel, and on the way the counts of the
    /// positions `counting` keeps ([`popular`]).
    fn build_index(&self, counting: &popular::Counting) -> (Index, popular::Partial) {
        let games = self.entries.len();
        if games == 0 {
            return (Index::default(), popular::Partial::default());
        }
        let mut hashes = vec![0u8; COLUMNS * games];
        // Each task writes its games' bytes in every column.
        let mut tasks: Vec<Vec<&mut [u8]>> = (0..games.div_ceil(CHUNK))
            .map(|_| Vec::with_capacity(COLUMNS))
            .collect();
        for column in hashes.chunks_mut(games) {
            for (task, part) in tasks.iter_mut().zip(column.chunks_mut(CHUNK)) {
                task.push(part);
            }
        }
        let counts = !counting.is_empty();
        let partials = tasks
            .into_par_iter()
            .enumerate()
            .map(|(task, mut parts)| {
                let mut partial = popular::Partial::default();
                let mut answered = Vec::new();
                let first = task * CHUNK;
                for (i, e) in self.entries[first..].iter().take(CHUNK).enumerate() {
                    if !e.played {
                        continue;
                    }
                    let mut note = |position: &Position| {
                        let discs = 64 - position.board().empty().count();
                        if let Some(c) = discs.checked_sub(INDEXED_FROM) {
                            parts[c as usize][i] = Index::hash(position.board());
                        }
                        counts && discs <= popular::DISCS
                    };
                    answered.clear();
                    let mut replay = Replay::new(self.start(e));
                    for &b in self.legal_moves(e) {
                        let before = *replay.position();
                        let counted = note(&before);
                        let mv = match Square::new(b) {
                            Some(square) => Move::Play(square),
                            None => Move::Pass,
                        };
                        // The moves are the replay's legal ones.
                        let ply = replay.play(mv, None).ok();
                        if counted {
                            counting.step(e, &before, ply.as_ref(), &mut answered, &mut partial);
                        }
                        if ply.is_none() {
                            break;
                        }
                    }
                    let last = *replay.position();
                    if note(&last) {
                        counting.step(e, &last, None, &mut answered, &mut partial);
                    }
                }
                partial
            })
            // Merged as the tasks end: each holds a count for every
            // position its games reached, thousands.
            .reduce(popular::Partial::default, popular::merge_counts);
        (Index { hashes, games }, partials)
    }

    /// The games that may reach `query`'s position, in input order, from
    /// the index: `None` when it has none for the position (before
    /// [`Database::finish`], or a board of fewer discs than it knows).
    fn candidates(&self, query: &PositionQuery) -> Option<Vec<u32>> {
        let column = self.index.column(query.discs())?;
        let hash = Index::hash(query.target().board());
        let parts: Vec<Vec<u32>> = column
            .par_chunks(CHUNK * 16)
            .enumerate()
            .map(|(chunk, bytes)| {
                let first = chunk * CHUNK * 16;
                bytes
                    .iter()
                    .enumerate()
                    .filter(|&(_, &h)| h == hash)
                    .map(|(i, _)| (first + i) as u32)
                    .collect()
            })
            .collect();
        Some(parts.concat())
    }

    /// The legal moves of a game, a byte each.
    fn legal_moves(&self, e: &Entry) -> &[u8] {
        let at = e.moves as usize;
        &self.moves[at..at + usize::from(e.legal)]
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
            status: e.end.status,
            winner: e.end.winner,
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

    /// Calls `each` with every game that passes the filters and reaches
    /// `query`, and where it did, in some order: with the games sorted
    /// ([`Database::finish`]), those that begin alike are replayed from
    /// where they part, in parallel a slice of the order at a time.
    fn scan<T, F>(
        &self,
        query: &PositionQuery,
        filter: &Filter,
        fresh: impl Fn() -> T + Sync + Send,
        each: F,
    ) -> Vec<T>
    where
        T: Send,
        F: Fn(&mut T, usize, &Hit) + Sync + Send,
    {
        if !self.finished {
            // Not finished: each game replayed alone.
            return self
                .entries
                .par_chunks(CHUNK)
                .enumerate()
                .map(|(chunk, entries)| {
                    let mut part = fresh();
                    for (i, e) in entries.iter().enumerate() {
                        if let Some(hit) = self.hit(e, query, filter) {
                            each(&mut part, chunk * CHUNK + i, &hit);
                        }
                    }
                    part
                })
                .collect();
        }
        let sorted = self.sorted.get_or_init(|| self.sort());
        sorted
            .order
            .par_chunks(CHUNK)
            .zip(sorted.shared.par_chunks(CHUNK))
            .map(|(order, shared)| {
                let mut part = fresh();
                let mut walk = Walk::default();
                for (&at, &same) in order.iter().zip(shared) {
                    walk.shared = walk.shared.min(same);
                    let e = &self.entries[at as usize];
                    if !filter.accepts_facts(&self.facts(e)) {
                        continue;
                    }
                    if let Some(position) = filter.position() {
                        if self.reaches(e, position).is_none() {
                            continue;
                        }
                    }
                    if let Some(hit) = walk.reaches(self.start(e), self.legal_moves(e), query) {
                        each(&mut part, at as usize, &hit);
                    }
                }
                part
            })
            .collect()
    }

    /// The games that reached `query`'s position (any symmetry, any move
    /// order) among those `filter` keeps, each with the move it played
    /// next: what [`Database::explore`] counts and [`Database::games`]
    /// lists, found once for both.
    #[must_use]
    pub fn lookup(&self, query: &PositionQuery, filter: &Filter) -> Lookup {
        if let Some(candidates) = self.candidates(query) {
            // Each candidate replayed alone, as a scan of unsorted games
            // does; already in input order.
            let hits = candidates
                .par_chunks(256)
                .flat_map_iter(|games| {
                    games.iter().filter_map(|&at| {
                        let e = &self.entries[at as usize];
                        self.hit(e, query, filter).map(|hit| (at, hit.next))
                    })
                })
                .collect();
            return Lookup {
                target: *query.target(),
                hits,
            };
        }
        self.scan_lookup(query, filter)
    }

    /// [`Database::lookup`] by a scan of every game.
    fn scan_lookup(&self, query: &PositionQuery, filter: &Filter) -> Lookup {
        let parts = self.scan(
            query,
            filter,
            Vec::new,
            |hits: &mut Vec<(u32, Option<Move>)>, at, hit| {
                hits.push((at as u32, hit.next));
            },
        );
        let mut hits: Vec<(u32, Option<Move>)> = parts.into_iter().flatten().collect();
        hits.par_sort_unstable_by_key(|h| h.0);
        Lookup {
            target: *query.target(),
            hits,
        }
    }

    /// Which games reached `query`'s position among those `filter` keeps,
    /// and what each played next: the answer of `kifu explore` over the
    /// same games.
    #[must_use]
    pub fn explore(&self, query: &PositionQuery, filter: &Filter) -> Explored {
        self.popular_explore(query, filter)
            .unwrap_or_else(|| self.lookup(query, filter).explored(self))
    }

    /// [`Database::explore`] without a replay, when the position is one
    /// many games reach (counted by [`Database::finish`]) and the filter
    /// keeps every game; `None` otherwise.
    #[must_use]
    pub fn popular_explore(&self, query: &PositionQuery, filter: &Filter) -> Option<Explored> {
        self.popular.explored(query, filter)
    }

    /// [`Database::games`] when [`Database::popular_explore`] knows the
    /// position: the total from its counts, the page from the games in
    /// input order, replayed until it is full.
    #[must_use]
    pub fn popular_games(
        &self,
        query: &PositionQuery,
        filter: &Filter,
        offset: u64,
        limit: usize,
    ) -> Option<Page> {
        let total = self.popular_explore(query, filter)?.games();
        let skip = usize::try_from(offset).unwrap_or(usize::MAX);
        let games = if offset >= total {
            Vec::new()
        } else {
            self.entries
                .iter()
                .filter(|e| self.hit(e, query, filter).is_some())
                .skip(skip)
                .take(limit)
                .map(|e| self.listing(e))
                .collect()
        };
        Some(Page { total, games })
    }

    /// The games that reached `query`'s position among those `filter`
    /// keeps, in input order: how many, and `limit` of them from
    /// `offset` on, as `kifu explore --games` lists them.
    #[must_use]
    pub fn games(&self, query: &PositionQuery, filter: &Filter, offset: u64, limit: usize) -> Page {
        self.popular_games(query, filter, offset, limit)
            .unwrap_or_else(|| self.lookup(query, filter).page(self, offset, limit))
    }

    fn listing(&self, e: &Entry) -> Listing {
        Listing {
            source: self.sources[usize::from(e.source)].clone(),
            index: e.index,
            black: self.text(e.black).map(str::to_owned),
            white: self.text(e.white).map(str::to_owned),
            year: (e.year != 0).then_some(e.year),
            result: Listing::result_text(e.end.status, e.end.winner, e.end.scores),
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
            .end
            .result
            .map(|(black, white)| RecordedResult::new(ResultValue::Discs { black, white }));
        record.theoretical_black_score = e.end.theoretical;
        record.theoretical_depth = e.end.depth;
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
