//! Writing `.wtb` game files and their name files.

use std::collections::{BTreeMap, HashMap};
use std::io::{self, Seek, SeekFrom, Write};

use crate::engine::game::Move;
use crate::formats::format::{GameWriter, Refusal, WriteError};
use crate::formats::wthor::header::{
    Header, HEADER_LEN, MOVES_AT, MOVE_BYTES, PLAYER_RECORD_LEN, RECORD_LEN, TOURNAMENT_RECORD_LEN,
};
use crate::formats::wthor::names::{decode_latin1, encode_latin1, Names};
use crate::formats::wthor::read::byte_of_square;
use crate::record::row::Game;
use crate::record::{Report, Rules, Tags, Token};
use crate::{GameRecord, Square, Status, Symmetry, Winner};

/// A game made ready for a record, names aside.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct EncodedGame {
    /// Black's score byte.
    pub score: u8,
    /// Black's theoretical score byte.
    pub theoretical: u8,
    /// Move bytes, 0 after the last.
    pub moves: [u8; MOVE_BYTES],
    /// The symmetry applied so that the game starts with f5.
    pub symmetry: Symmetry,
    /// The year the game was played, from its date.
    pub year: Option<u16>,
    /// The record stated another score than the replay's, which was stored.
    pub score_replaced: bool,
    /// The theoretical score is not known at the file's depth (see
    /// [`encode`]).
    pub theoretical_unverified: bool,
}

/// The symmetries that keep the start position, and the opening each
/// turns into f5.
const OPENING_SYMMETRIES: [Symmetry; 4] = [
    Symmetry::Identity,
    Symmetry::Rotate180,
    Symmetry::FlipDiagonal,
    Symmetry::FlipAntiDiagonal,
];

/// Encodes a game for a record of a file whose theoretical scores have
/// `depth` (P3): `report` must be `record.replay()`.
///
/// Passes are dropped (the replay finds them again) and the game is
/// turned by the symmetry of the start position that makes its first move
/// f5.
///
/// The score byte is the replayed score with empties to the winner for a
/// complete game (a recorded score that differs is replaced, and the game
/// says so); for an incomplete one the recorded result's score if it
/// gives one, else the board's when it agrees with the recorded winner,
/// else 64, 0 or 32 for a win of Black, of White or a draw.
///
/// The theoretical score byte — perfect play by both from `depth` empties —
/// is, in this order: the record's theoretical score when it was stored at
/// the same depth (a WTHOR input); the record's theoretical score of an
/// unknown depth, as recorded (unverified); the score byte when the depth
/// makes the two equal (the game stopped with at least `depth` empties, or
/// the depth is 0 or 1, as Edax writes); else, unverified, the record's
/// theoretical score of another depth, or the score byte.
pub fn encode(record: &GameRecord, report: &Report, depth: u8) -> Result<EncodedGame, Refusal> {
    if !record.has_standard_start() {
        return Err(Refusal::NonStandardStart);
    }
    if record.rules == Rules::Anti {
        return Err(Refusal::AntiRules);
    }
    if let Some(i) = record
        .moves
        .iter()
        .position(|m| m.token == Token::Unreadable)
    {
        return Err(Refusal::Unreadable {
            number: i + 1,
            text: record.token_text(i),
        });
    }
    if let Some(e) = &report.error {
        return Err(Refusal::Invalid(e.clone()));
    }
    let mut moves = [0u8; MOVE_BYTES];
    let mut squares = record.moves.iter().filter_map(|m| match m.token {
        Token::Move(Move::Play(sq)) => Some(sq),
        _ => None,
    });
    let f5 = Square::from_coords(5, 4);
    let first = squares.clone().next();
    let symmetry = first
        .and_then(|first| {
            OPENING_SYMMETRIES
                .into_iter()
                .find(|&s| Some(first.transform(s)) == f5)
        })
        .unwrap_or(Symmetry::Identity);
    for (placed, sq) in squares.by_ref().enumerate() {
        let Some(slot) = moves.get_mut(placed) else {
            return Err(Refusal::TooManyMoves(placed + 1 + squares.count()));
        };
        *slot = byte_of_square(sq.transform(symmetry));
    }
    let finish = &report.finish;
    let board = finish.score.black_score;
    let recorded = record.result.and_then(|r| r.black_score());
    let complete = report.status() == Status::Complete;
    let score = if complete {
        board
    } else {
        recorded.unwrap_or_else(|| match record.result.and_then(|r| r.winner()) {
            // Only who won: the board's score if it agrees, else all the
            // discs to the winner (as the PlayOK files store resignations).
            Some(winner) if winner != finish.score.winner => match winner {
                Winner::Black => 64,
                Winner::White => 0,
                Winner::Draw => 32,
            },
            _ => board,
        })
    };
    let stated = record
        .theoretical_black_score
        .filter(|&t| t <= 64)
        .map(|t| (t, record.theoretical_depth));
    let (theoretical, theoretical_unverified) = match stated {
        Some((t, Some(d))) if d == depth => (t, false),
        Some((t, None)) => (t, true),
        _ if depth <= 1 || finish.score.empties >= depth => (score, false),
        Some((t, Some(_))) => (t, true),
        None => (score, true),
    };
    Ok(EncodedGame {
        score,
        theoretical,
        moves,
        symmetry,
        year: record.tags.date.as_deref().and_then(year_of),
        score_replaced: complete && recorded.is_some_and(|r| r != board),
        theoretical_unverified,
    })
}

