//! What a record holds that not every format keeps.
//!
//! Each game's [`Features`] are found once, from the record and its
//! replay; each format states as data which features it loses
//! ([`super::FormatInfo::loses`]) and, for the few limits of its own
//! syntax, a short list of named [`Check`]s. A converter names each loss
//! once per run.

use crate::engine::game::Move;
use crate::record::date::RecordDate;
use crate::record::row::Game;
use crate::record::{AnnotationKind, ResultKind, ResultValue, Rules, Token};
use crate::{Square, Status};

/// Something a record can hold that some format cannot keep.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Feature {
    /// Black's or White's name.
    PlayerNames,
    /// The event or tournament.
    Event,
    /// The site or server.
    Site,
    /// The round.
    Round,
    /// The date.
    Date,
    /// A date that says more than a year.
    ExactDate,
    /// Player ratings.
    Ratings,
    /// Tags without a field of their own.
    OtherTags,
    /// A recorded result.
    Result,
    /// How the game ended: resigned, on time, agreed.
    ResultKind,
    /// A result that names only the winner.
    WinnerOnlyResult,
    /// A result that is not a disc count, in a game that did not end.
    UnscoredResult,
    /// Black's raw disc difference (Logistello's logbook).
    RawMargin,
    /// A theoretical score.
    TheoreticalScore,
    /// Per-move evaluations.
    Evaluations,
    /// Per-move times.
    Times,
    /// Passes written in an invalid record (in a valid one every pass is
    /// forced, and a replay finds it again: nothing is lost).
    ExplicitPasses,
    /// Tokens that are neither a square nor a pass.
    UnreadableMoves,
    /// Anti rules (fewer discs wins).
    AntiRules,
    /// A first move other than f5 (WTHOR turns games to open with f5).
    Orientation,
    /// A player's name longer than 19 bytes of Latin-1.
    LongPlayerNames,
    /// An event's name longer than 25 bytes of Latin-1.
    LongEventNames,
    /// Names with characters outside Latin-1.
    NonLatin1Names,
    /// Comments among the moves.
    Comments,
    /// Numeric annotation glyphs.
    Nags,
    /// Other lines of play.
    Variations,
    /// A board of another size than 8×8.
    OtherBoard,
}

impl Feature {
    /// Every feature.
    pub const ALL: [Feature; 27] = [
        Feature::PlayerNames,
        Feature::Event,
        Feature::Site,
        Feature::Round,
        Feature::Date,
        Feature::ExactDate,
        Feature::Ratings,
        Feature::OtherTags,
        Feature::Result,
        Feature::ResultKind,
        Feature::WinnerOnlyResult,
        Feature::UnscoredResult,
        Feature::RawMargin,
        Feature::TheoreticalScore,
        Feature::Evaluations,
        Feature::Times,
        Feature::ExplicitPasses,
        Feature::UnreadableMoves,
        Feature::AntiRules,
        Feature::Orientation,
        Feature::LongPlayerNames,
        Feature::LongEventNames,
        Feature::NonLatin1Names,
        Feature::Comments,
        Feature::Nags,
        Feature::Variations,
        Feature::OtherBoard,
    ];

    /// What is lost, as a warning ends: `FORMAT cannot keep …`.
    #[must_use]
    pub const fn loss(self) -> &'static str {
        match self {
            Feature::PlayerNames => "player names",
            Feature::Event => "the event",
            Feature::Site => "the site",
            Feature::Round => "the round",
            Feature::Date => "the date",
            Feature::ExactDate => "the exact date (only the year of the file)",
            Feature::Ratings => "player ratings",
            Feature::OtherTags => "other tags",
            Feature::Result => "the recorded result",
            Feature::ResultKind => "how the game ended (resignation, time, agreement)",
            Feature::WinnerOnlyResult => "results that name only the winner",
            Feature::UnscoredResult => "a result that is not a disc count",
            Feature::RawMargin => "raw disc differences of results",
            Feature::TheoreticalScore => "the theoretical score",
            Feature::Evaluations => "per-move evaluations",
            Feature::Times => "per-move times",
            Feature::ExplicitPasses => "explicit passes",
            Feature::UnreadableMoves => "unreadable moves",
            Feature::AntiRules => "anti rules",
            Feature::Orientation => "the orientation of games not opening with f5",
            Feature::LongPlayerNames => "player names over 19 bytes",
            Feature::LongEventNames => "event names over 25 bytes",
            Feature::NonLatin1Names => "characters outside Latin-1 in names",
            Feature::Comments => "comments",
            Feature::Nags => "move annotations (NAGs)",
            Feature::Variations => "variations",
            Feature::OtherBoard => "boards of another size than 8x8",
        }
    }

    const fn bit(self) -> u32 {
        1 << self as u8
    }
}

