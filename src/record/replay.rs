//! The replay of a record into a [`Report`]: one game, or two at once.
//!
//! A replay runs in up to three loops over the move tokens: while the
//! watcher looks at positions, then without it, and, when two games are
//! replayed together, a third between them that plays the moves of both
//! interleaved ([`Replay::place_two`]). Each loop takes up where the one
//! before it stopped, and every move the interleaved loop does not play
//! (a left-out pass, an error) is left to the plain loop, so all of them
//! give the same report.

use super::{GameError, GameRecord, OtherBoard, RecordedMove, Report, Rules, Token, Watch};
use crate::engine::game::{Move, Replay, Score};
use crate::record::source::{ParseError, Span};
use crate::{Color, Square};

/// A replay under way: what one loop over the moves hands the next.
struct Progress {
    replay: Replay,
    error: Option<GameError>,
    implicit_passes: u128,
    /// Positions shown so far (or that would have been).
    ply: u32,
    /// The move token to play next.
    next: usize,
}

/// One move token `$m`, the `$i`th, of `$record` played and shown to
/// `$watch`: the body of the loops below. The state it plays on is four
/// places, `(replay, ply, implicit passes, error)`: a [`Progress`]'s
/// fields, or locals (the single replay's, which stay in registers; as
/// fields of a `Progress` there, they cost 10 % more instructions). It
/// `continue`s the loop after a placement and `break`s it on an error.
macro_rules! play {
    ($record:expr, ($replay:expr, $ply:expr, $passes:expr, $error:expr), $i:expr, $m:expr, $watch:expr) => {{
        let (i, m) = ($i, $m);
        let before = *$replay.position();
        if let Token::Move(Move::Play(square)) = m.token {
            if $replay.try_place(square, m.color).is_some() {
                $watch.position(&before, $ply, Move::Play(square));
                $ply += 1;
                continue;
            }
        }
        let step = match m.token {
            Token::Move(mv) => $replay.play(mv, m.color),
            Token::Unreadable => Err($replay.unreadable(&$record.token_text(i))),
        };
        match step {
            Ok(played) => {
                if played.implicit_pass {
                    // A legal prefix holds at most 60 discs and 61
                    // passes, so every index fits the mask.
                    $passes |= 1u128.checked_shl(i as u32).unwrap_or(0);
                    $watch.position(&before, $ply, Move::Pass);
                    $ply += 1;
                    let mut passed = before;
                    passed.pass();
                    $watch.position(&passed, $ply, played.mv);
                } else {
                    $watch.position(&before, $ply, played.mv);
                }
                $ply += 1;
            }
            Err(e) => {
                $error = Some(GameError::Replay(e));
                break;
            }
        }
    }};
}

/// Plays `$record`'s moves from the start while `$watch` watches, on the
/// state `$state` (as [`play!`]'s); `$next` becomes the index of the
/// first move not played: the one the watcher stopped before, or the end
/// (after an error nothing more is to be played).
macro_rules! watched_loop {
    ($record:expr, $state:tt, $next:expr, $watch:expr) => {{
        $next = $record.moves.len();
        for (i, m) in $record.moves.iter().enumerate() {
            if !$watch.watching() {
                $next = i;
                break;
            }
            play!($record, $state, i, m, $watch);
        }
    }};
}

/// Plays `$record`'s moves from index `$from` to the end, unwatched;
/// nothing once the state holds an error.
macro_rules! plain_loop {
    ($record:expr, ($replay:expr, $ply:expr, $passes:expr, $error:expr), $from:expr) => {{
        if $error.is_none() {
            let from = $from;
            let rest = $record.moves.get(from..).unwrap_or_default();
            for (k, m) in rest.iter().enumerate() {
                play!($record, ($replay, $ply, $passes, $error), from + k, m, ());
            }
        }
    }};
}

impl GameRecord {
    /// Replays the record from its start.
    #[must_use]
    pub fn replay(&self) -> Report {
        self.replay_watched(&mut ())
    }

