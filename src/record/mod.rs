//! The format-neutral game record every reader produces and every writer
//! takes, and its replay into a [`Report`]; and what rides on records:
//! their source spans and dates, the table's game row ([`row`]), filters
//! and selection ([`select`]), repair of broken records ([`repair`]) and
//! the analysis of a played game by the solver ([`analysis`]).

pub mod analysis;
pub mod date;
pub mod repair;
pub mod row;
pub mod select;
pub mod source;

use std::fmt;

use crate::engine::game::{Finish, Move, Replay, ReplayError, Score, Status, Winner};
use crate::record::source::{MoveSpans, ParseError, Span};
use crate::{Color, Position};

/// One move token of a record, as written.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Token {
    /// A square or an explicit pass.
    Move(Move),
    /// Text in a move's place that is neither; its text is in
    /// [`GameRecord::unreadable`].
    Unreadable,
}

/// A move token with the colour the record gives it, if any.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct RecordedMove {
    /// What was written.
    pub token: Token,
    /// The side the record says made the move (by letter case, a `+`/`-`
    /// sign, a `B[..]`/`W[..]` tag). `None` when the record does not say.
    pub color: Option<Color>,
}

impl RecordedMove {
    /// A move without colour information.
    #[must_use]
    pub const fn new(mv: Move) -> RecordedMove {
        RecordedMove {
            token: Token::Move(mv),
            color: None,
        }
    }
}

/// Engine annotations of one move (GGF `/eval/time`).
#[derive(Clone, Copy, PartialEq, Debug, Default)]
pub struct MoveNote {
    /// Evaluation, from the mover's view as the program wrote it.
    pub eval: Option<f64>,
    /// Seconds spent.
    pub time: Option<f64>,
}

/// How a recorded game ended, as the record says.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum ResultKind {
    /// Played out or agreed by score.
    #[default]
    Score,
    /// A player resigned.
    Resigned,
    /// A player ran out of time.
    Time,
    /// Both players agreed on a score (GGF `:s`).
    Mutual,
}

/// The value of a recorded result.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum ResultValue {
    /// Disc counts, Black first (`34-30`, WTHOR's stored score).
    Discs {
        /// Black's discs.
        black: u8,
        /// White's discs.
        white: u8,
    },
    /// Black's disc lead with empties to the winner (GGF `RE`, SGF
    /// `B+12`/`W+4`, may be fractional with komi).
    Margin(f64),
    /// Black's raw disc lead, empties not awarded (Logistello logbook).
    RawMargin(i32),
    /// Only who won (`1-0`, `0-1`, `1/2-1/2`).
    Winner(Winner),
}

/// The result a record claims.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct RecordedResult {
    /// What it says.
    pub value: ResultValue,
    /// How the game ended.
    pub kind: ResultKind,
}

impl RecordedResult {
    /// A plain result.
    #[must_use]
    pub const fn new(value: ResultValue) -> RecordedResult {
        RecordedResult {
            value,
            kind: ResultKind::Score,
        }
    }

    /// Black's score (empties to the winner) when the result gives one.
    #[must_use]
    pub fn black_score(&self) -> Option<u8> {
        match self.value {
            ResultValue::Discs { black, white } => {
                if u16::from(black) + u16::from(white) > 64 {
                    None
                } else {
                    Some(Score::from_discs(black, white).black_score)
                }
            }
            ResultValue::Margin(m) => {
                // A whole, even margin from -64 to 64, told apart without
                // `fract` and `%` on floats (library calls on baseline
                // x86-64): within the range the cast is exact or truncates.
                if !(-64.0..=64.0).contains(&m) {
                    return None;
                }
                let whole = m as i32;
                (f64::from(whole) == m && whole % 2 == 0).then(|| (32 + whole / 2) as u8)
            }
            ResultValue::RawMargin(_) | ResultValue::Winner(_) => None,
        }
    }

