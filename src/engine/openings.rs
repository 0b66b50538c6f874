//! Opening names: the table of named openings and the classifier that
//! names a game's opening.
//!
//! A game's opening is the entry with the most moves whose position the
//! game reaches after the same number of moves, under the eight
//! symmetries and whatever the move order (see [`crate::PositionQuery`]
//! for what *reaches* means, passes included). No two entries reach the
//! same position, so the answer is never ambiguous.

use std::sync::OnceLock;

use crate::{Color, Move, Position, Replay, ReplayError, Square, Symmetry};

/// The table carried by the crate: name, moves from the start, other
/// names.
const BUILTIN: &str = include_str!("openings.tsv");

/// A named opening: a line of moves from the standard start.
///
/// ```
/// use kifu::Openings;
/// let tiger = Openings::builtin().get("Tiger").unwrap();
/// assert_eq!(tiger.moves().len(), 5);
/// assert_eq!(tiger.moves()[4].to_string(), "c4");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    name: String,
    moves: Vec<Square>,
    aliases: Vec<String>,
    position: Position,
}

impl Opening {
    /// The name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The moves from the standard start (no pass).
    #[must_use]
    pub fn moves(&self) -> &[Square] {
        &self.moves
    }

    /// Other names the lists give the same line.
    #[must_use]
    pub fn aliases(&self) -> &[String] {
        &self.aliases
    }

    /// The position after the moves.
    #[must_use]
    pub fn position(&self) -> &Position {
        &self.position
    }
}

/// Why a table of openings cannot be used.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum OpeningsError {
    /// A line is not `name<TAB>moves[<TAB>aliases]`.
    #[error("line {line}: expected a name, a tab and moves")]
    Fields {
        /// 1-based line number.
        line: usize,
    },
    /// An entry has no moves.
    #[error("line {line}: the opening has no moves")]
    NoMoves {
        /// 1-based line number.
        line: usize,
    },
    /// A move is not a square or not legal.
    #[error("line {line}: {error}")]
    Move {
        /// 1-based line number.
        line: usize,
        /// The move and what is wrong with it.
        error: ReplayError,
    },
    /// Two entries reach the same position.
    #[error("line {line}: {name:?} reaches the position of {other:?}")]
    SamePosition {
        /// 1-based line number of the later entry.
        line: usize,
        /// Its name.
        name: String,
        /// The name of the earlier entry.
        other: String,
    },
}

/// A table of named openings, indexed by position for the classifier.
///
/// Every image of every entry's position sits in a small open-addressing
/// table keyed by its discs, so naming a game costs one probe per move
/// and no allocation. It stops once no entry can still be reached (no
/// entry's squares-occupied set holds every square the game has taken),
/// or after as many moves as the longest entry has.
///
/// ```
/// use kifu::{Move, Openings, Position};
/// let book = Openings::builtin();
/// // The Tiger (f5d6c3d3c4) turned half way round, and one move more.
/// let moves = ["c4", "e3", "f6", "e6", "f5", "b6"].map(|m| Move::Play(m.parse().unwrap()));
/// let opening = book.classify(Position::start(), moves).unwrap();
/// assert_eq!(opening.name(), "Tiger");
/// ```
#[derive(Clone, Debug)]
pub struct Openings {
    entries: Vec<Opening>,
    /// `fingerprints[i]` is zero for an empty slot, else a few bits of the
    /// hash of `slots[i]`'s board: a miss, the common case, reads 2 bytes.
    fingerprints: Box<[u16]>,
    slots: Box<[Slot]>,
    /// Bits of the hash that pick a slot.
    shift: u32,
    /// Moves of the longest entry.
    longest: u32,
    /// `covers[s]`: the [`Cover`] bits of the boards that hold square
    /// `s`; `None` for a table with more than [`COVER_BITS`] of them.
    covers: Option<Box<[Cover; 64]>>,
    /// The classifier of a game from the standard start, made once: every
    /// game's own begins as its copy.
    standard: Option<(u32, Cover)>,
}

