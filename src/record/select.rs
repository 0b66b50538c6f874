//! Choosing games: the filters of SPEC section 7, what the one replay of a
//! game finds for them (its opening, where it reached a position), and the
//! key that tells duplicates.
//!
//! ```
//! use kifu::formats::transcript::{parse_line, LineContext};
//! use kifu::select::{Filter, Selection};
//!
//! let ctx = LineContext { line: 1, byte: 0, index: 1 };
//! let game = parse_line(b"f5d6c3d3c4f4f6f3e6e7", ctx).unwrap();
//! let filter = Filter::builder().position("f5 d6 c3 d3 c4")?.build();
//! let selection = Selection::new(filter, true);
//! let (report, found) = selection.replay(&game);
//! assert_eq!(found.opening.unwrap().name(), "Scorpion");
//! assert_eq!(found.hit.unwrap().next.unwrap().to_string(), "f4");
//! assert!(selection.filter.accepts(&game, &report, &found));
//! # Ok::<(), kifu::select::FilterError>(())
//! ```

use std::collections::HashSet;
use std::fmt;
use std::hash::BuildHasherDefault;

use crate::engine::game::Replay;
use crate::engine::hash::PairHasher;
use crate::engine::openings::{Opening, OpeningClassifier, Openings};
use crate::engine::query::{Hit, PositionQuery, QueryError};
use crate::record::date::RecordDate;
use crate::record::{GameRecord, Report, Token, Watch};
use crate::{Move, Position, Status, Winner};

/// The filters by name, free text first: `--player` and the rest on the
/// command line, keyword arguments in Python, parameters of `kifu serve`.
pub const FILTER_NAMES: [&str; 9] = [
    "player", "black", "white", "event", "opening", "year", "status", "winner", "position",
];

/// The filters whose value is free text (a name to find, ignoring case).
pub const TEXT_FILTERS: [&str; 5] = ["player", "black", "white", "event", "opening"];

/// A filter flag that cannot be read: which flag, its value, and why.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("{flag} {value}: {reason}")]
pub struct FilterError {
    /// The flag, as `--year`.
    pub flag: &'static str,
    /// The value given.
    pub value: String,
    /// What is wrong with it.
    pub reason: String,
}

impl FilterError {
    fn new(flag: &'static str, value: &str, reason: impl fmt::Display) -> FilterError {
        FilterError {
            flag,
            value: value.to_owned(),
            reason: reason.to_string(),
        }
    }
}

/// A text to find in a name, ignoring case.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Needle(String);

impl Needle {
    fn new(text: &str) -> Needle {
        Needle(text.to_lowercase())
    }

    fn in_text(&self, text: Option<&str>) -> bool {
        let Some(text) = text else { return false };
        if text.is_ascii() && self.0.is_ascii() {
            let needle = self.0.as_bytes();
            text.as_bytes()
                .windows(needle.len().max(1))
                .any(|w| w.eq_ignore_ascii_case(needle))
                || needle.is_empty()
        } else {
            text.to_lowercase().contains(&self.0)
        }
    }
}

/// The filters of SPEC section 7: a game must match every one given.
#[derive(Clone, Debug, Default)]
pub struct Filter {
    player: Option<Needle>,
    black: Option<Needle>,
    white: Option<Needle>,
    event: Option<Needle>,
    years: Option<(u16, u16)>,
    statuses: Option<Vec<Status>>,
    winner: Option<Winner>,
    opening: Option<Needle>,
    position: Option<PositionQuery>,
    exclude: Option<std::sync::Arc<Excluded>>,
}

/// The games to leave out (`--exclude FILE…`): the [`duplicate_key`] of
/// every game of some files, so that a game whose moves equal one of
/// theirs under one of the 8 symmetries is left out.
///
/// ```
/// use kifu::formats::transcript::{parse_line, LineContext};
/// use kifu::select::{Excluded, Filter, Selection};
///
/// let ctx = LineContext { line: 1, byte: 0, index: 1 };
/// let mut excluded = Excluded::default();
/// excluded.add(&parse_line(b"f5d6c3", ctx).unwrap());
/// let filter = Filter::builder().exclude(excluded).build();
/// // e6f4c3 is f5d6c3 reflected: the same game.
/// let mirrored = parse_line(b"e6f4c3", ctx).unwrap();
/// let (report, found) = Selection::default().replay(&mirrored);
/// assert!(!filter.accepts(&mirrored, &report, &found));
/// # Ok::<(), kifu::ParseError>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct Excluded(HashSet<u128, BuildHasherDefault<PairHasher>>);