    /// Who the result says won, when it says.
    #[must_use]
    pub fn winner(&self) -> Option<Winner> {
        let from_sign = |x: f64| {
            if x > 0.0 {
                Winner::Black
            } else if x < 0.0 {
                Winner::White
            } else {
                Winner::Draw
            }
        };
        match self.value {
            ResultValue::Discs { black, white } => {
                Some(from_sign(f64::from(black) - f64::from(white)))
            }
            ResultValue::Margin(m) => Some(from_sign(m)),
            ResultValue::RawMargin(m) => Some(from_sign(f64::from(m))),
            ResultValue::Winner(w) => Some(w),
        }
    }

    /// Whether the claim agrees with a finished board.
    #[must_use]
    pub fn agrees_with(&self, score: &Score) -> bool {
        match self.value {
            ResultValue::RawMargin(m) => {
                m == i32::from(score.black_discs) - i32::from(score.white_discs)
            }
            ResultValue::Winner(w) => w == score.winner,
            _ => match self.black_score() {
                Some(b) => b == score.black_score,
                None => self.winner() == Some(score.winner),
            },
        }
    }
}

impl fmt::Display for RecordedResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.value {
            ResultValue::Discs { black, white } => write!(f, "{black}-{white}")?,
            ResultValue::Margin(m) => write!(f, "{m:+}")?,
            ResultValue::RawMargin(m) => write!(f, "{m:+} raw")?,
            ResultValue::Winner(Winner::Black) => f.write_str("1-0")?,
            ResultValue::Winner(Winner::White) => f.write_str("0-1")?,
            ResultValue::Winner(Winner::Draw) => f.write_str("1/2-1/2")?,
        }
        f.write_str(self.kind.suffix())
    }
}

impl ResultKind {
    /// What a result of this kind ends with: nothing, ` (resigned)`,
    /// ` (time)` or ` (agreed)`.
    #[must_use]
    pub const fn suffix(self) -> &'static str {
        match self {
            ResultKind::Score => "",
            ResultKind::Resigned => " (resigned)",
            ResultKind::Time => " (time)",
            ResultKind::Mutual => " (agreed)",
        }
    }
}

impl RecordedResult {
    /// Appends what `Display` writes, the common disc counts and margins
    /// (whole or halves, GGF's `RE[+4.000]`) without the formatting
    /// machinery (a table row writes one a game; a float's `Display`
    /// alone took 1,400 instructions).
    pub fn push_to(&self, out: &mut Vec<u8>) {
        let mut digits = itoa::Buffer::new();
        let pushed = match self.value {
            ResultValue::Discs { black, white } => {
                out.extend_from_slice(digits.format(black).as_bytes());
                out.push(b'-');
                out.extend_from_slice(digits.format(white).as_bytes());
                true
            }
            ResultValue::Margin(m) => push_margin(m, out),
            ResultValue::RawMargin(m) => {
                out.push(if m < 0 { b'-' } else { b'+' });
                out.extend_from_slice(digits.format(m.unsigned_abs()).as_bytes());
                out.extend_from_slice(b" raw");
                true
            }
            ResultValue::Winner(_) => false,
        };
        if pushed {
            out.extend_from_slice(self.kind.suffix().as_bytes());
        } else {
            use std::io::Write;
            // Writing into a vector cannot fail.
            let _ = write!(out, "{self}");
        }
    }
}

/// Appends `m` as `{m:+}` writes it when it is whole or a half below
/// 2^52 (`+4`, `-3.5`, `-0`); else appends nothing and says so.
fn push_margin(m: f64, out: &mut Vec<u8>) -> bool {
    let twice = m.abs() * 2.0;
    if twice.is_nan() || twice >= 4_503_599_627_370_496.0 {
        return false;
    }
    // Below 2^52 the cast truncates, and is exact for a whole number of
    // halves (no `fract`, a library call on baseline x86-64).
    let halves = twice as u64;
    if halves as f64 != twice {
        return false;
    }
    out.push(if m.is_sign_negative() { b'-' } else { b'+' });
    out.extend_from_slice(itoa::Buffer::new().format(halves / 2).as_bytes());
    if halves % 2 == 1 {
        out.extend_from_slice(b".5");
    }
    true
}