/// A set of the squares-occupied sets of the entries' boards (every
/// image), as bits; those inside another are left out.
///
/// A game's discs never leave a square, so once no such set holds every
/// square the game has occupied, no later position of the game is any
/// entry's: its opening is named, long before the longest entry's move
/// count on most games (the corpus's WTHOR games: after 12.4 positions on
/// average instead of 23.9).
type Cover = [u64; 8];

/// The most sets a [`Cover`] holds.
const COVER_BITS: usize = 64 * 8;

/// One image of an entry's position.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    black: u64,
    white: u64,
    /// The entry's index.
    entry: u32,
    /// Whether White is to move in the entry's position.
    white_to_move: bool,
}

/// Hash of a board: the slot from the top bits, the fingerprint from
/// the 16 below them (never zero). The top bits of a product depend on
/// every bit of the board.
#[inline(always)]
fn hash(black: u64, white: u64) -> (u16, u64) {
    let h = (black ^ white.rotate_left(29)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    ((h >> 32) as u16 | 1, h)
}

impl Openings {
    /// The table carried by the crate (89 openings from the lists of
    /// Zebra, Robert Gatliff, NBoard, Edax and Egaroucid), built on first
    /// use.
    #[must_use]
    pub fn builtin() -> &'static Openings {
        static TABLE: OnceLock<Openings> = OnceLock::new();
        // The embedded table is fixed at build time and read by the test
        // `builtin_table_is_valid`.
        TABLE.get_or_init(|| Openings::parse(BUILTIN).expect("valid table")) // ok: tested
    }

    /// Reads a table: one entry a line, `name<TAB>moves`, optionally a
    /// third column of other names separated by `, `; the moves are
    /// squares from the standard start (`f5d6c3`); `#` lines, blank
    /// lines and a header line starting with `name<TAB>` are skipped.
    ///
    /// Fails on an illegal move, an entry without moves, or two entries
    /// that reach the same position under a symmetry.
    pub fn parse(text: &str) -> Result<Openings, OpeningsError> {
        let mut entries = Vec::new();
        let mut lines = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line_number = i + 1;
            if line.trim().is_empty() || line.starts_with('#') || line.starts_with("name\t") {
                continue;
            }
            let mut fields = line.split('\t');
            let (Some(name), Some(moves)) = (fields.next(), fields.next()) else {
                return Err(OpeningsError::Fields { line: line_number });
            };
            let aliases = fields
                .next()
                .unwrap_or("")
                .split(", ")
                .filter(|a| !a.trim().is_empty())
                .map(|a| a.trim().to_owned())
                .collect();
            let (moves, position) = replay(moves.trim()).map_err(|error| match error {
                Some(error) => OpeningsError::Move {
                    line: line_number,
                    error,
                },
                None => OpeningsError::NoMoves { line: line_number },
            })?;
            entries.push(Opening {
                name: name.trim().to_owned(),
                moves,
                aliases,
                position,
            });
            lines.push(line_number);
        }
        Openings::index(entries, &lines)
    }

    /// Builds the position index; `lines` are the entries' line numbers.
    fn index(entries: Vec<Opening>, lines: &[usize]) -> Result<Openings, OpeningsError> {
        let images = entries.len() * 8;
        let size = (images * 3).next_power_of_two().max(64);
        let mut book = Openings {
            fingerprints: vec![0; size].into_boxed_slice(),
            slots: vec![Slot::default(); size].into_boxed_slice(),
            shift: 64 - size.trailing_zeros(),
            longest: 0,
            covers: None,
            standard: None,
            entries: Vec::new(),
        };
        for (index, entry) in entries.iter().enumerate() {
            for s in Symmetry::ALL {
                let board = entry.position.board().transform(s);
                let (black, white) = (board.black().0, board.white().0);
                match book.probe(black, white) {
                    Some(slot) if slot.entry as usize == index => {}
                    Some(slot) => {
                        return Err(OpeningsError::SamePosition {
                            line: lines[index],
                            name: entry.name.clone(),
                            other: entries[slot.entry as usize].name.clone(),
                        })
                    }
                    None => book.insert(Slot {
                        black,
                        white,
                        entry: index as u32,
                        white_to_move: entry.position.side_to_move() == Color::White,
                    }),
                }
            }
            book.longest = book.longest.max(entry.moves.len() as u32);
        }
        book.entries = entries;
        book.covers = book.covers();
        let start = book.fresh_classifier(&Position::start());
        book.standard = Some((start.last_discs, start.candidates));
        Ok(book)
    }

    /// The [`Cover`] bits of each square, over the squares-occupied sets
    /// of the slots that no other slot's contains.
    fn covers(&self) -> Option<Box<[Cover; 64]>> {
        let mut sets: Vec<u64> = self
            .fingerprints
            .iter()
            .zip(self.slots.iter())
            .filter(|&(&f, _)| f != 0)
            .map(|(_, slot)| slot.black | slot.white)
            .collect();
        sets.sort_unstable();
        sets.dedup();
        if sets.len() > 16 * COVER_BITS {
            // Too many to compare pairwise, and likely to cover.
            return None;
        }
        let inside_another = |set: u64| sets.iter().any(|&o| o != set && o & set == set);
        let outer: Vec<u64> = sets
            .iter()
            .copied()
            .filter(|&set| !inside_another(set))
            .collect();
        if outer.len() > COVER_BITS {
            return None;
        }
        let mut covers = Box::new([[0u64; 8]; 64]);
        for (bit, set) in outer.iter().enumerate() {
            for (square, cover) in covers.iter_mut().enumerate() {
                if set >> square & 1 != 0 {
                    cover[bit / 64] |= 1 << (bit % 64);
                }
            }
        }
        Some(covers)
    }

    fn insert(&mut self, slot: Slot) {
        let (fingerprint, h) = hash(slot.black, slot.white);
        let mask = self.fingerprints.len() - 1;
        let mut at = (h >> self.shift) as usize & mask;
        while self.fingerprints[at] != 0 {
            at = (at + 1) & mask;
        }
        self.fingerprints[at] = fingerprint;
        self.slots[at] = slot;
    }

    /// The slot of this board, if it is an image of an entry's.
    #[inline]
    fn probe(&self, black: u64, white: u64) -> Option<&Slot> {
        let (fingerprint, h) = hash(black, white);
        let mask = self.fingerprints.len() - 1;
        let mut at = (h >> self.shift) as usize & mask;
        loop {
            let found = self.fingerprints[at];
            if found == 0 {
                return None;
            }
            let slot = &self.slots[at];
            if found == fingerprint && slot.black == black && slot.white == white {
                return Some(slot);
            }
            at = (at + 1) & mask;
        }
    }

    /// The entries in the order of the table.
    #[must_use]
    pub fn entries(&self) -> &[Opening] {
        &self.entries
    }

    /// The entry of this name (exact, or in another case), if any.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&Opening> {
        self.entries
            .iter()
            .find(|e| e.name.eq_ignore_ascii_case(name))
    }

    /// Moves of the longest entry: no game is named by what it plays later.
    #[must_use]
    pub fn longest(&self) -> u32 {
        self.longest
    }

    /// The entry whose position this is, under a symmetry, after as many
    /// moves from the standard start as the position has discs past the
    /// start's four. A position whose side to move has to pass also
    /// stands for the position after the pass.
    #[inline(always)]
    #[must_use]
    pub fn lookup(&self, position: &Position) -> Option<&Opening> {
        // Most positions are no entry's: their first slot is empty, which
        // is seen here without a call.
        let board = position.board();
        let (_, h) = hash(board.black().0, board.white().0);
        let first = (h >> self.shift) as usize & (self.fingerprints.len() - 1);
        if self.fingerprints.get(first).is_none_or(|&f| f == 0) {
            return None;
        }
        self.lookup_probed(position)
    }

    /// [`Openings::lookup`] once the first slot is not empty.
    #[inline(never)]
    fn lookup_probed(&self, position: &Position) -> Option<&Opening> {
        let board = position.board();
        let slot = self.probe(board.black().0, board.white().0)?;
        let same_side = slot.white_to_move == (position.side_to_move() == Color::White);
        let reached = same_side || (!position.has_moves() && position.opponent_has_moves());
        reached.then(|| &self.entries[slot.entry as usize])
    }

    /// A classifier for one game starting at `start`. Only a game that
    /// starts with four discs (the standard start or one of its images)
    /// can have an opening; from any other start the classifier names
    /// none.
    #[must_use]
    pub fn classifier(&self, start: &Position) -> OpeningClassifier<'_> {
        match self.standard {
            Some((last_discs, candidates)) if *start == Position::start() => OpeningClassifier {
                book: self,
                best: None,
                last_discs,
                discs: 4,
                occupied: !Position::start().board().empty().0,
                candidates,
            },
            _ => self.fresh_classifier(start),
        }
    }

    /// [`Openings::classifier`] worked out from the start's squares.
    fn fresh_classifier(&self, start: &Position) -> OpeningClassifier<'_> {
        let discs = 64 - start.board().empty().count();
        let board = start.board();
        let occupied = board.black().0 | board.white().0;
        let mut classifier = OpeningClassifier {
            book: self,
            best: None,
            last_discs: if discs == 4 { 4 + self.longest } else { 0 },
            discs,
            occupied: 0,
            // Every set; the bits past the last set are cleared by the
            // first square (a start of four discs has four).
            candidates: [u64::MAX; 8],
        };
        if !classifier.occupy(occupied) {
            classifier.last_discs = 0;
        }
        classifier
    }

    /// Replays `moves` from `start` (up to the first illegal one) and
    /// names the opening.
    pub fn classify<I>(&self, start: Position, moves: I) -> Option<&Opening>
    where
        I: IntoIterator<Item = Move>,
    {
        let mut classifier = self.classifier(&start);
        let mut replay = Replay::new(start);
        for mv in moves {
            if replay.play(mv, None).is_err() || !classifier.push(replay.position()) {
                break;
            }
        }
        classifier.opening()
    }
}