/// Settings of a written file's header.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct WriterOptions {
    /// Creation date: century, year in the century, month, day.
    pub created: (u8, u8, u8, u8),
    /// The game year; `None` takes it from the first game's date when
    /// that starts with a four-digit year, else 0.
    pub year: Option<u16>,
    /// P3, the depth of the theoretical scores (see [`encode`]).
    pub depth: u8,
}

impl WriterOptions {
    /// Options for a file created on this date, its year left to the
    /// games, depth 1 (the theoretical score of a finished game is then
    /// its score).
    #[must_use]
    pub fn new(year: u16, month: u8, day: u8) -> WriterOptions {
        WriterOptions {
            created: ((year / 100) as u8, (year % 100) as u8, month, day),
            year: None,
            depth: 1,
        }
    }
}

/// The year a date starts with (`1977`, `2003.12.15_13:24:03.MST`,
/// `2022-01-17`), if it does.
pub(crate) fn year_of(date: &str) -> Option<u16> {
    let bytes = date.trim().as_bytes();
    let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits != 4 {
        return None;
    }
    date.trim().get(..4)?.parse().ok()
}

/// Names by their stored (Latin-1, truncated) form, and their ids.
#[derive(Debug)]
struct NameTable {
    exact: HashMap<Vec<u8>, u16>,
    folded: HashMap<String, u16>,
    names: Vec<String>,
    max: usize,
    existing: usize,
}

impl NameTable {
    /// A table that keeps the numbering of `names` (a name file's
    /// records); id 0 is the unknown name, `?` in a new table.
    fn new(names: Vec<String>, record_len: usize) -> NameTable {
        let existing = names.len();
        let mut table = NameTable {
            exact: HashMap::new(),
            folded: HashMap::new(),
            names: Vec::with_capacity(names.len().max(1)),
            max: record_len - 1,
            existing,
        };
        if names.is_empty() {
            table.push(b"?".to_vec());
        }
        for name in names {
            table.push(encode_latin1(&name, table.max));
        }
        table
    }

    /// Adds a stored name under the next id; the first of equal names
    /// keeps its id for lookups.
    fn push(&mut self, stored: Vec<u8>) -> u16 {
        let id = self.names.len() as u16;
        let name = decode_latin1(&stored);
        self.folded.entry(name.to_lowercase()).or_insert(id);
        self.exact.entry(stored).or_insert(id);
        self.names.push(name);
        id
    }

    /// The id of a stored name, exactly, else ignoring case.
    fn find(&self, stored: &[u8]) -> Option<u16> {
        self.exact
            .get(stored)
            .or_else(|| self.folded.get(&decode_latin1(stored).to_lowercase()))
            .copied()
    }

    /// Whether `name` would be a new entry.
    fn is_new(&self, name: Option<&str>) -> bool {
        name.is_some_and(|n| self.find(&encode_latin1(n, self.max)).is_none())
    }

    /// Room for `new` more names (ids are u16).
    fn has_room(&self, new: usize) -> bool {
        self.names.len() + new <= usize::from(u16::MAX) + 1
    }

    /// The id of `name` (0 for none), added if new. Callers check
    /// `has_room` first, so a new id fits in a u16.
    fn id(&mut self, name: Option<&str>) -> u16 {
        let Some(name) = name else { return 0 };
        let stored = encode_latin1(name, self.max);
        match self.find(&stored) {
            Some(id) => id,
            None => self.push(stored),
        }
    }
}