/// A set of [`Feature`]s.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Features(u32);

impl Features {
    /// No feature.
    pub const NONE: Features = Features(0);

    /// Every feature.
    pub const ALL: Features = Features::of_list(&Feature::ALL);

    /// The set of `list`.
    #[must_use]
    pub const fn of_list(list: &[Feature]) -> Features {
        let mut bits = 0;
        let mut i = 0;
        while i < list.len() {
            bits |= list[i].bit();
            i += 1;
        }
        Features(bits)
    }

    /// The set without the features of `list`.
    #[must_use]
    pub const fn without(self, list: &[Feature]) -> Features {
        Features(self.0 & !Features::of_list(list).0)
    }

    /// Adds one.
    pub fn insert(&mut self, feature: Feature) {
        self.0 |= feature.bit();
    }

    /// Whether `feature` is in the set.
    #[must_use]
    pub const fn contains(self, feature: Feature) -> bool {
        self.0 & feature.bit() != 0
    }

    /// The features in both sets.
    #[must_use]
    pub const fn and(self, other: Features) -> Features {
        Features(self.0 & other.0)
    }

    /// Whether the set is empty.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The features in the set, in [`Feature::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Feature> {
        Feature::ALL.into_iter().filter(move |f| self.contains(*f))
    }

    /// What `game` holds.
    #[must_use]
    pub fn of(game: &Game<'_>) -> Features {
        Features::of_those(game, Features::ALL)
    }

    /// Which of `wanted` `game` holds: only those are looked for (a
    /// format that loses few features asks for few).
    #[must_use]
    pub fn of_those(game: &Game<'_>, wanted: Features) -> Features {
        let want = |feature: Feature| wanted.contains(feature);
        let record = game.record;
        let tags = &record.tags;
        let mut f = Features::NONE;
        let mut set = |feature: Feature, present: bool| {
            if present {
                f.insert(feature);
            }
        };
        set(
            Feature::PlayerNames,
            tags.black.is_some() || tags.white.is_some(),
        );
        set(Feature::Event, tags.event.is_some());
        set(Feature::Site, tags.site.is_some());
        set(Feature::Round, tags.round.is_some());
        set(Feature::Date, tags.date.is_some());
        if want(Feature::ExactDate) {
            set(
                Feature::ExactDate,
                tags.date.as_deref().is_some_and(|d| !is_bare_year(d)),
            );
        }
        set(
            Feature::Ratings,
            tags.black_rating.is_some() || tags.white_rating.is_some(),
        );
        set(Feature::OtherTags, !tags.extra.is_empty());
        if let Some(result) = record.result {
            set(Feature::Result, true);
            set(Feature::ResultKind, result.kind != ResultKind::Score);
            set(
                Feature::WinnerOnlyResult,
                matches!(result.value, ResultValue::Winner(_)),
            );
            set(
                Feature::UnscoredResult,
                result.black_score().is_none() && game.status() == Status::Incomplete,
            );
            set(
                Feature::RawMargin,
                matches!(result.value, ResultValue::RawMargin(m) if m != 0),
            );
        }
        set(
            Feature::TheoreticalScore,
            record.theoretical_black_score.is_some(),
        );
        set(
            Feature::Evaluations,
            record.notes.iter().any(|n| n.eval.is_some()),
        );
        set(
            Feature::Times,
            record.notes.iter().any(|n| n.time.is_some()),
        );
        // Passes and unreadable tokens matter in an invalid game only (an
        // unreadable token makes it invalid).
        if game.status() == Status::Invalid {
            for m in &record.moves {
                match m.token {
                    Token::Move(Move::Pass) => set(Feature::ExplicitPasses, true),
                    Token::Move(Move::Play(_)) => {}
                    Token::Unreadable => set(Feature::UnreadableMoves, true),
                }
            }
        }
        if want(Feature::Orientation) {
            let first = record.moves.iter().find_map(|m| match m.token {
                Token::Move(Move::Play(sq)) => Some(sq),
                _ => None,
            });
            set(
                Feature::Orientation,
                first.is_some_and(|sq| Some(sq) != Square::from_coords(5, 4)),
            );
        }
        set(Feature::AntiRules, record.rules == Rules::Anti);
        let players = [&tags.black, &tags.white];
        if want(Feature::LongPlayerNames) {
            set(
                Feature::LongPlayerNames,
                players
                    .iter()
                    .any(|n| n.as_deref().is_some_and(|n| n.chars().count() > 19)),
            );
        }
        if want(Feature::LongEventNames) {
            set(
                Feature::LongEventNames,
                tags.event
                    .as_deref()
                    .is_some_and(|n| n.chars().count() > 25),
            );
        }
        if want(Feature::NonLatin1Names) {
            set(
                Feature::NonLatin1Names,
                [&tags.black, &tags.white, &tags.event].iter().any(|n| {
                    n.as_deref()
                        .is_some_and(|n| n.chars().any(|c| u32::from(c) > 0xFF || c == '\0'))
                }),
            );
        }
        set(Feature::OtherBoard, record.other_board.is_some());
        for annotation in &record.annotations {
            let feature = match annotation.kind {
                AnnotationKind::Comment(_) => Feature::Comments,
                AnnotationKind::Nag(_) => Feature::Nags,
                AnnotationKind::Variation(_) => Feature::Variations,
            };
            set(feature, true);
        }
        f.and(wanted)
    }
}