/// Names the opening of one game fed position by position.
///
/// Feed it the position after every move, in order (after a pass too,
/// or not: a position met twice counts once) until [`OpeningClassifier::push`] says
/// `false`; then [`OpeningClassifier::opening`] is the entry with the most moves
/// that the game reached.
///
/// ```
/// use kifu::{Move, Openings, Position, Replay};
/// let book = Openings::builtin();
/// let mut classifier = book.classifier(&Position::start());
/// let mut replay = Replay::new(Position::start());
/// for name in ["f5", "f6", "e6", "f4", "e3"] {
///     replay.play(Move::Play(name.parse()?), None)?;
///     if !classifier.push(replay.position()) {
///         break;
///     }
/// }
/// assert_eq!(classifier.opening().unwrap().name(), "Cow");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct OpeningClassifier<'a> {
    book: &'a Openings,
    best: Option<&'a Opening>,
    /// Discs on the board after the longest entry; zero when the game
    /// cannot have an opening.
    last_discs: u32,
    /// Discs on the board last pushed, and its occupied squares: each
    /// move adds one disc, so a change of squares counts one (no
    /// population count in the loop).
    discs: u32,
    occupied: u64,
    /// The squares-occupied sets of the book ([`Cover`]) that hold every
    /// square occupied so far.
    candidates: Cover,
}