/// Which rules score the game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Rules {
    /// More discs wins.
    #[default]
    Standard,
    /// Fewer discs wins (GGF `TY[8a]`); empties still go to the winner.
    Anti,
}

/// The text did not read as a result written by [`RecordedResult`]'s
/// `Display`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a result: {0:?}")]
pub struct ParseResultError(pub String);

impl std::str::FromStr for RecordedResult {
    type Err = ParseResultError;

    /// Reads what `Display` writes: `34-30`, `+2`, `-3.5`, `+4 raw`,
    /// `1-0`, `0-1`, `1/2-1/2`, each optionally followed by ` (resigned)`,
    /// ` (time)` or ` (agreed)`.
    fn from_str(text: &str) -> Result<RecordedResult, ParseResultError> {
        let fail = || ParseResultError(text.to_owned());
        let text_trim = text.trim();
        let (body, kind) = [
            (" (resigned)", ResultKind::Resigned),
            (" (time)", ResultKind::Time),
            (" (agreed)", ResultKind::Mutual),
        ]
        .iter()
        .find_map(|(suffix, kind)| text_trim.strip_suffix(suffix).map(|b| (b, *kind)))
        .unwrap_or((text_trim, ResultKind::Score));
        let value = match body {
            "1-0" => ResultValue::Winner(Winner::Black),
            "0-1" => ResultValue::Winner(Winner::White),
            "1/2-1/2" => ResultValue::Winner(Winner::Draw),
            _ => {
                if let Some(raw) = body.strip_suffix(" raw") {
                    ResultValue::RawMargin(raw.parse().map_err(|_| fail())?)
                } else if body.starts_with(['+', '-']) {
                    let m: f64 = body.parse().map_err(|_| fail())?;
                    if !m.is_finite() {
                        return Err(fail());
                    }
                    ResultValue::Margin(m)
                } else {
                    let (b, w) = body.split_once('-').ok_or_else(fail)?;
                    ResultValue::Discs {
                        black: b.parse().map_err(|_| fail())?,
                        white: w.parse().map_err(|_| fail())?,
                    }
                }
            }
        };
        Ok(RecordedResult { value, kind })
    }
}

/// An oddity of a source that a reader read past without harm: a writer's
/// habit, or a missing name. Each is worth one note per input, never an
/// invalid game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Quirk {
    /// WTHOR move bytes padded with 92 after the last move (Edax), read as
    /// the end of the moves.
    PaddedWith92,
    /// A WTHOR score byte over 64 (Edax stores 225 for an unfinished game),
    /// read as no recorded score.
    ScoreOver64,
    /// A WTHOR theoretical score byte over 64, read as none.
    TheoreticalOver64,
    /// Black's player number is missing from the name file (the name reads
    /// `#N`).
    BlackUnnamed,
    /// White's player number is missing from the name file.
    WhiteUnnamed,
    /// The tournament number is missing from the name file.
    EventUnnamed,
    /// Letter case that does not read as colours (`f5 d6 C3 d3`): read
    /// ignoring case.
    CaseIgnored,
}

impl Quirk {
    /// Every quirk, in the order notes list them.
    pub const ALL: [Quirk; 7] = [
        Quirk::PaddedWith92,
        Quirk::ScoreOver64,
        Quirk::TheoreticalOver64,
        Quirk::BlackUnnamed,
        Quirk::WhiteUnnamed,
        Quirk::EventUnnamed,
        Quirk::CaseIgnored,
    ];

    const fn bit(self) -> u8 {
        1 << self as u8
    }

