//! The answer to "which games reached this position, and what did they
//! play next" (SPEC section 7): the rows `kifu explore` prints and the
//! database browser serves (`kifu serve`'s `/api/explore`), built in one
//! place so that both give the same JSON.
//!
//! ```
//! use kifu::explore::Explored;
//! use kifu::{Move, Position, Winner};
//! let mut answer = Explored::new(Position::start());
//! let f5 = Move::Play("f5".parse()?);
//! answer.add(Some(f5), Some(Winner::Black), Some(40));
//! answer.add(Some(f5), Some(Winner::White), Some(20));
//! answer.add(None, None, None);
//! assert_eq!(answer.games(), 3);
//! let rows = answer.ranked();
//! assert_eq!((rows[0].name.as_str(), rows[0].results.games), ("f5", 2));
//! assert_eq!(rows[0].results.mean_black_score(), Some(30.0));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use serde::ser::{SerializeStruct, Serializer};
use serde::Serialize;

use crate::engine::game::Status;
use crate::record::select::Results;
use crate::{Move, Position, Square, Winner};

/// Next moves are counted by index: the 64 squares, then the pass.
const PASS: usize = 64;

/// The games that reached a position and the moves they played next.
#[derive(Clone, Debug)]
pub struct Explored {
    target: Position,
    reached: Results,
    rows: Box<[Results; 65]>,
    /// Games listed with the answer (`kifu explore --games N`).
    pub listed: Vec<Listing>,
}

/// One move played next and how its games went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The move's name: a square (`f5`) or `pass`.
    pub name: String,
    /// The move, in the orientation of the position asked about.
    pub mv: Move,
    /// Its games.
    pub results: Results,
}

impl Row {
    /// Black's mean score in the complete games, rounded to two decimals
    /// as the table and the CSV print it.
    #[must_use]
    pub fn average(&self) -> Option<String> {
        self.results.mean_black_score().map(|m| format!("{m:.2}"))
    }
}

impl Explored {
    /// No game yet.
    #[must_use]
    pub fn new(target: Position) -> Explored {
        Explored {
            target,
            reached: Results::default(),
            rows: Box::new([Results::default(); 65]),
            listed: Vec::new(),
        }
    }

    /// The position asked about.
    #[must_use]
    pub fn target(&self) -> &Position {
        &self.target
    }

    /// Counts a game that reached the position: the move it played next
    /// (`None` when it ended there or broke the rules), its winner and,
    /// when complete, Black's score.
    pub fn add(&mut self, next: Option<Move>, winner: Option<Winner>, black_score: Option<u8>) {
        self.reached.add(winner, black_score);
        if let Some(mv) = next {
            let slot = match mv {
                Move::Play(square) => square.index(),
                Move::Pass => PASS,
            };
            self.rows[slot].add(winner, black_score);
        }
    }

    /// Adds the counts of `other` (the same position, other games).
    pub fn merge(&mut self, other: &Explored) {
        merge(&mut self.reached, &other.reached);
        for (mine, theirs) in self.rows.iter_mut().zip(other.rows.iter()) {
            merge(mine, theirs);
        }
    }

    /// Adds games counted elsewhere: `reached`, all of them, and the
    /// results of those that played each move next.
    pub(super) fn add_counts(
        &mut self,
        reached: &Results,
        rows: impl IntoIterator<Item = (Move, Results)>,
    ) {
        merge(&mut self.reached, reached);
        for (mv, results) in rows {
            let slot = match mv {
                Move::Play(square) => square.index(),
                Move::Pass => PASS,
            };
            merge(&mut self.rows[slot], &results);
        }
    }

    /// Games that reached the position.
    #[must_use]
    pub fn games(&self) -> u64 {
        self.reached.games
    }

    /// All the games that reached the position, together.
    #[must_use]
    pub fn reached(&self) -> &Results {
        &self.reached
    }

    /// The moves played next, by games (most first), then by name.
    #[must_use]
    pub fn ranked(&self) -> Vec<Row> {
        let mut rows: Vec<Row> = self
            .rows
            .iter()
            .enumerate()
            .filter(|(_, r)| r.games > 0)
            .map(|(i, results)| {
                let mv = match Square::new(i as u8) {
                    Some(square) => Move::Play(square),
                    None => Move::Pass,
                };
                Row {
                    name: mv.to_string(),
                    mv,
                    results: *results,
                }
            })
            .collect();
        rows.sort_by(|a, b| {
            b.results
                .games
                .cmp(&a.results.games)
                .then_with(|| a.name.cmp(&b.name))
        });
        rows
    }
}