impl Excluded {
    /// Adds a game.
    pub fn add(&mut self, record: &GameRecord) {
        self.0.insert(duplicate_key(record));
    }

    /// Adds a game's key.
    pub fn add_key(&mut self, key: u128) {
        self.0.insert(key);
    }

    /// Whether `record` is one of the games, under a symmetry.
    #[must_use]
    pub fn contains(&self, record: &GameRecord) -> bool {
        self.0.contains(&duplicate_key(record))
    }

    /// Distinct games held.
    #[must_use]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether none is held.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Builds a [`Filter`] from flag values, each checked as it comes.
#[derive(Clone, Debug, Default)]
pub struct FilterBuilder(Filter);

impl FilterBuilder {
    /// `--player TEXT`: Black's or White's name contains it.
    #[must_use]
    pub fn player(mut self, text: &str) -> FilterBuilder {
        self.0.player = Some(Needle::new(text));
        self
    }

    /// `--black TEXT`.
    #[must_use]
    pub fn black(mut self, text: &str) -> FilterBuilder {
        self.0.black = Some(Needle::new(text));
        self
    }

    /// `--white TEXT`.
    #[must_use]
    pub fn white(mut self, text: &str) -> FilterBuilder {
        self.0.white = Some(Needle::new(text));
        self
    }

    /// `--event TEXT`.
    #[must_use]
    pub fn event(mut self, text: &str) -> FilterBuilder {
        self.0.event = Some(Needle::new(text));
        self
    }

    /// `--opening TEXT`: the game's opening name contains it.
    #[must_use]
    pub fn opening(mut self, text: &str) -> FilterBuilder {
        self.0.opening = Some(Needle::new(text));
        self
    }

    /// `--year A` or `--year A..B` (inclusive).
    pub fn years(mut self, text: &str) -> Result<FilterBuilder, FilterError> {
        let year = |t: &str| {
            let t = t.trim();
            (t.len() == 4 && t.bytes().all(|b| b.is_ascii_digit()))
                .then(|| t.parse::<u16>().ok())
                .flatten()
        };
        let bad = || FilterError::new("--year", text, "not a year or a range such as 2000..2010");
        let (from, to) = match text.split_once("..") {
            Some((a, b)) => (year(a).ok_or_else(bad)?, year(b).ok_or_else(bad)?),
            None => {
                let y = year(text).ok_or_else(bad)?;
                (y, y)
            }
        };
        if from > to {
            return Err(FilterError::new(
                "--year",
                text,
                format!("the range runs backwards: {to} comes before {from}"),
            ));
        }
        self.0.years = Some((from, to));
        Ok(self)
    }

    /// `--status S[,S]`: `complete`, `incomplete`, `invalid`.
    pub fn statuses(mut self, text: &str) -> Result<FilterBuilder, FilterError> {
        let mut statuses = Vec::new();
        for part in text.split(',') {
            let status = match part.trim() {
                "complete" => Status::Complete,
                "incomplete" => Status::Incomplete,
                "invalid" => Status::Invalid,
                other => {
                    return Err(FilterError::new(
                        "--status",
                        text,
                        format!("{other:?} is not complete, incomplete or invalid"),
                    ))
                }
            };
            statuses.push(status);
        }
        self.0.statuses = Some(statuses);
        Ok(self)
    }

    /// `--winner black|white|draw`.
    pub fn winner(mut self, text: &str) -> Result<FilterBuilder, FilterError> {
        self.0.winner = Some(match text.trim() {
            "black" => Winner::Black,
            "white" => Winner::White,
            "draw" => Winner::Draw,
            _ => {
                return Err(FilterError::new(
                    "--winner",
                    text,
                    "not black, white or draw",
                ))
            }
        });
        Ok(self)
    }

