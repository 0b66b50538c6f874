//! WTHOR, the French federation's binary game database.
//!
//! A `.wtb` file is a 16-byte header and one 68-byte record per game:
//! tournament, Black and White ids (u16 little-endian each), Black's score
//! (discs, empties to the winner), Black's theoretical score, and 60 move
//! bytes `10 * row + column` (`a1` = 11, `f5` = 56, `h8` = 88) with 0
//! after the last move. Passes are not stored. Names live in two side
//! files with the same header: `.JOU` (players, 20-byte records) and
//! `.TRN` (tournaments, 26-byte records), NUL-padded Latin-1 text.
//!
//! Read: [`Reader`] streams one record at a time and checks the header
//! (8×8 boards only, no solitaire files, the game count against the data).
//! Each record becomes a [`GameRecord`](crate::GameRecord) from the standard start: the score
//! byte is the result (`Discs`), the theoretical score is kept, the file's
//! game year is the `date` tag, names are looked up by id (an id past the
//! table gives no name; placeholders such as `???` are kept as written).
//! Positions are byte offsets: `origin.byte` is the record's, each span's
//! `byte` its move byte's (line and column 0).
//!
//! [`Names`] reads the name files (Latin-1, tolerant of a header count
//! that disagrees with the body, reported as a warning) and
//! [`find_name_files`] finds them next to a `.wtb`.
//!
//! Write: [`Writer`] stores valid games from the standard start, turned by
//! a symmetry so that each starts with f5 (see [`encode`] for the score
//! bytes), and collects the names to write with [`write_name_file`]; id 0 is
//! the unknown name `?`.

use crate::formats::features::{Feature, Features};
use crate::formats::format::{Format, FormatInfo};

mod header;
mod names;
mod read;
#[cfg(test)]
mod tests;
mod write;

pub use header::{Header, HEADER_LEN, PLAYER_RECORD_LEN, RECORD_LEN, TOURNAMENT_RECORD_LEN};
pub use names::{
    archive_name_files, find_name_files, find_name_files_in, load_list, read_name_records,
    AmbiguousNames, ArchiveNames, NameFiles, NameList, Names,
};
pub use read::{parse_record, sniff, Reader};

pub use write::{
    encode, write_name_file, ArchiveWriter, EncodedGame, Ids, NameBook, WriteStats, Writer,
    WriterOptions, WrittenFiles,
};

/// The WTHOR row of the format table. Non-standard starts, anti games and
/// invalid games are refused ([`crate::formats::Refusal`]), not lost.
pub const INFO: FormatInfo = FormatInfo {
    aliases: &["wtb", "thor"],
    extensions: &["wtb"],
    loses: Features::of_list(&[
        Feature::Evaluations,
        Feature::Times,
        Feature::Site,
        Feature::Round,
        Feature::Ratings,
        Feature::ExactDate,
        Feature::OtherTags,
        Feature::ExplicitPasses,
        Feature::Orientation,
        Feature::LongPlayerNames,
        Feature::LongEventNames,
        Feature::NonLatin1Names,
        Feature::ResultKind,
        Feature::UnscoredResult,
        Feature::Comments,
        Feature::Nags,
        Feature::Variations,
        Feature::OtherBoard,
    ]),
    ..FormatInfo::new(
        Format::Wthor,
        "wthor",
        "the French federation's binary database, with .JOU/.TRN name files",
        sniff,
        |input, _| Box::new(Reader::new(input, None)),
    )
};
