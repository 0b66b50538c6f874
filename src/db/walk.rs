//! The replay behind a position lookup: games met in the order of their
//! moves share the replay of the moves they begin with.

use crate::{Hit, Move, Position, PositionQuery, Replay, Square};

/// A replay over games in the order of their moves: the states of the last
/// game replayed after each of its moves, and what it found, which the
/// next game keeps for the moves both begin with.
#[derive(Default)]
pub(super) struct Walk {
    /// The replay after 0, 1, … moves of the last game replayed.
    states: Vec<Replay>,
    /// Where it reached the query: the position's number of moves, and
    /// the hit.
    hit: Option<(usize, Hit)>,
    /// Where it stopped looking (a position with more discs than the
    /// query's).
    stop: Option<usize>,
    /// 0, or 1 + the moves the next game shares with the last one
    /// replayed (the least over the games passed between).
    pub(super) shared: u8,
}

impl Walk {
    /// Where a game from `start` with these legal moves reaches `query`:
    /// what [`PositionQuery::find`] answers, from where it parts from the
    /// last game replayed.
    pub(super) fn reaches(
        &mut self,
        start: Position,
        moves: &[u8],
        query: &PositionQuery,
    ) -> Option<Hit> {
        let shared = std::mem::replace(&mut self.shared, u8::MAX);
        let from = if shared == 0 || self.states.is_empty() {
            self.states.clear();
            self.states.push(Replay::new(start));
            self.hit = None;
            self.stop = None;
            0
        } else {
            // The first `common` moves are the last game's, and so are the
            // positions before them and after them: whatever was found at
            // a position whose next move is shared, or where the last game
            // stopped looking within them.
            let common = usize::from(shared) - 1;
            match (self.hit, self.stop) {
                (Some((t, hit)), _) if t < common => return Some(hit),
                (None, Some(s)) if s <= common => return None,
                _ => {}
            }
            let l = common.min(self.states.len() - 1);
            self.states.truncate(l + 1);
            self.hit = None;
            self.stop = None;
            l
        };
        let mut replay = self.states[from].clone();
        for (t, &b) in moves.iter().enumerate().skip(from) {
            let before = *replay.position();
            if 64 - before.board().empty().count() > query.discs() {
                self.stop = Some(t);
                return None;
            }
            let mv = match Square::new(b) {
                Some(square) => Move::Play(square),
                None => Move::Pass,
            };
            let ply = replay.play(mv, None).ok();
            if let Some(hit) = query.step(&before, ply.as_ref()) {
                self.hit = Some((t, hit));
                return Some(hit);
            }
            // The moves are the replay's legal ones.
            ply?;
            self.states.push(replay.clone());
        }
        let t = moves.len();
        if 64 - replay.position().board().empty().count() > query.discs() {
            self.stop = Some(t);
            return None;
        }
        let hit = query.step(replay.position(), None);
        self.hit = hit.map(|h| (t, h));
        // Nothing further is known past the last position.
        if hit.is_none() {
            self.stop = Some(t + 1);
        }
        hit
    }
}