/// The ids of a game's tournament and players.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Ids {
    /// Tournament id.
    pub tournament: u16,
    /// Black's player id.
    pub black: u16,
    /// White's player id.
    pub white: u16,
}

/// The player and tournament numbering of the written files: new names
/// are appended, names already there keep their numbers — matched
/// exactly, then ignoring case, so that a player never gets two numbers.
#[derive(Debug)]
pub struct NameBook {
    players: NameTable,
    tournaments: NameTable,
}

impl Default for NameBook {
    fn default() -> NameBook {
        NameBook::new(Vec::new(), Vec::new())
    }
}

impl NameBook {
    /// A book that extends these players and tournaments (the records of
    /// existing name files, in order; empty for new files, where id 0 is
    /// the unknown name `?`).
    #[must_use]
    pub fn new(players: Vec<String>, tournaments: Vec<String>) -> NameBook {
        NameBook {
            players: NameTable::new(players, PLAYER_RECORD_LEN),
            tournaments: NameTable::new(tournaments, TOURNAMENT_RECORD_LEN),
        }
    }

    /// The ids of the names of `tags`, new names appended. Refused, with
    /// nothing added, when a table is full.
    pub fn ids(&mut self, tags: &Tags) -> Result<Ids, Refusal> {
        let new_players = usize::from(self.players.is_new(tags.black.as_deref()))
            + usize::from(self.players.is_new(tags.white.as_deref()));
        if !self.players.has_room(new_players) {
            return Err(Refusal::TooManyNames("player"));
        }
        let new_events = usize::from(self.tournaments.is_new(tags.event.as_deref()));
        if !self.tournaments.has_room(new_events) {
            return Err(Refusal::TooManyNames("tournament"));
        }
        Ok(Ids {
            tournament: self.tournaments.id(tags.event.as_deref()),
            black: self.players.id(tags.black.as_deref()),
            white: self.players.id(tags.white.as_deref()),
        })
    }

    /// Every player, by id.
    #[must_use]
    pub fn players(&self) -> &[String] {
        &self.players.names
    }

    /// Every tournament, by id.
    #[must_use]
    pub fn tournaments(&self) -> &[String] {
        &self.tournaments.names
    }

    /// How many players and tournaments were added to what the book was
    /// made with (a new book counts its `?`).
    #[must_use]
    pub fn added(&self) -> (usize, usize) {
        (
            self.players.names.len() - self.players.existing,
            self.tournaments.names.len() - self.tournaments.existing,
        )
    }

    /// The names, for reading the written games back.
    #[must_use]
    pub fn to_names(&self) -> Names {
        Names {
            players: self.players.names.clone(),
            tournaments: self.tournaments.names.clone(),
            warnings: Vec::new(),
        }
    }
}

/// What a writer did that its caller should report.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct WriteStats {
    /// Games written.
    pub games: u32,
    /// The year in the header.
    pub year: u16,
    /// Games of other years than the header's, by year (they are dated
    /// with the header's year when read back).
    pub other_years: BTreeMap<u16, u64>,
    /// Complete games whose recorded score differed from the replay's,
    /// written with the replay's.
    pub scores_replaced: u64,
    /// Games whose theoretical score is not known at the file's depth.
    pub theoretical_unverified: u64,
}

impl WriteStats {
    /// Adds another file's counts (the year is left as is).
    pub fn merge(&mut self, other: &WriteStats) {
        self.games += other.games;
        for (year, n) in &other.other_years {
            *self.other_years.entry(*year).or_default() += n;
        }
        self.scores_replaced += other.scores_replaced;
        self.theoretical_unverified += other.theoretical_unverified;
    }
}