    /// What games with this quirk have, and how they were read: the end of
    /// `N games …`.
    #[must_use]
    pub const fn note(self) -> &'static str {
        match self {
            Quirk::PaddedWith92 => {
                "pad their moves with byte 92 (as Edax writes): read as the end of the moves"
            }
            Quirk::ScoreOver64 => {
                "store a score byte over 64 (Edax's mark of an unfinished game): \
                 read as no recorded score"
            }
            Quirk::TheoreticalOver64 => {
                "store a theoretical score byte over 64: read as no theoretical score"
            }
            Quirk::BlackUnnamed | Quirk::WhiteUnnamed | Quirk::EventUnnamed => {
                "name a player or tournament number missing from the name files: shown as #N"
            }
            Quirk::CaseIgnored => {
                "mix upper and lower case in a way that is no colour code: read ignoring case"
            }
        }
    }
}

/// A set of [`Quirk`]s.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Quirks(u8);

impl Quirks {
    /// Adds one.
    pub fn insert(&mut self, quirk: Quirk) {
        self.0 |= quirk.bit();
    }

    /// Whether `quirk` is in the set.
    #[must_use]
    pub const fn contains(self, quirk: Quirk) -> bool {
        self.0 & quirk.bit() != 0
    }

    /// Whether the set is empty.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The quirks in the set.
    pub fn iter(self) -> impl Iterator<Item = Quirk> {
        Quirk::ALL.into_iter().filter(move |q| self.contains(*q))
    }
}

/// Names and other tags of a game. Dates and ratings are kept verbatim.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Tags {
    /// Tournament or event (WTHOR tournament, PGN `Event`).
    pub event: Option<String>,
    /// Place or server (GGF `PC`, PGN `Site`).
    pub site: Option<String>,
    /// Date as written.
    pub date: Option<String>,
    /// Round.
    pub round: Option<String>,
    /// Black's name.
    pub black: Option<String>,
    /// White's name.
    pub white: Option<String>,
    /// Black's rating as written.
    pub black_rating: Option<String>,
    /// White's rating as written.
    pub white_rating: Option<String>,
    /// Every other tag, in source order, under its source name.
    pub extra: Vec<(String, String)>,
}

/// Where a game came from in its input.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Origin {
    /// 1-based game number within the input.
    pub index: u64,
    /// 1-based line where the game starts (text formats).
    pub line: Option<u32>,
    /// Byte offset where the game starts.
    pub byte: u64,
    /// The source lines of the game, for diagnostics (text formats).
    pub text: Option<Box<str>>,
}

impl Origin {
    /// The text of 1-based `line` if this origin holds it.
    #[must_use]
    pub fn line_text(&self, line: u32) -> Option<&str> {
        let first = self.line?;
        let text = self.text.as_deref()?;
        let offset = line.checked_sub(first)? as usize;
        text.split('\n')
            .nth(offset)
            .map(|l| l.strip_suffix('\r').unwrap_or(l))
    }
}

/// One game as read from any format.
#[derive(Clone, PartialEq, Debug)]
pub struct GameRecord {
    /// The position before the first move.
    pub start: Position,
    /// Move tokens in order, explicit passes included.
    pub moves: Vec<RecordedMove>,
    /// Texts of the [`Token::Unreadable`] moves, by move index (0-based).
    pub unreadable: Vec<(usize, Box<str>)>,
    /// Per-move annotations: empty, or one per move.
    pub notes: Vec<MoveNote>,
    /// Where each move token is in the source.
    pub spans: MoveSpans,
    /// Names, dates and other tags.
    pub tags: Tags,
    /// The result the record claims.
    pub result: Option<RecordedResult>,
    /// Black's theoretical score (WTHOR).
    pub theoretical_black_score: Option<u8>,
    /// The depth of the theoretical score: empties solved by perfect play
    /// (WTHOR's header byte P3), when the source says.
    pub theoretical_depth: Option<u8>,
    /// Standard or anti rules.
    pub rules: Rules,
    /// Where the game came from.
    pub origin: Origin,
    /// A syntax error that made the rest of the game unreadable; the moves
    /// before it are kept.
    pub defect: Option<ParseError>,
    /// Oddities of the source read past without harm, for a note.
    pub quirks: Quirks,
    /// Comments, NAGs and variations, where the record puts them.
    pub annotations: Vec<Annotation>,
    /// A board kifu does not play (another size than 8×8), as the source
    /// wrote it: the game is invalid, its moves and result kept.
    pub other_board: Option<OtherBoard>,
}