    /// Replays the record from its start, showing `watch` every position
    /// and the move played from it. A pass the record leaves out shows as
    /// two positions: the one where the side to move passes, then the
    /// same board with the other side to move. Once `watch` is no longer
    /// [watching](Watch::watching), the rest of the game is played without
    /// it; [`Watch::end`] sees the last position in any case.
    #[inline]
    pub fn replay_watched<W: Watch>(&self, watch: &mut W) -> Report {
        #[cfg(target_arch = "x86_64")]
        if crate::engine::board::has_lzcnt() {
            // SAFETY: the processor has the feature the function is
            // compiled with.
            return unsafe { self.replay_watched_lzcnt(watch) };
        }
        self.replay_watched_inlined(watch)
    }

    /// [`GameRecord::replay_watched`] compiled with LZCNT, so that the
    /// flips towards lower squares count leading zeros in one instruction
    /// instead of `bsr` and a `cmov` (baseline x86-64 has no `lzcnt`):
    /// 18 % less CPU for `validate` on a Zen 3 processor, where `bsr` is
    /// slow.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "lzcnt")]
    pub(super) fn replay_watched_lzcnt<W: Watch>(&self, watch: &mut W) -> Report {
        self.replay_watched_inlined(watch)
    }

    /// The body of [`GameRecord::replay_watched`], inlined into each of
    /// its compilations.
    #[inline(always)]
    pub(super) fn replay_watched_inlined<W: Watch>(&self, watch: &mut W) -> Report {
        let run = match self.begin() {
            Ok(run) => run,
            Err(report) => return report,
        };
        let Progress {
            mut replay,
            mut error,
            mut implicit_passes,
            mut ply,
            ..
        } = run;
        let mut next;
        watched_loop!(self, (replay, ply, implicit_passes, error), next, watch);
        plain_loop!(self, (replay, ply, implicit_passes, error), next);
        let run = Progress {
            replay,
            error,
            implicit_passes,
            ply,
            next: self.moves.len(),
        };
        self.conclude(run, watch)
    }

    /// Replays this record and `other`, each shown to its own watcher:
    /// the two reports [`GameRecord::replay_watched`] gives, sooner.
    ///
    /// On a processor with AVX-512, once neither watcher is watching, the
    /// moves of both games are played interleaved, two independent chains
    /// of work that the processor overlaps, until either game needs more
    /// than a placement; each then goes on alone. Elsewhere the two are
    /// replayed one after the other.
    #[inline]
    pub fn replay_pair<V: Watch, W: Watch>(
        &self,
        watch: &mut V,
        other: &GameRecord,
        other_watch: &mut W,
    ) -> (Report, Report) {
        let interleave = Replay::interleaving_pays();
        self.replay_pair_if(interleave, watch, other, other_watch)
    }

    /// [`GameRecord::replay_pair`], interleaving when `interleave`.
    #[inline(always)]
    pub(super) fn replay_pair_if<V: Watch, W: Watch>(
        &self,
        interleave: bool,
        watch: &mut V,
        other: &GameRecord,
        other_watch: &mut W,
    ) -> (Report, Report) {
        let apart = |watch: &mut V, other_watch: &mut W| {
            (
                self.replay_watched(watch),
                other.replay_watched(other_watch),
            )
        };
        if !interleave {
            return apart(watch, other_watch);
        }
        let (mut x, mut y) = match (self.begin(), other.begin()) {
            (Ok(x), Ok(y)) => (x, y),
            _ => return apart(watch, other_watch),
        };
        watched_loop!(
            self,
            (x.replay, x.ply, x.implicit_passes, x.error),
            x.next,
            watch
        );
        watched_loop!(
            other,
            (y.replay, y.ply, y.implicit_passes, y.error),
            y.next,
            other_watch
        );
        if x.error.is_none() && y.error.is_none() {
            play_interleaved(self, &mut x, other, &mut y);
        }
        plain_loop!(self, (x.replay, x.ply, x.implicit_passes, x.error), x.next);
        plain_loop!(other, (y.replay, y.ply, y.implicit_passes, y.error), y.next);
        (self.conclude(x, watch), other.conclude(y, other_watch))
    }