/// Writes games to a `.wtb`; the ids come from a [`NameBook`], whose
/// names go to the name files ([`write_name_file`]).
///
/// Each game is one `write_all` of 68 bytes: give it a buffered output
/// (`BufWriter<File>` is `Write + Seek`).
///
/// ```
/// use std::io::Cursor;
/// use kifu::formats::wthor::{NameBook, Reader, Writer, WriterOptions};
/// use kifu::formats::transcript::{parse_line, LineContext};
///
/// let ctx = LineContext { line: 1, byte: 0, index: 1 };
/// let mut game = parse_line(b"d3c5f6f5e6e3", ctx).unwrap();
/// game.tags.black = Some("Tastet Marc".into());
/// let mut book = NameBook::default();
/// let mut writer = Writer::new(Cursor::new(Vec::new()), WriterOptions::new(2026, 3, 1))?;
/// writer.write(&game, &game.replay(), &mut book)?;
/// let (out, stats) = writer.finish()?;
/// assert_eq!(stats.games, 1);
/// let bytes = out.into_inner();
/// assert_eq!(bytes.len(), 16 + 68);
/// let back = Reader::new(&bytes[..], Some(book.to_names().into())).next().unwrap()?;
/// assert_eq!(back.move_string(), "f5d6c3d3c4f4");
/// assert_eq!(back.tags.black.as_deref(), Some("Tastet Marc"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Writer<W: Write + Seek> {
    out: W,
    start: u64,
    options: WriterOptions,
    stats: WriteStats,
    year: Option<u16>,
}

impl<W: Write + Seek> Writer<W> {
    /// Starts a file at the current position of `out` (a header with no
    /// games yet; [`Writer::finish`] completes it).
    pub fn new(mut out: W, options: WriterOptions) -> io::Result<Writer<W>> {
        let start = out.stream_position()?;
        let mut writer = Writer {
            out,
            start,
            options,
            stats: WriteStats::default(),
            year: options.year,
        };
        let header = writer.header();
        writer.out.write_all(&header.to_bytes())?;
        Ok(writer)
    }

    fn header(&self) -> Header {
        Header {
            created: self.options.created,
            games: self.stats.games,
            names: 0,
            year: self.year.unwrap_or(0),
            board_size: 8,
            kind: 0,
            depth: self.options.depth,
        }
    }

    /// The options the file is written with.
    #[must_use]
    pub fn options(&self) -> &WriterOptions {
        &self.options
    }

    /// Games written so far.
    #[must_use]
    pub fn games(&self) -> u32 {
        self.stats.games
    }

    /// Stores one game; `report` must be `record.replay()`. A game that
    /// cannot be stored is refused and nothing is written for it.
    pub fn write(
        &mut self,
        record: &GameRecord,
        report: &Report,
        book: &mut NameBook,
    ) -> Result<(), WriteError> {
        let game = encode(record, report, self.options.depth)?;
        let ids = book.ids(&record.tags)?;
        self.write_encoded(&game, ids)
    }

    /// Stores a game made by [`encode`] (which a batch can run in
    /// parallel) under these ids.
    pub fn write_encoded(&mut self, game: &EncodedGame, ids: Ids) -> Result<(), WriteError> {
        if self.stats.games == u32::MAX {
            return Err(Refusal::TooManyGames.into());
        }
        if self.year.is_none() {
            self.year = Some(game.year.unwrap_or(0));
        }
        let mut bytes = [0u8; RECORD_LEN];
        bytes[0..2].copy_from_slice(&ids.tournament.to_le_bytes());
        bytes[2..4].copy_from_slice(&ids.black.to_le_bytes());
        bytes[4..6].copy_from_slice(&ids.white.to_le_bytes());
        bytes[6] = game.score;
        bytes[7] = game.theoretical;
        bytes[MOVES_AT..].copy_from_slice(&game.moves);
        self.out.write_all(&bytes)?;
        let stats = &mut self.stats;
        stats.games += 1;
        if let Some(year) = game.year.filter(|y| Some(*y) != self.year) {
            *stats.other_years.entry(year).or_default() += 1;
        }
        stats.scores_replaced += u64::from(game.score_replaced);
        stats.theoretical_unverified += u64::from(game.theoretical_unverified);
        Ok(())
    }

    /// Writes the final header (the game count and year) and returns the
    /// output and what was written.
    pub fn finish(mut self) -> io::Result<(W, WriteStats)> {
        let games = u64::from(self.stats.games);
        let end = self.start + HEADER_LEN as u64 + games * RECORD_LEN as u64;
        let header = self.header();
        self.out.seek(SeekFrom::Start(self.start))?;
        self.out.write_all(&header.to_bytes())?;
        self.out.seek(SeekFrom::Start(end))?;
        self.out.flush()?;
        self.stats.year = header.year;
        Ok((self.out, self.stats))
    }
}