impl<'a> OpeningClassifier<'a> {
    /// Looks at the position after a move. Returns whether a later
    /// position could still name the opening.
    #[inline(always)]
    pub fn push(&mut self, position: &Position) -> bool {
        let board = position.board();
        let occupied = board.black().0 | board.white().0;
        if occupied != self.occupied {
            self.discs += 1;
            if !self.occupy(occupied) {
                // No entry's board holds these squares, nor a later one's.
                self.last_discs = 0;
            }
        }
        let discs = self.discs;
        if discs > self.last_discs {
            return false;
        }
        if let Some(entry) = self.book.lookup(position) {
            self.best = Some(entry);
        }
        discs < self.last_discs
    }

    /// Notes the squares of `occupied` taken since the last position;
    /// whether an entry's board still holds them all.
    #[inline(always)]
    fn occupy(&mut self, occupied: u64) -> bool {
        let mut new = occupied & !self.occupied;
        self.occupied = occupied;
        let Some(covers) = &self.book.covers else {
            return true;
        };
        while new != 0 {
            let cover = &covers[new.trailing_zeros() as usize & 63];
            for (candidates, cover) in self.candidates.iter_mut().zip(cover) {
                *candidates &= cover;
            }
            new &= new - 1;
        }
        self.candidates.iter().any(|&c| c != 0)
    }

