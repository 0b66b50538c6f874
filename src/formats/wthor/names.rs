//! The player (`.JOU`) and tournament (`.TRN`) files and how they are found.

use std::io;
use std::path::{Path, PathBuf};

use crate::formats::wthor::header::{
    binary_error, count_mismatch, Header, HEADER_LEN, PLAYER_RECORD_LEN, TOURNAMENT_RECORD_LEN,
};
use crate::record::source::ParseError;

/// Player and tournament names, indexed by the ids of the game records.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Names {
    /// Players (`.JOU`), id = index.
    pub players: Vec<String>,
    /// Tournaments (`.TRN`), id = index.
    pub tournaments: Vec<String>,
    /// Oddities met while reading the name files (a header count that
    /// disagrees with the body, a cut-short last record), for the caller
    /// to show.
    pub warnings: Vec<String>,
}

/// The names of one name file.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct NameList {
    /// The file's header (N2 is the count it claims).
    pub header: Header,
    /// Every record of the body, in order.
    pub names: Vec<String>,
    /// Oddities that did not stop the reading.
    pub warnings: Vec<String>,
}

/// Reads a name file with records of `record_len` bytes.
///
/// Tolerant: junk in the header's P1, an N2 that disagrees with the body
/// (the body wins, a warning says so) and a cut-short last record (kept,
/// with a warning). Only a file shorter than its header is an error.
pub fn read_name_records(bytes: &[u8], record_len: usize) -> Result<NameList, ParseError> {
    let Some((head, body)) = bytes.split_first_chunk::<HEADER_LEN>() else {
        return Err(binary_error(
            0,
            bytes.len() as u32,
            format!("truncated header: {} of {HEADER_LEN} bytes", bytes.len()),
        ));
    };
    let header = Header::from_bytes(head);
    let record_len = record_len.max(1);
    let mut warnings = Vec::new();
    let names: Vec<String> = body.chunks(record_len).map(decode_latin1).collect();
    let whole = body.len() / record_len;
    let rest = body.len() % record_len;
    if whole != usize::from(header.names) || rest != 0 {
        warnings.push(count_mismatch(
            "name",
            u64::from(header.names),
            whole as u64,
            rest as u64,
        ));
    }
    if rest != 0 {
        warnings.push(format!(
            "the last name record is cut short: {rest} of {record_len} bytes"
        ));
    }
    Ok(NameList {
        header,
        names,
        warnings,
    })
}

/// Latin-1 text up to the first NUL: each byte is one character.
pub(crate) fn decode_latin1(record: &[u8]) -> String {
    record
        .iter()
        .take_while(|&&b| b != 0)
        .map(|&b| char::from(b))
        .collect()
}

/// `name` in Latin-1, cut to `max` bytes: characters outside Latin-1 (and
/// NUL, which would end the name) become `?`.
pub(crate) fn encode_latin1(name: &str, max: usize) -> Vec<u8> {
    name.chars()
        .map(|c| match u8::try_from(u32::from(c)) {
            Ok(0) | Err(_) => b'?',
            Ok(b) => b,
        })
        .take(max)
        .collect()
}

impl Names {
    /// Reads a `.JOU` file's bytes.
    pub fn read_players(bytes: &[u8]) -> Result<NameList, ParseError> {
        read_name_records(bytes, PLAYER_RECORD_LEN)
    }

    /// Reads a `.TRN` file's bytes.
    pub fn read_tournaments(bytes: &[u8]) -> Result<NameList, ParseError> {
        read_name_records(bytes, TOURNAMENT_RECORD_LEN)
    }

    /// Loads the name files that are given; the warnings name the file.
    pub fn load(jou: Option<&Path>, trn: Option<&Path>) -> io::Result<Names> {
        let mut names = Names::default();
        if let Some(path) = jou {
            let list = load_list(path, PLAYER_RECORD_LEN)?;
            names.players = list.names;
            let file = path.display();
            names
                .warnings
                .extend(list.warnings.iter().map(|w| format!("{file}: {w}")));
        }
        if let Some(path) = trn {
            let list = load_list(path, TOURNAMENT_RECORD_LEN)?;
            names.tournaments = list.names;
            let file = path.display();
            names
                .warnings
                .extend(list.warnings.iter().map(|w| format!("{file}: {w}")));
        }
        Ok(names)
    }

    /// The player with this id, if the table has it.
    #[must_use]
    pub fn player(&self, id: u16) -> Option<&str> {
        self.players.get(usize::from(id)).map(String::as_str)
    }

    /// The tournament with this id, if the table has it.
    #[must_use]
    pub fn tournament(&self, id: u16) -> Option<&str> {
        self.tournaments.get(usize::from(id)).map(String::as_str)
    }
}

/// Reads a name file from disk; errors name the file.
pub fn load_list(path: &Path, record_len: usize) -> io::Result<NameList> {
    let bytes = std::fs::read(path)?;
    read_name_records(&bytes, record_len).map_err(|e| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{}: {}", path.display(), e.message),
        )
    })
}

/// Several name files could go with a `.wtb` and no rule chooses one.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error(
    "several {kind} files could go with {wtb} and none is named after it: {}",
    .candidates.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
)]
pub struct AmbiguousNames {
    /// `player` or `tournament`.
    pub kind: &'static str,
    /// The `.wtb` file (or stem) the names were looked for.
    pub wtb: String,
    /// The files that could be meant, sorted.
    pub candidates: Vec<PathBuf>,
}

