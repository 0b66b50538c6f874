//! Writing `.wtb` game files and their name files.

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, Seek, SeekFrom, Write};
use std::path::Path;

use super::{
    byte_of_square, decode_latin1, encode_latin1, Header, Names, HEADER_LEN, MOVES_AT, MOVE_BYTES,
    PLAYER_RECORD_LEN, RECORD_LEN, TOURNAMENT_RECORD_LEN,
};
use crate::game::Move;
use crate::record::{GameError, Report, Rules, Tags, Token};
use crate::{GameRecord, Square, Status, Symmetry};

/// Why a game cannot be stored in WTHOR.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum Refusal {
    /// WTHOR games start from the standard position.
    #[error("non-standard start position")]
    NonStandardStart,
    /// WTHOR has no way to mark anti games.
    #[error("anti rules")]
    AntiRules,
    /// A move token is not a square.
    #[error("unreadable move {number}: {text}")]
    Unreadable {
        /// 1-based move token number.
        number: usize,
        /// The token as written.
        text: String,
    },
    /// The game breaks the rules or could not be read to its end.
    #[error("invalid game: {0}")]
    Invalid(GameError),
    /// More discs placed than a record holds.
    #[error("{0} moves, more than 60")]
    TooManyMoves(usize),
    /// The id space of a name file is used up.
    #[error("more than 65535 {0} names")]
    TooManyNames(&'static str),
    /// The game count of the header is used up.
    #[error("more than 4294967295 games")]
    TooManyGames,
}

/// A failure to write a game.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The game cannot be stored; nothing was written.
    #[error(transparent)]
    Refused(#[from] Refusal),
    /// The output failed.
    #[error(transparent)]
    Io(#[from] io::Error),
}

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
}

/// The symmetries that keep the start position, and the opening each
/// turns into f5.
const OPENING_SYMMETRIES: [Symmetry; 4] = [
    Symmetry::Identity,
    Symmetry::Rotate180,
    Symmetry::FlipDiagonal,
    Symmetry::FlipAntiDiagonal,
];