    /// `--position MOVES|BOARD`: the game reaches it, under symmetry and
    /// transposition.
    pub fn position(mut self, text: &str) -> Result<FilterBuilder, FilterError> {
        let query = PositionQuery::parse(text)
            .map_err(|e: QueryError| FilterError::new("--position", text, e))?;
        self.0.position = Some(query);
        Ok(self)
    }

    /// `--exclude FILE…`: leave out the games of `excluded` and their
    /// symmetric images.
    #[must_use]
    pub fn exclude(mut self, excluded: Excluded) -> FilterBuilder {
        self.0.exclude = Some(std::sync::Arc::new(excluded));
        self
    }

    /// Sets the filter named `name` (one of [`FILTER_NAMES`], as the
    /// command line's flag without `--`, the Python keyword and the HTTP
    /// parameter are named) from its text, checked as the flag is: the one
    /// dispatch by name that every front-end uses.
    ///
    /// ```
    /// use kifu::select::Filter;
    /// let filter = Filter::builder().set("year", "1990..1999")?.set("player", "tastet")?.build();
    /// assert!(Filter::builder().set("colour", "black").is_err());
    /// assert!(Filter::builder().set("year", "1990s").is_err());
    /// # Ok::<(), kifu::select::FilterError>(())
    /// ```
    pub fn set(self, name: &str, text: &str) -> Result<FilterBuilder, FilterError> {
        Ok(match name {
            "player" => self.player(text),
            "black" => self.black(text),
            "white" => self.white(text),
            "event" => self.event(text),
            "opening" => self.opening(text),
            "year" => self.years(text)?,
            "status" => self.statuses(text)?,
            "winner" => self.winner(text)?,
            "position" => self.position(text)?,
            _ => {
                return Err(FilterError::new(
                    "filter",
                    name,
                    format!("no such filter (the filters: {})", FILTER_NAMES.join(", ")),
                ))
            }
        })
    }

    /// The filter.
    #[must_use]
    pub fn build(self) -> Filter {
        self.0
    }
}

impl Filter {
    /// A filter that keeps every game, to add to.
    #[must_use]
    pub fn builder() -> FilterBuilder {
        FilterBuilder::default()
    }

    /// Whether it keeps every game.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.player.is_none()
            && self.black.is_none()
            && self.white.is_none()
            && self.event.is_none()
            && self.years.is_none()
            && self.statuses.is_none()
            && self.winner.is_none()
            && self.opening.is_none()
            && self.position.is_none()
            && self.exclude.is_none()
    }

    /// The position the game must reach, if the filter names one.
    #[must_use]
    pub fn position(&self) -> Option<&PositionQuery> {
        self.position.as_ref()
    }

    /// Whether the filter asks for the opening name.
    #[must_use]
    pub fn needs_opening(&self) -> bool {
        self.opening.is_some()
    }

    /// Whether a replayed game matches every filter given.
    #[must_use]
    pub fn accepts(&self, record: &GameRecord, report: &Report, found: &Findings) -> bool {
        let tags = &record.tags;
        let facts = Facts {
            black: tags.black.as_deref(),
            white: tags.white.as_deref(),
            event: tags.event.as_deref(),
            year: if self.years.is_some() {
                year(record)
            } else {
                None
            },
            status: report.status(),
            winner: if self.winner.is_some() {
                winner(record, report)
            } else {
                None
            },
            opening: found.opening,
        };
        self.accepts_facts(&facts)
            && (self.position.is_none() || found.hit.is_some())
            && self.exclude.as_ref().is_none_or(|e| !e.contains(record))
    }

