//! The positions many games reach, counted once when the database is
//! finished: the openings, which nearly every game of an archive passes
//! through, would otherwise have a lookup replay most of the games.
//!
//! A sample of the games (every [`Rule::every`]-th) chooses the boards of
//! at most [`DISCS`] discs that about [`Rule::min`] × `every` games stand
//! on, and with each all its images (so that a position is answered from
//! here for every image games stand on, or not at all). Then, as
//! [`Database::finish`] replays every game for the position index, each
//! position of a kept board is checked by [`PositionQuery::step`] for a
//! query on that board exactly, for either side to move: the counts are
//! what a lookup of that board finds, next moves as the games played
//! them. A lookup of a position whose images are all kept adds their
//! counts, each image's moves turned by the symmetry the query maps that
//! image by ([`PositionQuery::matches`]) — what the lookup's replay does
//! game by game — so the answer is the lookup's, to the game. The sample
//! only chooses which positions are kept; the counts are exact.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use rayon::prelude::*;

use super::explore::{self, Explored};
use super::saved::{put, Checked, SavedIndexError};
use super::{Database, Entry};
use crate::engine::hash::PairHasher;
use crate::record::select::Filter;
use crate::record::select::Results;
use crate::{Board, Color, Move, Ply, Position, PositionQuery, Replay, Square, Symmetry};

/// Positions of at most this many discs are kept (18 moves from the
/// start): later ones that thousands of games share are rare.
pub(super) const DISCS: u32 = 22;

/// Which boards are kept: those at least `min` games of a sample of every
/// `every`-th game stand on.
#[derive(Clone, Copy, Debug)]
pub(super) struct Rule {
    pub every: usize,
    pub min: u32,
}

impl Default for Rule {
    /// About 2,000 games of any number: such a position's lookup would
    /// replay that many games; fewer take a few milliseconds. A sample of
    /// one game in 64 keeps the counting of boards small (the sample's
    /// games' first 18 moves).
    fn default() -> Rule {
        Rule { every: 64, min: 32 }
    }
}

type Key = (u64, u64);
type Map<V> = HashMap<Key, V, BuildHasherDefault<PairHasher>>;

fn key(board: &Board) -> Key {
    (board.black().0, board.white().0)
}

/// The games that reached one board with one side to move and the moves
/// they played next, as they played them.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Tally {
    reached: Results,
    /// By move: the squares' indices, then 64 for a pass.
    rows: Vec<(u8, Results)>,
}

impl Tally {
    fn add(&mut self, next: Option<Move>, e: &Entry) {
        let (winner, score) = (e.end.winner, e.end.scores.map(|s| s.0));
        self.reached.add(winner, score);
        if let Some(mv) = next {
            let slot = mv.slot();
            match self.rows.iter_mut().find(|(s, _)| *s == slot) {
                Some((_, results)) => results.add(winner, score),
                None => {
                    let mut results = Results::default();
                    results.add(winner, score);
                    self.rows.push((slot, results));
                }
            }
        }
    }

    fn merge(&mut self, other: &Tally) {
        explore::merge(&mut self.reached, &other.reached);
        for (slot, results) in &other.rows {
            match self.rows.iter_mut().find(|(s, _)| s == slot) {
                Some((_, mine)) => explore::merge(mine, results),
                None => self.rows.push((*slot, *results)),
            }
        }
    }
}

/// The boards kept and their counts; see the module.
#[derive(Debug, Default, PartialEq)]
pub(super) struct Popular {
    /// Each board kept, as games stand on it, and its number.
    boards: Map<u32>,
    /// For each board, with Black and with White to move.
    tallies: Vec<[Tally; 2]>,
}

/// While the games are replayed: the queries of the boards kept.
pub(super) struct Counting {
    boards: Map<u32>,
    queries: Vec<[PositionQuery; 2]>,
}

/// One task's counts, by board and side.
pub(super) type Partial = HashMap<(u32, usize), Tally, BuildHasherDefault<PairHasher>>;

/// Two tasks' counts together.
pub(super) fn merge_counts(a: Partial, b: Partial) -> Partial {
    let (mut a, b) = if a.len() < b.len() { (b, a) } else { (a, b) };
    for (k, tally) in b {
        a.entry(k).or_default().merge(&tally);
    }
    a
}