    /// The replay at the start, or the report of a game on a board kifu
    /// does not play.
    #[inline(always)]
    fn begin(&self) -> Result<Progress, Report> {
        if let Some(board) = &self.other_board {
            return Err(self.unsupported(board));
        }
        Ok(Progress {
            replay: Replay::new(self.start),
            error: None,
            implicit_passes: 0,
            ply: 0,
            next: 0,
        })
    }

    /// The report of a replay that has played all it could.
    #[inline(always)]
    fn conclude<W: Watch>(&self, run: Progress, watch: &mut W) -> Report {
        watch.end(run.replay.position(), run.ply);
        let mut error = run.error;
        if error.is_none() {
            if let Some(defect) = &self.defect {
                error = Some(GameError::Parse(defect.clone()));
            }
        }
        let mut finish = run.replay.finish();
        if self.rules == Rules::Anti {
            let s = finish.score;
            finish.score = Score::anti(s.black_discs, s.white_discs);
        }
        Report {
            finish,
            error,
            implicit_passes: run.implicit_passes,
        }
    }

    /// The replay of a game on a board kifu does not play: invalid before
    /// the first move.
    #[cold]
    fn unsupported(&self, board: &OtherBoard) -> Report {
        let span = self
            .origin
            .line
            .map_or(Span::binary(self.origin.byte, 1), |line| {
                Span::new(self.origin.byte, line, 1, 1)
            });
        let message = format!("unsupported board size {0}x{0}", board.size);
        Report {
            finish: Replay::new(self.start).finish(),
            error: Some(GameError::Parse(ParseError::at(span, message))),
            implicit_passes: 0,
        }
    }
}

/// Plays the moves of `a` and `b` from where each stands, both at once
/// while each is a placement ([`place_both`]); where either needs more (a
/// left-out pass, a written one), plays one token of each alone and goes
/// on together, until either game ends or has an error.
#[inline(always)]
fn play_interleaved(a: &GameRecord, x: &mut Progress, b: &GameRecord, y: &mut Progress) {
    loop {
        place_both(a, x, b, y);
        if x.next >= a.moves.len() || y.next >= b.moves.len() {
            return;
        }
        a.step(x);
        b.step(y);
        if x.error.is_some() || y.error.is_some() {
            return;
        }
    }
}

impl GameRecord {
    /// Plays the next move token alone, unwatched.
    #[inline(always)]
    fn step(&self, run: &mut Progress) {
        let i = run.next;
        let Some(m) = self.moves.get(i) else { return };
        run.next += 1;
        // A loop of one pass, for `play!`'s `continue` and `break`.
        #[allow(clippy::never_loop)]
        for m in [m] {
            play!(
                self,
                (run.replay, run.ply, run.implicit_passes, run.error),
                i,
                m,
                ()
            );
        }
    }
}

/// Plays the placements of `a` and `b` from where each stands, both at
/// once, while each is a square, of the side to move if the record names
/// a side, and legal.
#[inline(always)]
fn place_both(a: &GameRecord, x: &mut Progress, b: &GameRecord, y: &mut Progress) {
    let rest_a = a.moves.get(x.next..).unwrap_or_default();
    let rest_b = b.moves.get(y.next..).unwrap_or_default();
    let movers = [x.replay.position(), y.replay.position()].map(|p| p.side_to_move());
    // The `k`th move from here is the side to move's when `k` is even.
    let square = |m: Option<&RecordedMove>, mover: Color, k: usize| match m {
        Some(&RecordedMove {
            token: Token::Move(Move::Play(square)),
            color,
        }) if color.is_none_or(|c| (c == mover) == k.is_multiple_of(2)) => Some::<Square>(square),
        _ => None,
    };
    let played = Replay::place_two(&mut x.replay, &mut y.replay, |k| {
        Some((
            square(rest_a.get(k), movers[0], k)?,
            square(rest_b.get(k), movers[1], k)?,
        ))
    });
    for run in [x, y] {
        run.next += played;
        // At most 60 placements.
        run.ply += played as u32;
    }
}