/// Whether a date is a year alone (`2004`).
/// Whether a date names a year alone, in any form (`2004`, PGN's
/// `2004.??.??`, GGF's `2004.??.??`).
fn is_bare_year(date: &str) -> bool {
    RecordDate::parse(date).is_some_and(|d| d.month.is_none())
}

/// A limit of one format's syntax that a game may run into: what is lost
/// and when.
#[derive(Clone, Copy)]
pub struct Check {
    /// What is lost, as a warning ends: `FORMAT cannot keep …`.
    pub loss: &'static str,
    /// Whether `game` loses it.
    pub applies: fn(&Game<'_>) -> bool,
}

/// Whether `spell` writes some unreadable move of `game` other than as
/// it was read: the check of formats with a spelling of their own.
pub(crate) fn respells_unreadable(game: &Game<'_>, spell: fn(&str) -> String) -> bool {
    game.record
        .unreadable
        .iter()
        .any(|(_, text)| spell(text) != **text)
}

impl std::fmt::Debug for Check {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Check").field("loss", &self.loss).finish()
    }
}

#[cfg(test)]
mod tests {
    use crate::formats::Format;
    use crate::testkit::{random_game, transcript, Play, Rng};
    use crate::{Move, Token};

    #[test]
    fn looking_for_some_features_finds_those_of_all_it_would_find() {
        use crate::formats::features::Features;
        use crate::record::row::Game;
        let mut rng = Rng::new(12);
        let play = Play {
            stop: 5,
            written_passes: 30,
            odd_start: 10,
        };
        for _ in 0..300 {
            let mut g = random_game(&mut rng, play);
            crate::testkit::decorate(&mut rng, &mut g);
            let report = g.replay();
            let game = Game::new("", &g, &report);
            let all = Features::of(&game);
            for format in Format::ALL {
                let wanted = format.info().loses;
                assert_eq!(Features::of_those(&game, wanted), all.and(wanted));
            }
        }
    }

    #[test]
    fn a_forced_pass_written_in_a_valid_game_is_no_loss() {
        let mut rng = Rng::new(11);
        let play = Play {
            written_passes: 100,
            ..Play::WHOLE
        };
        let with_pass = (0..1000)
            .map(|_| random_game(&mut rng, play))
            .find(|g| g.moves.iter().any(|m| m.token == Token::Move(Move::Pass)))
            .expect("a random game with a pass");
        for format in [Format::Transcript, Format::Wthor, Format::Csv] {
            let lost = format.losses_of(&with_pass);
            assert!(!lost.contains(&"explicit passes"), "{format}: {lost:?}");
        }
        // In an invalid game the pass tokens are what the error counts.
        let invalid = transcript("f5 d6 pass");
        assert!(Format::Transcript
            .losses_of(&invalid)
            .contains(&"explicit passes"));
    }
}