impl Counting {
    /// Chooses the boards to keep from a sample of `db`'s games.
    pub(super) fn choose(db: &Database, rule: Rule) -> Counting {
        let sampled: Map<u32> = db
            .entries
            .par_iter()
            .step_by(rule.every.max(1))
            .filter(|e| e.played)
            .fold(Map::default, |mut seen, e| {
                db.walk(e, |position, _| {
                    *seen.entry(key(position.board())).or_insert(0) += 1;
                });
                seen
            })
            .reduce(Map::default, |a, b| {
                let (mut a, b) = if a.len() < b.len() { (b, a) } else { (a, b) };
                for (k, n) in b {
                    *a.entry(k).or_insert(0) += n;
                }
                a
            });
        let mut kept: Vec<(Key, Board)> = Vec::new();
        for (&(black, white), _) in sampled.iter().filter(|&(_, &n)| n >= rule.min) {
            // The keys are boards games stood on: never two discs on a
            // square.
            let Some(board) = Board::new(crate::Bitboard(black), crate::Bitboard(white)) else {
                continue;
            };
            {
                kept.extend(Symmetry::ALL.iter().map(|&s| {
                    let image = board.transform(s);
                    (key(&image), image)
                }));
            }
        }
        drop(sampled);
        kept.sort_unstable_by_key(|&(k, _)| k);
        kept.dedup_by_key(|&mut (k, _)| k);
        let queries = kept
            .iter()
            .map(|&(_, board)| {
                [Color::Black, Color::White]
                    .map(|side| PositionQuery::new(Position::new(board, side)))
            })
            .collect();
        let boards = kept
            .into_iter()
            .enumerate()
            .map(|(i, (k, _))| (k, i as u32))
            .collect();
        Counting { boards, queries }
    }

    /// Counts game `e` standing on `before` (`next`: what its next move
    /// did), as a lookup's replay would for each kept board and side;
    /// `answered` holds those the game reached already (a lookup answers
    /// once per game).
    pub(super) fn step(
        &self,
        e: &Entry,
        before: &Position,
        next: Option<&Ply>,
        answered: &mut Vec<(u32, usize)>,
        partial: &mut Partial,
    ) {
        let Some(&id) = self.boards.get(&key(before.board())) else {
            return;
        };
        for side in 0..2 {
            if answered.contains(&(id, side)) {
                continue;
            }
            // The query's target is this board exactly: its moves come
            // as the game played them.
            if let Some(hit) = self.queries[id as usize][side].step(before, next) {
                answered.push((id, side));
                partial.entry((id, side)).or_default().add(hit.next, e);
            }
        }
    }

    /// The counts of all the games ([`merge_counts`]).
    pub(super) fn finish(self, counts: Partial) -> Popular {
        let mut tallies = vec![[Tally::default(), Tally::default()]; self.queries.len()];
        for ((id, side), tally) in counts {
            tallies[id as usize][side] = tally;
        }
        Popular {
            boards: self.boards,
            tallies,
        }
    }

    /// Whether no board is kept.
    pub(super) fn is_empty(&self) -> bool {
        self.boards.is_empty()
    }
}

impl Popular {
    /// The answer to `query` from the counts, when the filter keeps every
    /// game and every image of the position is kept.
    pub(super) fn explored(&self, query: &PositionQuery, filter: &Filter) -> Option<Explored> {
        if !filter.is_empty() || query.discs() > DISCS || self.boards.is_empty() {
            return None;
        }
        let target = query.target();
        let side = match target.side_to_move() {
            Color::Black => 0,
            Color::White => 1,
        };
        let mut images: Vec<Board> = Symmetry::ALL
            .iter()
            .map(|&s| target.board().transform(s))
            .collect();
        images.sort_unstable_by_key(key);
        images.dedup();
        let mut answer = Explored::new(*target);
        for board in images {
            let id = *self.boards.get(&key(&board))?;
            // The symmetry the query maps this image by, as its replay of
            // a game standing on it does.
            let symmetry = query.matches(&Position::new(board, target.side_to_move()))?;
            let tally = &self.tallies[id as usize][side];
            let rows = tally.rows.iter().map(|&(slot, results)| {
                let mv = match Square::new(slot) {
                    Some(square) => Move::Play(square.transform(symmetry)),
                    None => Move::Pass,
                };
                (mv, results)
            });
            answer.add_counts(&tally.reached, rows);
        }
        Some(answer)
    }

