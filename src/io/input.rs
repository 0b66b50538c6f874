//! Opening an input by its name, as every command and the Python package
//! do: a file or standard input (`-`), decoded when it is compressed (by
//! its extension or its magic bytes, on a thread of its own), its format
//! settled (`from` if given, else the extension of the name without the
//! compression's, else the content), and its games read — a WTHOR file
//! with the player and tournament names found beside it, a Parquet file
//! straight from the file.
//!
//! ```no_run
//! use kifu::formats::ReadOptions;
//!
//! let input = kifu::input::open("WTH_2004.wtb", None)?;
//! let mut notes = Vec::new();
//! let games = input.games(None, &ReadOptions::default(), &mut notes);
//! assert!(games.count() > 0);
//! # Ok::<(), kifu::input::OpenError>(())
//! ```

use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::formats::{parquet, wthor, Format, GameReader, ReadOptions};
use crate::io::compress::{decode, inner_name, read_ahead, Codec};

/// Why an input cannot be opened.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The file cannot be read.
    #[error("cannot read {name}: {cause}")]
    Io {
        /// The input's name.
        name: String,
        /// What the system said.
        cause: io::Error,
    },
    /// The name is a folder.
    #[error("cannot read {name}: is a directory")]
    Directory {
        /// The input's name.
        name: String,
    },
    /// Neither the name nor the content tells the format.
    #[error("cannot tell the format of {name}: use --from")]
    UnknownFormat {
        /// The input's name.
        name: String,
    },
}

impl OpenError {
    /// The input's name.
    #[must_use]
    pub fn name(&self) -> &str {
        match self {
            OpenError::Io { name, .. }
            | OpenError::Directory { name }
            | OpenError::UnknownFormat { name } => name,
        }
    }
}

/// An opened input and its format.
pub struct Input {
    /// The name as given (`-` for standard input).
    pub name: String,
    /// Its bytes, decoded.
    pub reader: Box<dyn BufRead + Send>,
    /// Its format.
    pub format: Format,
    /// Size in bytes when the input is a regular file (not compressed).
    pub size: Option<u64>,
    /// The file itself when it is a regular, uncompressed one (Parquet is
    /// read from it, its footer first).
    file: Option<File>,
}

/// Opens `name` (`-` is standard input) and settles its format.
pub fn open(name: &str, from: Option<Format>) -> Result<Input, OpenError> {
    let failed = |cause| OpenError::Io {
        name: name.to_owned(),
        cause,
    };
    let (mut reader, size, file): (Box<dyn BufRead + Send>, Option<u64>, Option<File>) =
        if name == "-" {
            (
                Box::new(BufReader::with_capacity(1 << 16, io::stdin())),
                None,
                None,
            )
        } else {
            let meta = std::fs::metadata(name).map_err(failed)?;
            if meta.is_dir() {
                return Err(OpenError::Directory {
                    name: name.to_owned(),
                });
            }
            let file = File::open(name).map_err(failed)?;
            let own = if meta.is_file() {
                file.try_clone().ok()
            } else {
                None
            };
            (
                Box::new(BufReader::with_capacity(1 << 16, file)),
                meta.is_file().then_some(meta.len()),
                own,
            )
        };
    let head = reader.fill_buf().map_err(failed)?;
    let codec = Codec::from_path(name.as_ref()).or_else(|| Codec::from_magic(head));
    let (mut reader, size, file) = match codec {
        Some(codec) => (read_ahead(decode(codec, reader)), None, None),
        None => (reader, size, file),
    };
    let inner = inner_name(name.as_ref());
    let format = match from.or_else(|| Format::from_path(&inner)) {
        Some(f) => f,
        None => {
            let head = reader.fill_buf().map_err(failed)?;
            Format::detect(head).ok_or_else(|| OpenError::UnknownFormat {
                name: name.to_owned(),
            })?
        }
    };
    Ok(Input {
        name: name.to_owned(),
        reader,
        format,
        size,
        file,
    })
}

impl Input {
    /// The games of this input, read with `options`. A WTHOR file gets the
    /// names of the player and tournament files found next to it (or with
    /// `names`); what is odd about them goes to `notes` (`warning: …`,
    /// `note: …`).
    pub fn games(
        self,
        names: Option<&Path>,
        options: &ReadOptions,
        notes: &mut Vec<String>,
    ) -> Box<dyn GameReader> {
        match (self.format, self.file) {
            (Format::Wthor, _) => {}
            (Format::Parquet, Some(file)) => {
                return match parquet::Reader::from_file(file, options) {
                    Ok(reader) => Box::new(reader),
                    Err(err) => Box::new(crate::formats::Games(std::iter::once(Err(err)))),
                }
            }
            (format, _) => return format.reader_with(self.reader, options),
        }
        let names = if self.name == "-" && names.is_none() {
            None
        } else {
            // A compressed archive's names sit beside it, uncompressed.
            let inner = inner_name(self.name.as_ref());
            load_names(&inner.to_string_lossy(), names, notes)
        };
        let reader = wthor::Reader::new(self.reader, names);
        match self.size {
            Some(size) => Box::new(reader.with_size(size)),
            None => Box::new(reader),
        }
    }
}

/// Where the name files of the WTHOR file `wtb` are: in the folder `names`
/// names (chosen by the `.wtb`'s stem as next to it), or the pair of the
/// `.JOU`/`.TRN` file it names, else next to `wtb`.
pub fn name_files(
    wtb: &Path,
    names: Option<&Path>,
) -> Result<wthor::NameFiles, wthor::AmbiguousNames> {
    let stem = wtb.file_stem().and_then(|s| s.to_str()).unwrap_or("-");
    match names {
        Some(path) if path.is_file() => {
            let dir = path
                .parent()
                .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
            let dir = if dir.as_os_str().is_empty() {
                PathBuf::from(".")
            } else {
                dir
            };
            let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
            wthor::find_name_files_in(&dir, stem)
        }
        Some(dir) => wthor::find_name_files_in(dir, stem),
        None => wthor::find_name_files(wtb),
    }
}

fn load_names(
    name: &str,
    names: Option<&Path>,
    notes: &mut Vec<String>,
) -> Option<Arc<wthor::Names>> {
    let found = match name_files(Path::new(name), names) {
        Ok(found) => found,
        Err(err) => {
            notes.push(format!(
                "warning: {err}: name one with --names; the games of {name} are unnamed"
            ));
            return None;
        }
    };
    if found.players.is_none() && found.tournaments.is_none() {
        notes.push(format!(
            "note: no WTHOR player or tournament files found for {name}; games are unnamed"
        ));
        return None;
    }
    match wthor::Names::load(found.players.as_deref(), found.tournaments.as_deref()) {
        Ok(names) => {
            for warning in &names.warnings {
                notes.push(format!("warning: {warning}"));
            }
            Some(Arc::new(names))
        }
        Err(err) => {
            notes.push(format!("warning: cannot read the name files: {err}"));
            None
        }
    }
}