pub(super) fn merge(into: &mut Results, from: &Results) {
    into.games += from.games;
    into.black_wins += from.black_wins;
    into.draws += from.draws;
    into.white_wins += from.white_wins;
    into.unfinished += from.unfinished;
    into.complete += from.complete;
    into.black_score_sum += from.black_score_sum;
}

/// The JSON of `kifu explore --format json`: the position (its board
/// text), the games that reached it, one object per next move, and the
/// listed games when there are any.
impl Serialize for Explored {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct JsonRow<'a> {
            #[serde(rename = "move")]
            name: &'a str,
            games: u64,
            black_wins: u64,
            draws: u64,
            white_wins: u64,
            unfinished: u64,
            avg_black_score: Option<f64>,
        }
        let ranked = self.ranked();
        let rows: Vec<JsonRow<'_>> = ranked
            .iter()
            .map(|row| JsonRow {
                name: &row.name,
                games: row.results.games,
                black_wins: row.results.black_wins,
                draws: row.results.draws,
                white_wins: row.results.white_wins,
                unfinished: row.results.unfinished,
                // The two decimals the table prints, as a number.
                avg_black_score: row.average().and_then(|a| a.parse().ok()),
            })
            .collect();
        let fields = if self.listed.is_empty() { 3 } else { 4 };
        let mut s = serializer.serialize_struct("Explored", fields)?;
        s.serialize_field("position", &self.target.to_string())?;
        s.serialize_field("games", &self.reached.games)?;
        s.serialize_field("moves", &rows)?;
        if !self.listed.is_empty() {
            s.serialize_field("listed", &self.listed)?;
        }
        s.end()
    }
}

/// A game that reached a position, as `kifu explore --games` lists it.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct Listing {
    /// The input it was read from, as named.
    pub source: String,
    /// Its 1-based number in that input.
    pub index: u64,
    /// Black's name.
    pub black: Option<String>,
    /// White's name.
    pub white: Option<String>,
    /// The year it was played.
    pub year: Option<u16>,
    /// The result: `33-31` for a complete game, `black (unfinished)` for
    /// an incomplete one whose record names a winner, else the status.
    pub result: String,
    /// Its opening's name.
    pub opening: Option<String>,
}

impl Listing {
    /// The `result` of a listing: the final scores of a complete game
    /// (Black's first), the recorded winner of an incomplete one, else
    /// its status.
    #[must_use]
    pub fn result_text(status: Status, winner: Option<Winner>, scores: Option<(u8, u8)>) -> String {
        match (status, winner) {
            (Status::Complete, _) => scores.map(|(b, w)| format!("{b}-{w}")).unwrap_or_default(),
            (Status::Incomplete, Some(w)) => format!("{w} (unfinished)"),
            (status, _) => status.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_rank_by_games_then_name_and_passes_count() {
        let mut a = Explored::new(Position::start());
        let sq = |n: &str| Move::Play(n.parse().unwrap());
        a.add(Some(sq("f5")), Some(Winner::Black), Some(40));
        a.add(Some(Move::Pass), Some(Winner::White), Some(10));
        let mut b = Explored::new(Position::start());
        b.add(Some(sq("c4")), Some(Winner::Draw), Some(32));
        b.add(None, None, None);
        a.merge(&b);
        let names: Vec<String> = a.ranked().into_iter().map(|r| r.name).collect();
        assert_eq!(names, ["c4", "f5", "pass"]);
        assert_eq!(a.games(), 4);
        assert_eq!(a.reached().unfinished, 1);
        let json = serde_json::to_string(&a).unwrap();
        assert_eq!(
            json,
            "{\"position\":\"---------------------------OX------XO--------------------------- X\",\
             \"games\":4,\"moves\":[\
             {\"move\":\"c4\",\"games\":1,\"black_wins\":0,\"draws\":1,\"white_wins\":0,\"unfinished\":0,\"avg_black_score\":32.0},\
             {\"move\":\"f5\",\"games\":1,\"black_wins\":1,\"draws\":0,\"white_wins\":0,\"unfinished\":0,\"avg_black_score\":40.0},\
             {\"move\":\"pass\",\"games\":1,\"black_wins\":0,\"draws\":0,\"white_wins\":1,\"unfinished\":0,\"avg_black_score\":10.0}]}"
        );
    }

    #[test]
    fn a_listing_result_says_score_winner_or_status() {
        assert_eq!(
            Listing::result_text(Status::Complete, Some(Winner::Black), Some((40, 24))),
            "40-24"
        );
        assert_eq!(
            Listing::result_text(Status::Incomplete, Some(Winner::White), None),
            "white (unfinished)"
        );
        assert_eq!(
            Listing::result_text(Status::Incomplete, None, None),
            "incomplete"
        );
        assert_eq!(Listing::result_text(Status::Invalid, None, None), "invalid");
    }
}