/// Text a record attaches among its moves.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Annotation {
    /// Move tokens before it: 0 before the first move.
    pub after: usize,
    /// What it is.
    pub kind: AnnotationKind,
}

/// The kinds of [`Annotation`].
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum AnnotationKind {
    /// A comment, as written (PGN `{…}`, SGF `C[…]`).
    Comment(String),
    /// A numeric annotation glyph (PGN `$1`).
    Nag(u16),
    /// Another line of play from here, as its source wrote it (an SGF
    /// subtree, a PGN `(…)`), kept to be written back.
    Variation(String),
}

/// A board of another size than 8×8: kept, never played.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct OtherBoard {
    /// Squares on a side.
    pub size: u8,
    /// The start board in the source's own notation (GGF's `BO` value).
    pub start: String,
}

impl Default for GameRecord {
    fn default() -> GameRecord {
        GameRecord::new(Position::start())
    }
}

impl GameRecord {
    /// An empty record from `start`.
    #[must_use]
    pub fn new(start: Position) -> GameRecord {
        GameRecord {
            start,
            moves: Vec::new(),
            unreadable: Vec::new(),
            notes: Vec::new(),
            spans: MoveSpans::Unknown,
            tags: Tags::default(),
            result: None,
            theoretical_black_score: None,
            theoretical_depth: None,
            rules: Rules::Standard,
            origin: Origin::default(),
            defect: None,
            quirks: Quirks::default(),
            annotations: Vec::new(),
            other_board: None,
        }
    }

    /// Whether the game starts from the standard position.
    #[must_use]
    pub fn has_standard_start(&self) -> bool {
        self.start == Position::start()
    }

    /// The text of move `index` (0-based): the square in lowercase, `pass`,
    /// or the unreadable text as written.
    #[must_use]
    pub fn token_text(&self, index: usize) -> String {
        match self.moves.get(index).map(|m| m.token) {
            Some(Token::Move(mv)) => mv.to_string(),
            Some(Token::Unreadable) => self
                .unreadable
                .iter()
                .find(|(i, _)| *i == index)
                .map(|(_, t)| t.to_string())
                .unwrap_or_default(),
            None => String::new(),
        }
    }

    /// The squares played, lowercase and concatenated, passes left out,
    /// unreadable tokens kept as written (nothing is lost).
    #[must_use]
    pub fn move_string(&self) -> String {
        let mut squares = Vec::new();
        if self.push_squares(&mut squares) {
            // Square names are ASCII.
            if let Ok(text) = String::from_utf8(squares) {
                return text;
            }
        }
        let mut out = String::with_capacity(self.moves.len() * 2);
        for (i, m) in self.moves.iter().enumerate() {
            match m.token {
                Token::Move(Move::Play(sq)) => {
                    let [a, b] = sq.to_ascii();
                    out.push(a as char);
                    out.push(b as char);
                }
                Token::Move(Move::Pass) => {}
                Token::Unreadable => out.push_str(&self.token_text(i)),
            }
        }
        out
    }