/// Writes one name file: the header (N2 = the count) and one NUL-padded
/// Latin-1 record per name, cut to `record_len - 1` bytes; characters
/// outside Latin-1 become `?`.
pub fn write_name_file<W: Write>(
    mut out: W,
    names: &[String],
    record_len: usize,
    created: (u8, u8, u8, u8),
) -> io::Result<()> {
    let count = u16::try_from(names.len()).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} names, more than 65535", names.len()),
        )
    })?;
    let header = Header {
        created,
        games: 0,
        names: count,
        ..Header::default()
    };
    out.write_all(&header.to_bytes())?;
    let mut record = vec![0u8; record_len.max(1)];
    for name in names {
        record.fill(0);
        let stored = encode_latin1(name, record.len() - 1);
        // `stored` is at most `record.len() - 1` bytes long.
        record[..stored.len()].copy_from_slice(&stored);
        out.write_all(&record)?;
    }
    out.flush()
}

/// The files of a written archive: each `.wtb` with its year (`None`: the
/// one file without `--split-year`, or the undated games), the output and
/// what was written.
pub type WrittenFiles<W> = Vec<(Option<u16>, W, WriteStats)>;

/// Writes games into WTHOR files through the one [`GameWriter`] shape:
/// one file, or one per game year, all numbering names in one
/// [`NameBook`]. `open` makes the output of a year (`None` for the one
/// file, or for undated games when split) the first time a game needs it.
///
/// ```
/// use std::io::Cursor;
/// use kifu::formats::wthor::{ArchiveWriter, NameBook, WriterOptions};
/// use kifu::formats::GameWriter;
/// use kifu::formats::transcript::{parse_line, LineContext};
/// use kifu::table::Game;
///
/// let ctx = LineContext { line: 1, byte: 0, index: 1 };
/// let mut game = parse_line(b"f5d6c3", ctx).unwrap();
/// game.tags.date = Some("2004.05.12".into());
/// let report = game.replay();
/// let mut writer = ArchiveWriter::new(WriterOptions::new(2026, 3, 1), NameBook::default(), true,
///     |_year| Ok(Cursor::new(Vec::new())));
/// writer.write(&Game::new("-", &game, &report))?;
/// writer.finish()?;
/// let (_book, files) = writer.into_parts();
/// assert_eq!(files[0].0, Some(2004));
/// assert_eq!(files[0].1.get_ref().len(), 16 + 68);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct ArchiveWriter<W, F>
where
    W: Write + Seek,
    F: FnMut(Option<u16>) -> io::Result<W>,
{
    options: WriterOptions,
    book: NameBook,
    split: bool,
    open: F,
    files: BTreeMap<Option<u16>, Writer<W>>,
    written: WrittenFiles<W>,
}

impl<W, F> ArchiveWriter<W, F>
where
    W: Write + Seek,
    F: FnMut(Option<u16>) -> io::Result<W>,
{
    /// Writes with these header options and names, into one file or, when
    /// `split`, one file per game year.
    pub fn new(options: WriterOptions, book: NameBook, split: bool, open: F) -> Self {
        ArchiveWriter {
            options,
            book,
            split,
            open,
            files: BTreeMap::new(),
            written: Vec::new(),
        }
    }

    /// The names and the written files, once finished.
    pub fn into_parts(self) -> (NameBook, WrittenFiles<W>) {
        (self.book, self.written)
    }

    fn file(&mut self, year: Option<u16>) -> io::Result<&mut Writer<W>> {
        let key = if self.split { year } else { None };
        if !self.files.contains_key(&key) {
            let out = (self.open)(key)?;
            let options = WriterOptions {
                year: key.or(self.options.year),
                ..self.options
            };
            self.files.insert(key, Writer::new(out, options)?);
        }
        // Inserted just above when missing.
        self.files
            .get_mut(&key)
            .ok_or_else(|| io::Error::other("no WTHOR file for the game"))
    }
}

impl<W, F> GameWriter for ArchiveWriter<W, F>
where
    W: Write + Seek,
    F: FnMut(Option<u16>) -> io::Result<W>,
{
    fn write(&mut self, game: &Game<'_>) -> Result<(), WriteError> {
        let encoded = encode(game.record, game.report, self.options.depth)?;
        let ids = self.book.ids(&game.record.tags)?;
        self.file(encoded.year)?.write_encoded(&encoded, ids)
    }

    fn finish(&mut self) -> io::Result<()> {
        if self.files.is_empty() && self.written.is_empty() && !self.split {
            // No game: still an (empty) file where one was asked for.
            self.file(None)?;
        }
        for (year, writer) in std::mem::take(&mut self.files) {
            let (out, stats) = writer.finish()?;
            self.written.push((year, out, stats));
        }
        Ok(())
    }
}