    /// Whether a game with these facts matches every filter given but the
    /// position (which the caller looks for: [`Filter::position`]). A
    /// game database that keeps the facts of its games answers with this.
    #[must_use]
    pub fn accepts_facts(&self, facts: &Facts<'_>) -> bool {
        let (black, white) = (facts.black, facts.white);
        self.player
            .as_ref()
            .is_none_or(|n| n.in_text(black) || n.in_text(white))
            && self.black.as_ref().is_none_or(|n| n.in_text(black))
            && self.white.as_ref().is_none_or(|n| n.in_text(white))
            && self.event.as_ref().is_none_or(|n| n.in_text(facts.event))
            && self
                .years
                .is_none_or(|(from, to)| facts.year.is_some_and(|y| (from..=to).contains(&y)))
            && self
                .statuses
                .as_ref()
                .is_none_or(|s| s.contains(&facts.status))
            && self.winner.is_none_or(|w| facts.winner == Some(w))
            && self
                .opening
                .as_ref()
                .is_none_or(|n| n.in_text(facts.opening.map(Opening::name)))
    }
}

/// What the filters other than the position look at in a game:
/// [`Filter::accepts_facts`].
#[derive(Clone, Copy, Debug)]
pub struct Facts<'a> {
    /// Black's name.
    pub black: Option<&'a str>,
    /// White's name.
    pub white: Option<&'a str>,
    /// The event.
    pub event: Option<&'a str>,
    /// The year played ([`year`]).
    pub year: Option<u16>,
    /// Complete, incomplete or invalid.
    pub status: Status,
    /// The winner of the table ([`winner`]).
    pub winner: Option<Winner>,
    /// The opening, when named.
    pub opening: Option<&'static Opening>,
}

/// The year a game was played, from its date.
#[must_use]
pub fn year(record: &GameRecord) -> Option<u16> {
    record
        .tags
        .date
        .as_deref()
        .and_then(RecordDate::parse)
        .map(|d| d.year)
}

/// The winner of the table (SPEC section 4): from the board of a complete
/// game, from the recorded result of an incomplete one.
#[must_use]
pub fn winner(record: &GameRecord, report: &Report) -> Option<Winner> {
    match report.status() {
        Status::Complete => Some(report.finish.score.winner),
        Status::Incomplete => record.result.and_then(|r| r.winner()),
        Status::Invalid => None,
    }
}

/// The results of a set of games from Black's side: one row of
/// `explore` or of `stats` by year, event or opening (SPEC section 7).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Results {
    /// Games counted.
    pub games: u64,
    /// Won by Black.
    pub black_wins: u64,
    /// Drawn.
    pub draws: u64,
    /// Won by White.
    pub white_wins: u64,
    /// Without a winner ([`winner`] is `None`).
    pub unfinished: u64,
    /// Complete games, whose Black scores are summed.
    pub complete: u64,
    /// Black's scores in the complete games, summed.
    pub black_score_sum: u64,
}

impl Results {
    /// Counts one game: its [`winner`] and, when complete, Black's score.
    pub fn add(&mut self, winner: Option<Winner>, black_score: Option<u8>) {
        self.games += 1;
        match winner {
            Some(Winner::Black) => self.black_wins += 1,
            Some(Winner::White) => self.white_wins += 1,
            Some(Winner::Draw) => self.draws += 1,
            None => self.unfinished += 1,
        }
        if let Some(score) = black_score {
            self.complete += 1;
            self.black_score_sum += u64::from(score);
        }
    }

    /// Black's mean score in the complete games; `None` without one.
    #[must_use]
    pub fn mean_black_score(&self) -> Option<f64> {
        (self.complete > 0).then(|| self.black_score_sum as f64 / self.complete as f64)
    }
}

/// What the replay of a game found beside its report.
#[derive(Clone, Copy, Debug, Default)]
pub struct Findings {
    /// The game's opening, when names were asked for.
    pub opening: Option<&'static Opening>,
    /// Where the game reached the filter's position, and what it played
    /// next there.
    pub hit: Option<Hit>,
    /// Where the game reached the explored position, likewise.
    pub explored: Option<Hit>,
}

/// The watcher of the one replay: the opening classifier and the position
/// query, each only when asked for.
struct Survey<'a> {
    query: Option<&'a PositionQuery>,
    explore: Option<&'a PositionQuery>,
    classifier: Option<OpeningClassifier<'static>>,
    /// Discs on the board of the position shown next: a query only looks
    /// at the positions with its count of discs, and a move adds one.
    discs: u32,
    /// The disc counts of `query` and `explore` (`u32::MAX` for none).
    wanted: [u32; 2],
    found: Findings,
}