    /// Appends the squares played, two ASCII bytes each, passes leaving
    /// nothing: [`GameRecord::move_string`] of a record whose tokens all
    /// read. `false`, with `out` as it was, when a token is unreadable.
    pub(crate) fn push_squares(&self, out: &mut Vec<u8>) -> bool {
        // Written into room made for every token at once, then cut to
        // what was written. Squares only, the common case, in a loop of
        // its own; from the first other token on, the general one.
        let start = out.len();
        out.resize(start + 2 * self.moves.len(), 0);
        let room = out.get_mut(start..).unwrap_or_default();
        let mut squares = 0;
        for (pair, m) in room.chunks_exact_mut(2).zip(&self.moves) {
            let Token::Move(Move::Play(square)) = m.token else {
                break;
            };
            pair.copy_from_slice(&square.to_ascii());
            squares += 1;
        }
        let mut pairs = room.chunks_exact_mut(2).skip(squares);
        for m in self.moves.iter().skip(squares) {
            match m.token {
                Token::Move(Move::Play(square)) => {
                    if let Some(pair) = pairs.next() {
                        pair.copy_from_slice(&square.to_ascii());
                    }
                    squares += 1;
                }
                Token::Move(Move::Pass) => {}
                Token::Unreadable => {
                    out.truncate(start);
                    return false;
                }
            }
        }
        out.truncate(start + 2 * squares);
        true
    }

    /// The side that made each move token, for writers whose formats name
    /// it (`B[..]`/`W[..]`). Found by replaying; past an error the colours
    /// follow the record's own hints, else alternate.
    #[must_use]
    pub fn move_colors(&self) -> Vec<Color> {
        let mut replay = Replay::new(self.start);
        let mut colors = Vec::with_capacity(self.moves.len());
        let mut next = self.start.side_to_move();
        let mut failed = false;
        for m in &self.moves {
            let color = match (failed, m.token) {
                (false, Token::Move(mv)) => match replay.play(mv, m.color) {
                    Ok(ply) => Some(ply.color),
                    Err(_) => {
                        failed = true;
                        None
                    }
                },
                _ => {
                    failed = true;
                    None
                }
            };
            let color = color.or(m.color).unwrap_or(next);
            colors.push(color);
            next = color.opponent();
        }
        colors
    }

    /// Where move token `index` (0-based) is in the source.
    #[must_use]
    pub fn span(&self, index: usize) -> Option<Span> {
        if index < self.moves.len() {
            self.spans.get(index)
        } else {
            None
        }
    }

    /// Every move token with the side that made it and the pass the
    /// replay put before it; `report` is this record's replay.
    #[must_use]
    pub fn plies<'a>(&'a self, report: &'a Report) -> Plies<'a> {
        Plies {
            record: self,
            // No move of a game on another board is played here; each
            // keeps the side the record gives it.
            legal: if self.other_board.is_some() {
                0
            } else {
                report
                    .error
                    .as_ref()
                    .and_then(GameError::move_number)
                    .map_or(self.moves.len(), |n| n - 1)
            },
            implicit_passes: report.implicit_passes,
            side: self.start.side_to_move(),
            index: 0,
        }
    }
}

/// Sees a replay position by position ([`GameRecord::replay_watched`]):
/// position matching, opening names and training positions all ride on
/// the one replay of a game.
pub trait Watch {
    /// A position and the move played from it (a pass where the side to
    /// move passes, written or not); `ply` counts the moves and passes
    /// played before it.
    fn position(&mut self, position: &Position, ply: u32, next: Move);

    /// The last legal position, with nothing played from it.
    fn end(&mut self, _position: &Position, _ply: u32) {}

    /// Whether it wants to see the next positions. Asked before each move
    /// token: once `false`, the replay plays the rest of the game without
    /// showing it any position but the last ([`Watch::end`]), as fast as
    /// a replay that watches nothing (an opening named after its first
    /// moves). `true` by default.
    #[inline(always)]
    fn watching(&self) -> bool {
        true
    }
}

/// Two watchers of the one replay, each shown everything; watching while
/// either is (the one that stopped may see a few positions more).
impl<A: Watch + ?Sized, B: Watch + ?Sized> Watch for (&mut A, &mut B) {
    #[inline(always)]
    fn position(&mut self, position: &Position, ply: u32, next: Move) {
        self.0.position(position, ply, next);
        self.1.position(position, ply, next);
    }