/// Encodes a game for a record: `report` must be `record.replay()`.
///
/// Passes are dropped (the replay finds them again) and the game is
/// turned by the symmetry of the start position that makes its first move
/// f5. The score byte is the computed score with empties to the winner
/// for a complete game; for an incomplete one the recorded result's
/// score if it gives one, else the board's. The theoretical score is the
/// record's if it has one, else the score byte (as Edax and the PlayOK
/// conversions store it).
pub fn encode(record: &GameRecord, report: &Report) -> Result<EncodedGame, Refusal> {
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
    let squares: Vec<Square> = record
        .moves
        .iter()
        .filter_map(|m| match m.token {
            Token::Move(Move::Play(sq)) => Some(sq),
            _ => None,
        })
        .collect();
    if squares.len() > MOVE_BYTES {
        return Err(Refusal::TooManyMoves(squares.len()));
    }
    let f5 = Square::from_coords(5, 4);
    let symmetry = squares
        .first()
        .and_then(|&first| {
            OPENING_SYMMETRIES
                .into_iter()
                .find(|&s| Some(first.transform(s)) == f5)
        })
        .unwrap_or(Symmetry::Identity);
    let mut moves = [0u8; MOVE_BYTES];
    for (slot, sq) in moves.iter_mut().zip(&squares) {
        *slot = byte_of_square(sq.transform(symmetry));
    }
    let board = report.finish.score.black_score;
    let score = if report.status() == Status::Complete {
        board
    } else {
        record.result.and_then(|r| r.black_score()).unwrap_or(board)
    };
    let theoretical = record
        .theoretical_black_score
        .filter(|&t| t <= 64)
        .unwrap_or(score);
    Ok(EncodedGame {
        score,
        theoretical,
        moves,
        symmetry,
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
    /// P3, the depth of the theoretical scores (0: unknown).
    pub depth: u8,
}

impl WriterOptions {
    /// Options for a file created on this date, the rest left to the
    /// games.
    #[must_use]
    pub fn new(year: u16, month: u8, day: u8) -> WriterOptions {
        WriterOptions {
            created: ((year / 100) as u8, (year % 100) as u8, month, day),
            year: None,
            depth: 0,
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
    ids: HashMap<Vec<u8>, u16>,
    names: Vec<String>,
    max: usize,
}

impl NameTable {
    /// A table with id 0 reserved for the unknown name `?`.
    fn new(record_len: usize) -> NameTable {
        let mut ids = HashMap::new();
        ids.insert(b"?".to_vec(), 0);
        NameTable {
            ids,
            names: vec!["?".to_owned()],
            max: record_len - 1,
        }
    }

    /// Whether `name` would be a new entry.
    fn is_new(&self, name: Option<&str>) -> bool {
        name.is_some_and(|n| !self.ids.contains_key(&encode_latin1(n, self.max)))
    }

    /// Room for `new` more names (ids are u16).
    fn has_room(&self, new: usize) -> bool {
        self.names.len() + new <= usize::from(u16::MAX)
    }

    /// The id of `name` (0 for none), added if new. Callers check
    /// `has_room` first, so a new id fits in a u16.
    fn id(&mut self, name: Option<&str>) -> u16 {
        let Some(name) = name else { return 0 };
        let stored = encode_latin1(name, self.max);
        if let Some(&id) = self.ids.get(&stored) {
            return id;
        }
        let id = self.names.len() as u16;
        self.names.push(decode_latin1(&stored));
        self.ids.insert(stored, id);
        id
    }
}

/// Writes games to a `.wtb`; names are collected for [`write_names`].
///
/// Each game is one `write_all` of 68 bytes: give it a buffered output
/// (`BufWriter<File>` is `Write + Seek`).
///
/// ```
/// use std::io::Cursor;
/// use kifu::formats::wthor::{Reader, Writer, WriterOptions};
/// use kifu::formats::transcript::{parse_line, LineContext};
///
/// let ctx = LineContext { line: 1, byte: 0, index: 1 };
/// let mut game = parse_line(b"d3c5f6f5e6e3", ctx).unwrap();
/// game.tags.black = Some("Tastet Marc".into());
/// let mut writer = Writer::new(Cursor::new(Vec::new()), WriterOptions::new(2026, 3, 1))?;
/// writer.write(&game, &game.replay())?;
/// let (out, names) = writer.finish()?;
/// let bytes = out.into_inner();
/// assert_eq!(bytes.len(), 16 + 68);
/// let back = Reader::new(&bytes[..], Some(names.into())).next().unwrap()?;
/// assert_eq!(back.move_string(), "f5d6c3d3c4f4");
/// assert_eq!(back.tags.black.as_deref(), Some("Tastet Marc"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Writer<W: Write + Seek> {
    out: W,
    start: u64,
    options: WriterOptions,
    year: Option<u16>,
    games: u32,
    players: NameTable,
    tournaments: NameTable,
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
            year: options.year,
            games: 0,
            players: NameTable::new(PLAYER_RECORD_LEN),
            tournaments: NameTable::new(TOURNAMENT_RECORD_LEN),
        };
        let header = writer.header();
        writer.out.write_all(&header.to_bytes())?;
        Ok(writer)
    }

    fn header(&self) -> Header {
        Header {
            created: self.options.created,
            games: self.games,
            names: 0,
            year: self.year.unwrap_or(0),
            board_size: 8,
            kind: 0,
            depth: self.options.depth,
        }
    }

    /// Games written so far.
    #[must_use]
    pub fn games(&self) -> u32 {
        self.games
    }

    /// Stores one game; `report` must be `record.replay()`. A game that
    /// cannot be stored is refused and nothing is written for it.
    pub fn write(&mut self, record: &GameRecord, report: &Report) -> Result<(), WriteError> {
        let game = encode(record, report)?;
        self.write_encoded(&game, &record.tags)
    }

    /// Stores a game made by [`encode`] (which a batch can run in
    /// parallel) with the names and date of `tags`.
    pub fn write_encoded(&mut self, game: &EncodedGame, tags: &Tags) -> Result<(), WriteError> {
        if self.games == u32::MAX {
            return Err(Refusal::TooManyGames.into());
        }
        let new_players = usize::from(self.players.is_new(tags.black.as_deref()))
            + usize::from(self.players.is_new(tags.white.as_deref()));
        if !self.players.has_room(new_players) {
            return Err(Refusal::TooManyNames("player").into());
        }
        let new_events = usize::from(self.tournaments.is_new(tags.event.as_deref()));
        if !self.tournaments.has_room(new_events) {
            return Err(Refusal::TooManyNames("tournament").into());
        }
        let event = self.tournaments.id(tags.event.as_deref());
        let black = self.players.id(tags.black.as_deref());
        let white = self.players.id(tags.white.as_deref());
        if self.year.is_none() {
            self.year = Some(tags.date.as_deref().and_then(year_of).unwrap_or(0));
        }
        let mut bytes = [0u8; RECORD_LEN];
        bytes[0..2].copy_from_slice(&event.to_le_bytes());
        bytes[2..4].copy_from_slice(&black.to_le_bytes());
        bytes[4..6].copy_from_slice(&white.to_le_bytes());
        bytes[6] = game.score;
        bytes[7] = game.theoretical;
        bytes[MOVES_AT..].copy_from_slice(&game.moves);
        self.out.write_all(&bytes)?;
        self.games += 1;
        Ok(())
    }

    /// Writes the final header (the game count and year) and returns the
    /// output and the names the ids refer to, for [`write_names`].
    pub fn finish(mut self) -> io::Result<(W, Names)> {
        let end = self.start + HEADER_LEN as u64 + u64::from(self.games) * RECORD_LEN as u64;
        let header = self.header();
        self.out.seek(SeekFrom::Start(self.start))?;
        self.out.write_all(&header.to_bytes())?;
        self.out.seek(SeekFrom::Start(end))?;
        self.out.flush()?;
        let names = Names {
            players: self.players.names,
            tournaments: self.tournaments.names,
            warnings: Vec::new(),
        };
        Ok((self.out, names))
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

/// Writes the player (`.JOU`) and tournament (`.TRN`) files of `names`.
pub fn write_names(
    players_path: &Path,
    tournaments_path: &Path,
    names: &Names,
    options: &WriterOptions,
) -> io::Result<()> {
    let players = io::BufWriter::new(File::create(players_path)?);
    write_name_file(players, &names.players, PLAYER_RECORD_LEN, options.created)?;
    let tournaments = io::BufWriter::new(File::create(tournaments_path)?);
    write_name_file(
        tournaments,
        &names.tournaments,
        TOURNAMENT_RECORD_LEN,
        options.created,
    )
}