/// Whether `position` is the query's (the first time it is), and the
/// move played next there in the query's orientation.
#[inline]
fn look(
    query: Option<&PositionQuery>,
    hit: &mut Option<Hit>,
    position: &Position,
    next: Option<Move>,
) {
    let Some(query) = query else { return };
    if hit.is_some() {
        return;
    }
    if let Some(symmetry) = query.matches(position) {
        let next = next.map(|mv| match mv {
            Move::Play(square) => Move::Play(square.transform(symmetry)),
            Move::Pass => Move::Pass,
        });
        *hit = Some(Hit { symmetry, next });
    }
}

impl Survey<'_> {
    /// Whether a query has the disc count of the position shown now.
    #[inline]
    fn counted(&self) -> bool {
        self.wanted[0] == self.discs || self.wanted[1] == self.discs
    }

    fn look(&mut self, position: &Position, next: Option<Move>) {
        look(self.query, &mut self.found.hit, position, next);
        look(self.explore, &mut self.found.explored, position, next);
    }
}

impl Watch for Survey<'_> {
    #[inline(always)]
    fn position(&mut self, position: &Position, _ply: u32, next: Move) {
        if let Some(classifier) = &mut self.classifier {
            if !classifier.push(position) {
                self.found.opening = classifier.opening();
                self.classifier = None;
            }
        }
        if self.counted() {
            self.look(position, Some(next));
        }
        self.discs += u32::from(next != Move::Pass);
    }

    /// While the opening may still be named, or a query's count of discs
    /// is still to come.
    #[inline(always)]
    fn watching(&self) -> bool {
        let to_come = |wanted: u32| wanted != u32::MAX && wanted >= self.discs;
        self.classifier.is_some() || to_come(self.wanted[0]) || to_come(self.wanted[1])
    }

    fn end(&mut self, position: &Position, _ply: u32) {
        // The replay may have gone on without showing the positions.
        self.discs = 64 - position.board().empty().count();
        if let Some(classifier) = &mut self.classifier {
            classifier.push(position);
            self.found.opening = classifier.opening();
        }
        if !self.counted() {
            return;
        }
        self.look(position, None);
        // A record that stops where the side to move must pass stands on
        // the next position too.
        if !position.has_moves() && position.opponent_has_moves() {
            let mut passed = *position;
            passed.pass();
            self.look(&passed, None);
        }
    }
}

/// What to find in each game and which games to keep.
#[derive(Clone, Debug, Default)]
pub struct Selection {
    /// The filters.
    pub filter: Filter,
    /// Name every game's opening (the `opening` column).
    pub openings: bool,
    /// A position to explore: where each game reached it, and what it
    /// played next ([`Findings::explored`]).
    pub explore: Option<PositionQuery>,
}

impl Selection {
    /// Finds what `filter` needs, and openings when `openings`.
    #[must_use]
    pub fn new(filter: Filter, openings: bool) -> Selection {
        Selection {
            filter,
            openings,
            explore: None,
        }
    }

    /// Replays `record` once, finding its opening and where it reached
    /// the filter's position as it goes.
    #[must_use]
    pub fn replay(&self, record: &GameRecord) -> (Report, Findings) {
        self.replay_naming(record, false)
    }

    /// [`Selection::replay`], naming the opening also when `openings`
    /// (a writer that carries it asks).
    #[must_use]
    pub fn replay_naming(&self, record: &GameRecord, openings: bool) -> (Report, Findings) {
        self.replay_with(record, openings, &mut ())
    }

    /// [`Selection::replay_naming`], showing `watch` the replay too (the
    /// positions of a game ride on the replay that chooses it).
    #[must_use]
    pub fn replay_with<W: Watch>(
        &self,
        record: &GameRecord,
        openings: bool,
        watch: &mut W,
    ) -> (Report, Findings) {
        let Some(mut survey) = self.survey(record, openings) else {
            return (record.replay_watched(watch), Findings::default());
        };
        let report = record.replay_watched(&mut (&mut survey, watch));
        (report, survey.found)
    }