    #[inline(always)]
    fn watching(&self) -> bool {
        self.0.watching() || self.1.watching()
    }

    fn end(&mut self, position: &Position, ply: u32) {
        self.0.end(position, ply);
        self.1.end(position, ply);
    }
}

/// Watches nothing: the plain replay.
impl Watch for () {
    #[inline(always)]
    fn position(&mut self, _position: &Position, _ply: u32, _next: Move) {}

    #[inline(always)]
    fn watching(&self) -> bool {
        false
    }
}

/// One move token of a record and what the replay made of it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Turn {
    /// 0-based index of the token in the record.
    pub index: usize,
    /// What the record says.
    pub token: Token,
    /// The side that made it: as replayed, or past an illegal move as the
    /// record says (by case, sign or tag), else the other side of the
    /// previous token.
    pub color: Color,
    /// The replay inserted a pass of the other side just before it.
    pub pass_before: bool,
    /// Before the first illegal move.
    pub legal: bool,
}

/// The turns of a record: see [`GameRecord::plies`].
#[derive(Clone, Debug)]
pub struct Plies<'a> {
    record: &'a GameRecord,
    legal: usize,
    implicit_passes: u128,
    side: Color,
    index: usize,
}

impl Iterator for Plies<'_> {
    type Item = Turn;

    fn next(&mut self) -> Option<Turn> {
        let index = self.index;
        let m = self.record.moves.get(index)?;
        self.index += 1;
        let legal = index < self.legal;
        let pass_before = legal && (self.implicit_passes >> index.min(127)) & 1 == 1 && index < 128;
        let color = if legal {
            if pass_before {
                self.side = self.side.opponent();
            }
            self.side
        } else {
            m.color.unwrap_or(self.side)
        };
        // Who moves next after a forced pass is settled here once: the
        // other side of whoever made this token.
        self.side = color.opponent();
        Some(Turn {
            index,
            token: m.token,
            color,
            pass_before,
            legal,
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.record.moves.len() - self.index;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Plies<'_> {}

/// What is wrong with an invalid game.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum GameError {
    /// A move breaks the rules.
    #[error(transparent)]
    Replay(ReplayError),
    /// The record could not be read to its end.
    #[error("{}", .0.message)]
    Parse(ParseError),
}

impl GameError {
    /// The 1-based move token number, when the error is at a move.
    #[must_use]
    pub fn move_number(&self) -> Option<usize> {
        match self {
            GameError::Replay(e) => Some(e.number),
            GameError::Parse(_) => None,
        }
    }

    /// Where in the source the error is, when known.
    #[must_use]
    pub fn span(&self, record: &GameRecord) -> Option<Span> {
        match self {
            GameError::Replay(e) => record.span(e.number.checked_sub(1)?),
            GameError::Parse(p) => Some(p.span),
        }
    }

    /// The reason alone, without the move.
    #[must_use]
    pub fn reason(&self) -> String {
        match self {
            GameError::Replay(e) => e.kind.to_string(),
            GameError::Parse(p) => p.message.clone(),
        }
    }
}

/// The replay of one record.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Report {
    /// The last legal position and its counts.
    pub finish: Finish,
    /// The first error, if the game is invalid.
    pub error: Option<GameError>,
    /// Bit `i` set: the replay passed for the side to move just before
    /// move token `i` (a pass the record leaves out).
    pub implicit_passes: u128,
}

impl Report {
    /// Complete, incomplete or invalid.
    #[must_use]
    pub fn status(&self) -> Status {
        if self.error.is_some() {
            Status::Invalid
        } else {
            self.finish.status
        }
    }

    /// The final score when the game is complete.
    #[must_use]
    pub fn final_score(&self) -> Option<Score> {
        (self.status() == Status::Complete).then_some(self.finish.score)
    }
}

mod replay;
#[cfg(test)]
mod tests;