/// The player and tournament files found for a `.wtb`.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct NameFiles {
    /// The `.JOU` file.
    pub players: Option<PathBuf>,
    /// The `.TRN` file.
    pub tournaments: Option<PathBuf>,
}

/// Finds the player (`.JOU`) and tournament (`.TRN`) files for a `.wtb`,
/// case-insensitively, in its folder ([`find_name_files_in`]).
pub fn find_name_files(wtb: &Path) -> Result<NameFiles, AmbiguousNames> {
    let stem = wtb.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    find_name_files_in(&folder(wtb), stem)
}

/// Finds the name files for a `.wtb` of this stem in `dir`. For each kind
/// it takes the file whose stem is the `.wtb`'s, then one whose stem
/// followed by `_` begins it (`WTH.JOU` for `WTH_1977.wtb`, the longest
/// such), then `WTHOR`, then the only file of that kind in the folder.
/// Several files and none of these rules: [`AmbiguousNames`].
pub fn find_name_files_in(dir: &Path, stem: &str) -> Result<NameFiles, AmbiguousNames> {
    let lower = stem.to_ascii_lowercase();
    let mut jou = Vec::new();
    let mut trn = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for entry in entries.flatten() {
            let path = in_folder(dir, &entry.file_name());
            if !path.is_file() {
                continue;
            }
            let (Some(file_stem), Some(ext)) = (
                path.file_stem().and_then(|s| s.to_str()),
                path.extension().and_then(|s| s.to_str()),
            ) else {
                continue;
            };
            let file_stem = file_stem.to_ascii_lowercase();
            match ext.to_ascii_lowercase().as_str() {
                "jou" => jou.push((file_stem, path)),
                "trn" => trn.push((file_stem, path)),
                _ => {}
            }
        }
    }
    let ambiguous = |kind, files: Vec<(String, PathBuf)>| AmbiguousNames {
        kind,
        wtb: dir.join(format!("{stem}.wtb")).display().to_string(),
        candidates: files.into_iter().map(|(_, p)| p).collect(),
    };
    let players = pick_name_file(&lower, jou).map_err(|f| ambiguous("player", f))?;
    let tournaments = pick_name_file(&lower, trn).map_err(|f| ambiguous("tournament", f))?;
    Ok(NameFiles {
        players,
        tournaments,
    })
}

/// `name` in `dir`, bare when `dir` is the current folder.
fn in_folder(dir: &Path, name: &std::ffi::OsStr) -> PathBuf {
    if dir == Path::new(".") {
        PathBuf::from(name)
    } else {
        dir.join(name)
    }
}

/// The folder of a path (`.` for a bare file name).
fn folder(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// The file the rules choose, none when there is none, the candidates
/// when there are several and no rule chooses.
fn pick_name_file(
    stem: &str,
    mut files: Vec<(String, PathBuf)>,
) -> Result<Option<PathBuf>, Vec<(String, PathBuf)>> {
    // Sorted so that the choice never depends on the directory order.
    files.sort();
    if let Some(i) = files.iter().position(|(s, _)| s == stem) {
        return Ok(Some(files.swap_remove(i).1));
    }
    let prefix = files
        .iter()
        .enumerate()
        .filter(|(_, (s, _))| {
            stem.strip_prefix(s.as_str())
                .is_some_and(|rest| rest.starts_with('_'))
        })
        .max_by_key(|(_, (s, _))| s.len())
        .map(|(i, _)| i);
    if let Some(i) = prefix {
        return Ok(Some(files.swap_remove(i).1));
    }
    if let Some(i) = files.iter().position(|(s, _)| s == "wthor") {
        return Ok(Some(files.swap_remove(i).1));
    }
    match files.len() {
        0 => Ok(None),
        1 => Ok(files.pop().map(|(_, p)| p)),
        _ => Err(files),
    }
}

/// Where the names of a written `.wtb` go: the name files that already go
/// with it in `dir` (found as for reading), extended; else new files. A
/// missing kind is named after the other kind's file, else after `stem`.
pub fn archive_name_files(dir: &Path, stem: &str) -> Result<ArchiveNames, AmbiguousNames> {
    let found = find_name_files_in(dir, stem)?;
    let sibling = |other: &Option<PathBuf>, ext: &str| match other {
        Some(path) => {
            let upper = path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| e.chars().all(|c| c.is_ascii_uppercase()));
            path.with_extension(if upper {
                ext.to_ascii_uppercase()
            } else {
                ext.to_ascii_lowercase()
            })
        }
        None => in_folder(dir, format!("{stem}.{}", ext.to_ascii_uppercase()).as_ref()),
    };
    Ok(ArchiveNames {
        players_exist: found.players.is_some(),
        tournaments_exist: found.tournaments.is_some(),
        players: found
            .players
            .clone()
            .unwrap_or_else(|| sibling(&found.tournaments, "jou")),
        tournaments: found
            .tournaments
            .clone()
            .unwrap_or_else(|| sibling(&found.players, "trn")),
    })
}

/// The name files a written `.wtb` uses ([`archive_name_files`]).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ArchiveNames {
    /// The `.JOU` file.
    pub players: PathBuf,
    /// The `.TRN` file.
    pub tournaments: PathBuf,
    /// Whether the `.JOU` file exists already (its numbering is kept).
    pub players_exist: bool,
    /// Whether the `.TRN` file exists already.
    pub tournaments_exist: bool,
}