    /// [`Selection::replay_naming`] for two games at once
    /// ([`GameRecord::replay_pair`]): the same answers, sooner.
    #[must_use]
    pub fn replay_pair(
        &self,
        records: [&GameRecord; 2],
        openings: bool,
    ) -> [(Report, Findings); 2] {
        let [a, b] = records;
        let (x, y) = match (self.survey(a, openings), self.survey(b, openings)) {
            (Some(mut sa), Some(mut sb)) => {
                let (x, y) = a.replay_pair(&mut sa, b, &mut sb);
                ((x, sa.found), (y, sb.found))
            }
            _ => {
                let (x, y) = a.replay_pair(&mut (), b, &mut ());
                ((x, Findings::default()), (y, Findings::default()))
            }
        };
        [x, y]
    }

    /// [`Selection::replay_naming`] for each of `records` in turn, handing
    /// `each` the record and its answers; two by two
    /// ([`Selection::replay_pair`]) where that is faster (AVX-512).
    pub fn replay_each<R, I, E>(&self, records: I, openings: bool, mut each: E)
    where
        R: std::borrow::Borrow<GameRecord>,
        I: IntoIterator<Item = R>,
        E: FnMut(R, (Report, Findings)),
    {
        let mut records = records.into_iter();
        if !Replay::interleaving_pays() {
            for record in records {
                let found = self.replay_naming(record.borrow(), openings);
                each(record, found);
            }
            return;
        }
        while let Some(a) = records.next() {
            if let Some(b) = records.next() {
                let [x, y] = self.replay_pair([a.borrow(), b.borrow()], openings);
                each(a, x);
                each(b, y);
            } else {
                let x = self.replay_naming(a.borrow(), openings);
                each(a, x);
            }
        }
    }

    /// What watches a replay of `record` for this selection, if anything
    /// needs to.
    #[inline(always)]
    fn survey(&self, record: &GameRecord, openings: bool) -> Option<Survey<'_>> {
        let classify = openings || self.openings || self.filter.needs_opening();
        if !classify && self.filter.position.is_none() && self.explore.is_none() {
            return None;
        }
        let book = Openings::builtin();
        let query = self.filter.position.as_ref();
        let explore = self.explore.as_ref();
        let discs = |query: Option<&PositionQuery>| query.map_or(u32::MAX, PositionQuery::discs);
        Some(Survey {
            query,
            explore,
            wanted: [discs(query), discs(explore)],
            classifier: classify.then(|| book.classifier(&record.start)),
            discs: 64 - record.start.board().empty().count(),
            found: Findings::default(),
        })
    }
}