    /// Writes the boards kept and their counts, for [`Popular::read`]
    /// (the layout of [`super::saved`]: words, little-endian).
    pub(super) fn write(&self, out: &mut impl std::io::Write) -> std::io::Result<()> {
        let mut boards = vec![(0, 0); self.tallies.len()];
        for (&k, &id) in &self.boards {
            boards[id as usize] = k;
        }
        put(out, boards.len() as u64)?;
        for (black, white) in boards {
            put(out, black)?;
            put(out, white)?;
        }
        let results = |out: &mut dyn std::io::Write, r: &Results| {
            [
                r.games,
                r.black_wins,
                r.draws,
                r.white_wins,
                r.unfinished,
                r.complete,
                r.black_score_sum,
            ]
            .iter()
            .try_for_each(|&w| out.write_all(&w.to_le_bytes()))
        };
        for tally in self.tallies.iter().flatten() {
            results(out, &tally.reached)?;
            put(out, tally.rows.len() as u64)?;
            for (slot, r) in &tally.rows {
                put(out, u64::from(*slot))?;
                results(out, r)?;
            }
        }
        Ok(())
    }

    /// Reads what [`Popular::write`] wrote, refusing what it never writes.
    pub(super) fn read(
        input: &mut Checked<impl std::io::Read>,
    ) -> Result<Popular, SavedIndexError> {
        let n = input.u64()?;
        if n > 1 << 24 {
            return Err(SavedIndexError::Damaged("too many popular positions"));
        }
        let mut boards = Map::default();
        for id in 0..n as u32 {
            let (black, white) = (input.u64()?, input.u64()?);
            if black & white != 0 || boards.insert((black, white), id).is_some() {
                return Err(SavedIndexError::Damaged("a popular position is no board"));
            }
        }
        fn results(input: &mut Checked<impl std::io::Read>) -> Result<Results, SavedIndexError> {
            Ok(Results {
                games: input.u64()?,
                black_wins: input.u64()?,
                draws: input.u64()?,
                white_wins: input.u64()?,
                unfinished: input.u64()?,
                complete: input.u64()?,
                black_score_sum: input.u64()?,
            })
        }
        let mut tallies = Vec::new();
        for _ in 0..n {
            let mut pair = [Tally::default(), Tally::default()];
            for tally in &mut pair {
                tally.reached = results(input)?;
                let rows = input.u64()?;
                if rows > 65 {
                    return Err(SavedIndexError::Damaged("a position with over 65 moves"));
                }
                for _ in 0..rows {
                    let slot = input.u64()?;
                    if slot > 64 {
                        return Err(SavedIndexError::Damaged("a move that is no square"));
                    }
                    tally.rows.push((slot as u8, results(input)?));
                }
            }
            tallies.push(pair);
        }
        Ok(Popular { boards, tallies })
    }

    /// Positions kept.
    pub(super) fn len(&self) -> usize {
        self.boards.len()
    }

    /// About how many bytes the counts take.
    pub(super) fn heap_bytes(&self) -> usize {
        self.boards.capacity() * 24
            + self.tallies.capacity() * std::mem::size_of::<[Tally; 2]>()
            + self
                .tallies
                .iter()
                .flatten()
                .map(|t| t.rows.capacity() * std::mem::size_of::<(u8, Results)>())
                .sum::<usize>()
    }
}

impl Database {
    /// Calls `each` with every position game `e` stands on with at most
    /// [`DISCS`] discs, and what the move from it did (`None` at the end).
    fn walk(&self, e: &Entry, mut each: impl FnMut(&Position, Option<&Ply>)) {
        let mut replay = Replay::new(self.start(e));
        for &b in self.legal_moves(e) {
            let before = *replay.position();
            if 64 - before.board().empty().count() > DISCS {
                return;
            }
            let mv = match Square::new(b) {
                Some(square) => Move::Play(square),
                None => Move::Pass,
            };
            let ply = replay.play(mv, None).ok();
            each(&before, ply.as_ref());
            if ply.is_none() {
                return;
            }
        }
        let last = *replay.position();
        if 64 - last.board().empty().count() <= DISCS {
            each(&last, None);
        }
    }
}