    /// The entry with the most moves reached so far.
    #[must_use]
    pub fn opening(&self) -> Option<&'a Opening> {
        self.best
    }
}

/// The squares of a concatenated move list and the position after them;
/// `None` for an empty list.
fn replay(moves: &str) -> Result<(Vec<Square>, Position), Option<ReplayError>> {
    let mut replay = Replay::new(Position::start());
    let mut squares = Vec::with_capacity(moves.len() / 2);
    for pair in moves.as_bytes().chunks(2) {
        let Some(square) = Square::from_ascii(pair) else {
            return Err(Some(replay.unreadable(&String::from_utf8_lossy(pair))));
        };
        replay.play(Move::Play(square), None)?;
        squares.push(square);
    }
    if squares.is_empty() {
        return Err(None);
    }
    Ok((squares, *replay.position()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{corpus, Rng};

    /// The symmetries that keep the standard start, so map legal games
    /// to legal games.
    const KEEP_START: [Symmetry; 4] = [
        Symmetry::Identity,
        Symmetry::Rotate180,
        Symmetry::FlipDiagonal,
        Symmetry::FlipAntiDiagonal,
    ];

    fn plays(squares: &[Square], s: Symmetry) -> Vec<Move> {
        squares
            .iter()
            .map(|sq| Move::Play(sq.transform(s)))
            .collect()
    }

    fn name_of(opening: Option<&Opening>) -> Option<&str> {
        opening.map(Opening::name)
    }

    /// Names a game the slow way: after every move, the position against
    /// every image of every entry of as many moves.
    struct Brute<'a> {
        /// (moves, images of the position) of every entry.
        entries: Vec<(usize, [Position; 8], &'a Opening)>,
    }

    impl<'a> Brute<'a> {
        fn new(book: &'a Openings) -> Brute<'a> {
            let entries = book
                .entries()
                .iter()
                .map(|e| {
                    let images = Symmetry::ALL.map(|s| e.position().transform(s));
                    (e.moves().len(), images, e)
                })
                .collect();
            Brute { entries }
        }

        fn classify(&self, start: Position, moves: &[Move]) -> Option<&'a Opening> {
            if start.board().black().count() + start.board().white().count() != 4 {
                return None;
            }
            let mut replay = Replay::new(start);
            let mut best = None;
            for &mv in moves {
                if replay.play(mv, None).is_err() {
                    break;
                }
                let pos = *replay.position();
                let placed = replay.placed() as usize;
                let stuck = !pos.has_moves() && pos.opponent_has_moves();
                for (len, images, entry) in &self.entries {
                    if *len != placed {
                        continue;
                    }
                    let reached = images.iter().any(|image| {
                        image.board() == pos.board()
                            && (image.side_to_move() == pos.side_to_move() || stuck)
                    });
                    if reached {
                        best = Some(*entry);
                    }
                }
            }
            best
        }
    }

    #[test]
    fn builtin_table_is_valid() {
        let book = Openings::parse(BUILTIN).unwrap();
        assert_eq!(book.entries().len(), 89);
        assert_eq!(book.longest(), 23);
        let heath = book.get("heath").unwrap();
        assert_eq!(heath.name(), "Heath");
        assert_eq!(heath.aliases(), ["Jumping Out", "Tobidashi"]);
        assert!(book.get("Tiger").unwrap().aliases().is_empty());
        assert_eq!(book.entries()[0].name(), "Perpendicular Opening");
        assert_eq!(Openings::builtin().entries(), book.entries());
    }

    #[test]
    fn every_entry_replays_from_the_start_without_a_pass() {
        for entry in Openings::builtin().entries() {
            let mut replay = Replay::new(Position::start());
            for &square in entry.moves() {
                let ply = replay.play(Move::Play(square), None).unwrap();
                assert!(!ply.implicit_pass, "{}", entry.name());
            }
            assert_eq!(replay.position(), entry.position(), "{}", entry.name());
            assert!(entry.position().has_moves(), "{}", entry.name());
        }
    }

    #[test]
    fn no_two_entries_reach_the_same_position() {
        let mut keys = std::collections::HashMap::new();
        for entry in Openings::builtin().entries() {
            let key = entry.position().canonical_key();
            if let Some(other) = keys.insert(key, entry.name()) {
                panic!("{} and {other} reach the same position", entry.name());
            }
        }
    }

    #[test]
    fn the_table_reader_says_what_is_wrong() {
        let err = |text: &str| Openings::parse(text).unwrap_err().to_string();
        assert_eq!(
            err("A\tf5d6\nB\tc4e3"),
            "line 2: \"B\" reaches the position of \"A\""
        );
        assert_eq!(
            err("# c\nname\tmoves\nA\tf5a1"),
            "line 3: move 2 (white) a1: flips nothing"
        );
        assert_eq!(err("A\tf5z9"), "line 1: move 2 (white) z9: not a square");
        assert_eq!(err("A\tf5\nB"), "line 2: expected a name, a tab and moves");
        assert_eq!(err("A\t"), "line 1: the opening has no moves");
        let book = Openings::parse("A\tf5d6\tB, C\n\nD\tf5d6c3\n").unwrap();
        assert_eq!(book.entries()[0].aliases(), ["B", "C"]);
        assert_eq!(book.longest(), 3);
    }

    /// Another order of an entry's moves that reaches its position.
    fn transposition(entry: &Opening) -> Option<Vec<Square>> {
        fn search(
            pos: Position,
            rest: &mut Vec<Square>,
            order: &mut Vec<Square>,
            entry: &Opening,
            budget: &mut u32,
        ) -> bool {
            if rest.is_empty() {
                return pos == *entry.position() && order != entry.moves();
            }
            for i in 0..rest.len() {
                if *budget == 0 {
                    return false;
                }
                *budget -= 1;
                let square = rest[i];
                let mut next = pos;
                if next.play(square).is_err() {
                    continue;
                }
                rest.remove(i);
                order.push(square);
                if search(next, rest, order, entry, budget) {
                    return true;
                }
                order.pop();
                rest.insert(i, square);
            }
            false
        }
        let mut rest = entry.moves().to_vec();
        let mut order = Vec::new();
        let mut budget = 200_000;
        search(Position::start(), &mut rest, &mut order, entry, &mut budget).then_some(order)
    }

    #[test]
    fn a_transposed_and_turned_line_gets_the_entry() {
        let book = Openings::builtin();
        let mut found = 0;
        for entry in book.entries() {
            let Some(order) = transposition(entry) else {
                continue;
            };
            found += 1;
            for s in KEEP_START {
                let named = book.classify(Position::start(), plays(&order, s));
                assert_eq!(name_of(named), Some(entry.name()), "{order:?} {s:?}");
                let named = book.classify(Position::start(), plays(entry.moves(), s));
                assert_eq!(name_of(named), Some(entry.name()), "{s:?}");
            }
        }
        eprintln!("{found} entries with a transposition");
        assert!(found >= 20, "{found} entries with a transposition");
    }

    #[test]
    fn a_game_that_leaves_the_book_gets_the_longest_entry_it_reached() {
        let book = Openings::builtin();
        let mut checked = 0;
        for entry in book.entries() {
            for square in entry.position().legal_moves() {
                let mut after = *entry.position();
                after.play(square).unwrap();
                if book.lookup(&after).is_some() {
                    continue;
                }
                let mut moves = entry.moves().to_vec();
                moves.push(square);
                for s in KEEP_START {
                    let named = book.classify(Position::start(), plays(&moves, s));
                    assert_eq!(name_of(named), Some(entry.name()), "{moves:?}");
                }
                checked += 1;
            }
        }
        assert!(checked > 500, "{checked}");
        // The Cow, then an illegal move: named by the moves before it.
        let moves = ["f5", "f6", "e6", "f4", "e3", "h1", "d6"].map(|m| m.parse().unwrap());
        let named = book.classify(Position::start(), plays(&moves, Symmetry::Identity));
        assert_eq!(name_of(named), Some("Cow"));
        let named = book.classify(Position::start(), plays(&moves[..1], Symmetry::Identity));
        assert_eq!(name_of(named), None);
    }

    #[test]
    fn no_opening_from_a_start_with_other_than_four_discs() {
        let book = Openings::builtin();
        let mut start = Position::start();
        start.play("f5".parse().unwrap()).unwrap();
        let moves = plays(
            &["d6", "c3", "d3", "c4"].map(|m| m.parse().unwrap()),
            Symmetry::Identity,
        );
        assert_eq!(name_of(book.classify(start, moves)), None);
        let mut classifier = book.classifier(&start);
        assert!(!classifier.push(&start));
    }

    /// Seeded games that follow an entry, turned and sometimes transposed
    /// or left early, then go on at random.
    fn bookish_game(rng: &mut Rng, book: &Openings) -> Vec<Move> {
        let entries = book.entries();
        let entry = &entries[rng.below(entries.len())];
        let s = KEEP_START[rng.below(4)];
        let mut line: Vec<Square> = entry.moves().iter().map(|sq| sq.transform(s)).collect();
        if rng.chance(30) && line.len() > 2 {
            let i = 1 + rng.below(line.len() - 2);
            line.swap(i, i + 1);
        }
        line.truncate(line.len() - rng.below(3).min(line.len()));
        let mut pos = Position::start();
        let mut moves = Vec::new();
        while !pos.is_game_over() && moves.len() < 40 {
            let next = line
                .get(moves.len())
                .copied()
                .filter(|&sq| !pos.flips(sq).is_empty());
            let legal: Vec<Square> = pos.legal_moves().into_iter().collect();
            let mv = match next {
                Some(sq) if rng.chance(95) => Move::Play(sq),
                _ if legal.is_empty() => Move::Pass,
                _ => Move::Play(legal[rng.below(legal.len())]),
            };
            match mv {
                Move::Play(sq) => {
                    pos.play(sq).unwrap();
                }
                Move::Pass => pos.pass(),
            }
            moves.push(mv);
        }
        moves
    }

    #[test]
    fn agrees_with_brute_force_on_seeded_games() {
        let book = Openings::builtin();
        let brute = Brute::new(book);
        let mut rng = Rng::new(2026);
        let mut named = 0;
        for i in 0..4000 {
            let game = if i % 4 == 0 {
                // Wholly random.
                let mut pos = Position::start();
                let mut moves = Vec::new();
                while moves.len() < 30 && pos.has_moves() {
                    let legal: Vec<Square> = pos.legal_moves().into_iter().collect();
                    let sq = legal[rng.below(legal.len())];
                    pos.play(sq).unwrap();
                    moves.push(Move::Play(sq));
                }
                moves
            } else {
                bookish_game(&mut rng, book)
            };
            let fast = book.classify(Position::start(), game.iter().copied());
            let slow = brute.classify(Position::start(), &game);
            assert_eq!(name_of(fast), name_of(slow), "{game:?}");
            named += usize::from(fast.is_some());
        }
        assert!(named > 2500, "{named}");
    }

    /// The moves of every game of the corpus's WTHOR files, up to the
    /// first unreadable one.
    fn corpus_games() -> Option<Vec<(Position, Vec<Move>)>> {
        let dir = corpus()?;
        let mut files = Vec::new();
        crate::testkit::wtb_files(&dir.join("wthor"), &mut files);
        let mut games = Vec::new();
        for file in files {
            let reader = crate::formats::wthor::Reader::open(&file).unwrap();
            for record in reader.flatten() {
                let moves = record
                    .moves
                    .iter()
                    .map_while(|m| match m.token {
                        crate::Token::Move(mv) => Some(mv),
                        crate::Token::Unreadable => None,
                    })
                    .collect();
                games.push((record.start, moves));
            }
        }
        Some(games)
    }

    #[test]
    fn agrees_with_brute_force_on_the_corpus() {
        let Some(games) = corpus_games() else { return };
        let book = Openings::builtin();
        let brute = Brute::new(book);
        let mut named = 0;
        for (start, moves) in &games {
            let fast = book.classify(*start, moves.iter().copied());
            let slow = brute.classify(*start, moves);
            assert_eq!(name_of(fast), name_of(slow), "{moves:?}");
            named += usize::from(fast.is_some());
        }
        eprintln!("{named} of {} corpus games named", games.len());
        assert!(games.len() > 100_000 && named * 10 > games.len() * 9);
    }

    /// Positions a classifier looks at before it says no later one can
    /// name the opening.
    fn pushes(book: &Openings, start: Position, moves: &[Move]) -> usize {
        let mut classifier = book.classifier(&start);
        let mut replay = Replay::new(start);
        let mut pushed = 0;
        for &mv in moves {
            if replay.play(mv, None).is_err() {
                break;
            }
            pushed += 1;
            if !classifier.push(replay.position()) {
                break;
            }
        }
        pushed
    }

    #[test]
    fn the_standard_start_classifier_is_the_one_worked_out() {
        let book = Openings::builtin();
        let (kept, fresh) = (
            book.classifier(&Position::start()),
            book.fresh_classifier(&Position::start()),
        );
        let parts = |c: &OpeningClassifier<'_>| (c.last_discs, c.discs, c.occupied, c.candidates);
        assert_eq!(parts(&kept), parts(&fresh));
        assert_eq!((fresh.discs, fresh.last_discs), (4, 4 + book.longest));
    }

    #[test]
    fn stops_once_no_entry_holds_the_squares_taken() {
        let book = Openings::builtin();
        assert!(book.covers.is_some());
        // The Tiger's squares are inside longer entries' (Aubrey,
        // f5d6c3d3c4b3); with a1's corner they are inside none.
        let tiger = ["f5", "d6", "c3", "d3", "c4"].map(|m| Move::Play(m.parse().unwrap()));
        assert_eq!(pushes(book, Position::start(), &tiger), 5);
        let mut classifier = book.classifier(&Position::start());
        let mut replay = Replay::new(Position::start());
        for &mv in &tiger {
            replay.play(mv, None).unwrap();
            assert!(classifier.push(replay.position()));
        }
        assert!(!classifier.occupy(classifier.occupied | 1));
        assert_eq!(classifier.opening().map(Opening::name), Some("Tiger"));

        let Some(games) = corpus_games() else { return };
        let total: usize = games
            .iter()
            .map(|(start, moves)| pushes(book, *start, moves))
            .sum();
        // Without the cover, every game is looked at for as many moves as
        // the longest entry has, and one more.
        let longest = book.longest() as usize + 1;
        let uncovered: usize = games
            .iter()
            .map(|(_, moves)| moves.len().min(longest))
            .sum();
        let mean = |n: usize| n as f64 / games.len() as f64;
        eprintln!(
            "{:.1} positions looked at a corpus game, not {:.1}",
            mean(total),
            mean(uncovered)
        );
        assert!(total * 3 < uncovered * 2, "{total} {uncovered}");
    }

    #[test]
    fn a_book_too_large_to_cover_names_the_same() {
        // 700 random lines of 12 moves: over 512 squares-occupied sets.
        let mut rng = Rng::new(7);
        let mut text = String::new();
        for n in 0..700 {
            let mut pos = Position::start();
            let mut line = String::new();
            while line.len() < 24 && pos.has_moves() {
                let legal: Vec<Square> = pos.legal_moves().into_iter().collect();
                let sq = legal[rng.below(legal.len())];
                pos.play(sq).unwrap();
                line.push_str(&sq.to_string());
            }
            text.push_str(&format!("line {n}\t{line}\n"));
        }
        // Lines that meet the same position under a symmetry are refused.
        let book = loop {
            match Openings::parse(&text) {
                Ok(book) => break book,
                Err(OpeningsError::SamePosition { line, .. }) => {
                    let drop = text.lines().nth(line - 1).unwrap().to_owned() + "\n";
                    text = text.replacen(&drop, "", 1);
                }
                Err(e) => panic!("{e}"),
            }
        };
        assert!(book.covers.is_none());
        let brute = Brute::new(&book);
        for _ in 0..300 {
            let game = bookish_game(&mut rng, &book);
            let fast = book.classify(Position::start(), game.iter().copied());
            let slow = brute.classify(Position::start(), &game);
            assert_eq!(name_of(fast), name_of(slow), "{game:?}");
        }
    }
}