/// The key of a game's move list under the 8 symmetries (passes left out;
/// the start position must be the same): equal keys are duplicates
/// (`--unique`).
#[must_use]
pub fn duplicate_key(record: &GameRecord) -> u128 {
    let mut key = crate::engine::symmetry::MoveListKey::new();
    for m in &record.moves {
        if let Token::Move(Move::Play(square)) = m.token {
            key.push(square);
        }
    }
    let start = record.start;
    if start == Position::start() {
        key.finish()
    } else {
        // Another start: the same moves from it are another game.
        key.finish() ^ start.canonical_key().0.rotate_left(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::transcript;

    fn filter(f: impl FnOnce(FilterBuilder) -> Result<FilterBuilder, FilterError>) -> Filter {
        f(Filter::builder()).unwrap().build()
    }

    fn keeps(filter: &Filter, record: &GameRecord) -> bool {
        let selection = Selection::new(filter.clone(), false);
        let (report, found) = selection.replay(record);
        selection.filter.accepts(record, &report, &found)
    }

    #[test]
    fn malformed_filters_name_the_flag() {
        let err = |f: fn(FilterBuilder) -> Result<FilterBuilder, FilterError>| {
            f(Filter::builder()).unwrap_err().to_string()
        };
        assert_eq!(
            err(|b| b.years("20x4")),
            "--year 20x4: not a year or a range such as 2000..2010"
        );
        assert_eq!(
            err(|b| b.years("2010..2000")),
            "--year 2010..2000: the range runs backwards: 2000 comes before 2010"
        );
        assert_eq!(
            err(|b| b.position("f5z9")),
            "--position f5z9: move 2 (white) z9: not a square"
        );
        assert_eq!(
            err(|b| b.position("f5f5")),
            "--position f5f5: move 2 (white) f5: square occupied"
        );
        assert_eq!(
            err(|b| b.statuses("complete,done")),
            "--status complete,done: \"done\" is not complete, incomplete or invalid"
        );
        assert_eq!(
            err(|b| b.winner("blue")),
            "--winner blue: not black, white or draw"
        );
    }

    #[test]
    fn each_filter_alone() {
        let mut g = transcript("f5d6c3d3c4f4f6f3e6e7");
        g.tags.black = Some("Tastet Marc".into());
        g.tags.white = Some("Müller Jörg".into());
        g.tags.event = Some("Championnat de France".into());
        g.tags.date = Some("2004.05.12".into());
        assert!(keeps(&filter(|b| Ok(b.player("tastet"))), &g));
        assert!(keeps(&filter(|b| Ok(b.player("JÖRG"))), &g));
        assert!(!keeps(&filter(|b| Ok(b.black("jörg"))), &g));
        assert!(keeps(&filter(|b| Ok(b.white("müller"))), &g));
        assert!(keeps(&filter(|b| Ok(b.event("de fr"))), &g));
        assert!(keeps(&filter(|b| b.years("2004")), &g));
        assert!(keeps(&filter(|b| b.years("2000..2010")), &g));
        assert!(!keeps(&filter(|b| b.years("2005..2010")), &g));
        assert!(keeps(&filter(|b| b.statuses("incomplete")), &g));
        assert!(!keeps(&filter(|b| b.statuses("complete,invalid")), &g));
        assert!(!keeps(&filter(|b| b.winner("black")), &g));
        // f5 d6 c3 d3 c4 f4 f6 f3 e6 e7 is the Scorpion.
        assert!(keeps(&filter(|b| Ok(b.opening("scorpion"))), &g));
        assert!(!keeps(&filter(|b| Ok(b.opening("tiger"))), &g));
        assert!(keeps(&filter(|b| b.position("f5d6c3d3")), &g));
        // Rotated and transposed: c4 e3 f6 e6 f5 is f5 d6 c3 d3 c4 turned.
        let turned = transcript("c4e3f6e6f5");
        assert!(keeps(&filter(|b| b.position("f5d6c3d3c4")), &turned));
        assert!(!keeps(&filter(|b| b.position("f5f6")), &g));
        // Without a year, --year never matches.
        g.tags.date = None;
        assert!(!keeps(&filter(|b| b.years("2004")), &g));
        // Combined: all must hold.
        let both = filter(|b| b.years("1990..2000").map(|b| b.player("tastet")));
        g.tags.date = Some("1995".into());
        assert!(keeps(&both, &g));
        g.tags.black = None;
        assert!(!keeps(&both, &g));
    }

    #[test]
    fn the_next_move_comes_back_in_the_query_orientation() {
        let selection = Selection::new(filter(|b| b.position("f5d6")), false);
        // f5 d6 reflected on the diagonal is e6 f4; then e3 there is c5 here.
        let (_, found) = selection.replay(&transcript("e6f4e3"));
        assert_eq!(
            found.hit.unwrap().next,
            Some(Move::Play("c5".parse().unwrap()))
        );
        // A game that ends on the position reaches it with no next move.
        let (_, found) = selection.replay(&transcript("f5d6"));
        assert_eq!(found.hit.unwrap().next, None);
    }

    #[test]
    fn duplicates_by_symmetry_share_a_key() {
        let a = transcript("f5d6c3d3c4f4");
        let rotated = transcript("c4e3f6e6f5c5");
        let other = transcript("f5d6c3d3c4f4f6");
        assert_eq!(duplicate_key(&a), duplicate_key(&rotated));
        assert_ne!(duplicate_key(&a), duplicate_key(&other));
        let with_pass = transcript("f5 d6 c3 d3 c4 f4");
        assert_eq!(duplicate_key(&a), duplicate_key(&with_pass));
    }
}
