//! Token rows as raw chunks: the reading thread only decodes the column's
//! pages and packs each row's tokens into bytes, a few hundred rows at a
//! time; the batch pipeline's workers turn the packed rows into games
//! ([`TokenParser`]) and work on them as they come, so that memory stays
//! bounded by the batches in flight, not by a row group.
//!
//! A chunk's bytes: the number of its rows (`u32`, little-endian), then
//! each row as the byte [`ROW`] followed by a byte per token `0..=60`; any
//! other number (a null as [`tokens::NULL`]) is the byte [`WIDE`] and its
//! 8 bytes, little-endian.

use parquet::column::reader::ColumnReaderImpl;
use parquet::data_type::DataType;

use crate::formats::chunk::{Carry, ChunkParser, RawChunk};
use crate::ml::tokens;
use crate::record::source::MoveSpans;
use crate::record::{GameRecord, Origin};

/// The start of a packed row.
const ROW: u8 = 0xFE;
/// A number packed in 8 bytes after it.
const WIDE: u8 = 0xFF;
/// Bytes of the row count at the head of a chunk.
const HEAD: usize = 4;

/// The buffers the rows of a column are read through, kept from one
/// chunk to the next.
#[derive(Default)]
pub(super) struct Levels {
    defs: Vec<i16>,
    reps: Vec<i16>,
}

/// Starts a chunk in `bytes` (emptied): room for its row count.
pub(super) fn start(bytes: &mut Vec<u8>) {
    bytes.clear();
    bytes.extend_from_slice(&[0; HEAD]);
}

/// Writes the row count of a chunk started with [`start`].
pub(super) fn seal(bytes: &mut [u8], rows: usize) {
    let rows = u32::try_from(rows).unwrap_or(u32::MAX);
    bytes[..HEAD].copy_from_slice(&rows.to_le_bytes());
}

/// Reads up to `rows` rows of a list column of integers and packs them
/// onto `out`; returns the rows begun, 0 at the end of the column.
/// `read_records` reads whole rows, so every row packed is complete.
pub(super) fn pack<T: DataType>(
    reader: &mut ColumnReaderImpl<T>,
    values: &mut Vec<T::T>,
    levels: &mut Levels,
    rows: usize,
    (max_def, null_def): (i16, Option<i16>),
    out: &mut Vec<u8>,
    widen: impl Fn(&T::T) -> i64,
) -> Result<usize, parquet::errors::ParquetError> {
    let Levels { defs, reps } = levels;
    defs.clear();
    reps.clear();
    values.clear();
    let (_, _, read) = reader.read_records(rows, Some(defs), Some(reps), values)?;
    let (defs, reps) = (&defs[..read.min(defs.len())], &reps[..read.min(reps.len())]);
    out.reserve(read + rows);
    let mut begun = 0;
    // Every element there and a token: a byte each (the usual case). The
    // checks and the copy run without branches on the data, so that they
    // vectorise.
    if values.len() == read
        && reps.len() == read
        && defs.iter().fold(true, |all, &d| all & (d == max_def))
        && values.iter().fold(true, |all, v| {
            all & ((widen(v) as u64) <= tokens::LENGTH as u64)
        })
    {
        let begun = reps.iter().filter(|&&r| r == 0).count();
        let at = out.len();
        out.resize(at + read + begun, ROW);
        let packed = &mut out[at..];
        let mut j = 0;
        for (&rep, v) in reps.iter().zip(values.iter()) {
            // A ROW byte, kept only where a row begins.
            packed[j] = ROW;
            j += usize::from(rep == 0);
            // Checked above: 0..=60.
            packed[j] = widen(v) as u8;
            j += 1;
        }
        return Ok(begun);
    }
    let mut next = values.iter();
    for (&def, &rep) in defs.iter().zip(reps.iter()) {
        if rep == 0 {
            out.push(ROW);
            begun += 1;
        }
        if def == max_def {
            push(out, next.next().map_or(tokens::NULL, &widen));
        } else if Some(def) == null_def {
            // A null element of a list of nullable integers.
            push(out, tokens::NULL);
        }
        // Lower: an empty or null list, a game without moves.
    }
    Ok(begun)
}

/// Packs one number of a row.
#[inline]
fn push(out: &mut Vec<u8>, v: i64) {
    match u8::try_from(v) {
        Ok(t) if usize::from(t) <= tokens::LENGTH => out.push(t),
        _ => {
            out.push(WIDE);
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
}

/// A packed row: its numbers as bytes when all are `0..=60`, else
/// widened.
enum Row<'a> {
    Small(&'a [u8]),
    Wide(&'a [i64]),
}

/// Unpacks the rows of a chunk's bytes, calling `each` with every row in
/// order.
fn unpack(bytes: &[u8], mut each: impl FnMut(Row<'_>)) {
    let mut wide: Vec<i64> = Vec::new();
    let mut i = HEAD.min(bytes.len());
    // Every row starts with ROW: skip it, then its small numbers run up
    // to the next ROW or WIDE byte.
    while i < bytes.len() {
        i += 1;
        let start = i;
        i = memchr::memchr2(ROW, WIDE, &bytes[i.min(bytes.len())..]).map_or(bytes.len(), |n| i + n);
        if bytes.get(i) != Some(&WIDE) {
            each(Row::Small(&bytes[start.min(i)..i]));
            continue;
        }
        wide.clear();
        wide.extend(bytes[start..i].iter().map(|&t| i64::from(t)));
        while let Some(&b) = bytes.get(i) {
            match b {
                ROW => break,
                WIDE => {
                    let mut v = [0u8; 8];
                    if let Some(eight) = bytes.get(i + 1..i + 9) {
                        v.copy_from_slice(eight);
                    }
                    wide.push(i64::from_le_bytes(v));
                    i += 9;
                }
                t => {
                    wide.push(i64::from(t));
                    i += 1;
                }
            }
        }
        each(Row::Wide(&wide));
    }
}

/// The rows a chunk holds, as its head says.
fn rows_in(bytes: &[u8]) -> usize {
    bytes
        .get(..HEAD)
        .map_or(0, |h| u32::from_le_bytes([h[0], h[1], h[2], h[3]]) as usize)
}

/// Turns packed token rows into games, numbered from 1 in the chunk.
pub(super) struct TokenParser;

impl ChunkParser for TokenParser {
    fn parse(
        &self,
        chunk: &RawChunk,
        _carry: Option<Carry>,
        out: &mut Vec<GameRecord>,
    ) -> Option<Carry> {
        out.reserve(rows_in(&chunk.bytes));
        let mut index = 0;
        unpack(&chunk.bytes, |row| {
            index += 1;
            let origin = Origin {
                index,
                line: None,
                byte: 0,
                text: None,
            };
            out.push(match row {
                Row::Small(row) => tokens::decode(row, origin, MoveSpans::Unknown),
                Row::Wide(row) => tokens::decode(row, origin, MoveSpans::Unknown),
            });
        });
        None
    }

    fn games_in(&self, bytes: usize) -> usize {
        // A game of 60 moves: 61 bytes.
        bytes / (tokens::LENGTH + 1) + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::{self, Options};
    use crate::formats::format::{GameReader, ReadOptions};
    use crate::record::Token;
    use parquet::data_type::Int64Type;
    use parquet::file::properties::WriterProperties;
    use parquet::file::writer::SerializedFileWriter;
    use parquet::schema::parser::parse_message_type;
    use std::sync::Arc;

    /// A row of a token file: `None` a null list, a `None` element a null.
    type TokenRow = Option<Vec<Option<i64>>>;

    /// A Parquet file of one nullable list of nullable int64 tokens,
    /// `group` rows a row group.
    fn token_file(rows: &[TokenRow], group: usize) -> Vec<u8> {
        let schema = parse_message_type(
            "message m { optional group tokens (LIST) { repeated group list { \
             optional int64 element; } } }",
        )
        .unwrap();
        let props = Arc::new(WriterProperties::builder().build());
        let mut out = Vec::new();
        let mut writer = SerializedFileWriter::new(&mut out, Arc::new(schema), props).unwrap();
        for part in rows.chunks(group) {
            let (mut values, mut defs, mut reps) = (Vec::new(), Vec::new(), Vec::new());
            for row in part {
                match row {
                    None => {
                        defs.push(0);
                        reps.push(0);
                    }
                    Some(r) if r.is_empty() => {
                        defs.push(1);
                        reps.push(0);
                    }
                    Some(r) => {
                        for (i, v) in r.iter().enumerate() {
                            reps.push(i16::from(i > 0));
                            defs.push(if v.is_some() { 3 } else { 2 });
                            values.extend(*v);
                        }
                    }
                }
            }
            let mut group = writer.next_row_group().unwrap();
            let mut column = group.next_column().unwrap().unwrap();
            column
                .typed::<Int64Type>()
                .write_batch(&values, Some(&defs), Some(&reps))
                .unwrap();
            column.close().unwrap();
            group.close().unwrap();
        }
        writer.close().unwrap();
        out
    }

    /// The record each row should read as, numbered.
    fn expected(rows: &[TokenRow]) -> Vec<GameRecord> {
        let mut games = Vec::new();
        for (i, row) in rows.iter().enumerate() {
            let row: Vec<i64> = row
                .iter()
                .flatten()
                .map(|v| v.unwrap_or(tokens::NULL))
                .collect();
            let origin = Origin {
                index: i as u64 + 1,
                line: None,
                byte: 0,
                text: None,
            };
            games.push(tokens::decode(&row, origin, MoveSpans::Unknown));
        }
        games
    }

    fn reader(file: &[u8]) -> Box<dyn GameReader + '_> {
        crate::formats::parquet::open(Box::new(file), &ReadOptions::default())
    }

    /// The games of a file read game by game, and through the pipeline in
    /// tiny chunks and batches.
    fn read_both(file: &[u8]) -> (Vec<GameRecord>, Vec<GameRecord>) {
        let alone: Vec<GameRecord> = reader(file).map(Result::unwrap).collect();
        let mut piped = Vec::new();
        let mut games = reader(file);
        assert!(games.chunker().is_some());
        let options = Options {
            jobs: 2,
            slice_bytes: 100,
            chunk_bytes: 300,
            ..Options::default()
        };
        batch::run(
            games,
            &options,
            |games| games,
            |games| {
                piped.extend(games);
                Ok(())
            },
        )
        .unwrap();
        (alone, piped)
    }

    /// A row of `n` random tokens, legal moves or not: only the reading
    /// is checked.
    fn row(rng: &mut crate::testkit::Rng, n: usize) -> TokenRow {
        Some((0..n).map(|_| Some(rng.below(60) as i64 + 1)).collect())
    }

    #[test]
    fn many_small_row_groups_read_in_order_both_ways() {
        let mut rng = crate::testkit::Rng::new(27);
        let rows: Vec<TokenRow> = (0..500).map(|i| row(&mut rng, i % 61)).collect();
        for group in [1, 7, 64, 500] {
            let file = token_file(&rows, group);
            let (alone, piped) = read_both(&file);
            assert_eq!(alone, expected(&rows), "{group} rows a group");
            assert_eq!(piped, alone, "{group} rows a group");
        }
    }

    #[test]
    fn nulls_empty_rows_and_numbers_that_are_no_tokens() {
        let rows: Vec<TokenRow> = vec![
            None,
            Some(vec![]),
            Some(vec![Some(37), None, Some(43)]),
            Some(vec![Some(37), Some(0), Some(0)]),
            Some(vec![Some(0), Some(37)]),
            Some(vec![
                Some(61),
                Some(-1),
                Some(i64::MAX),
                Some(i64::MIN),
                Some(254),
            ]),
            Some(vec![Some(37); 70]),
            Some(vec![Some(37), Some(43)]),
        ];
        let file = token_file(&rows, 3);
        let (alone, piped) = read_both(&file);
        assert_eq!(alone, expected(&rows));
        assert_eq!(piped, alone);
        assert!(alone[0].moves.is_empty() && alone[1].moves.is_empty());
        assert_eq!(alone[2].unreadable, vec![(1, "null".into())]);
        assert_eq!(alone[3].moves.len(), 1);
        assert_eq!(
            alone[4].unreadable,
            vec![(0, "padding 0 before a move".into())]
        );
        let texts: Vec<&str> = alone[5].unreadable.iter().map(|(_, t)| &**t).collect();
        let max = format!("token {}", i64::MAX);
        assert_eq!(texts, ["token 61", "token -1", &max, "null", "token 254"]);
        assert_eq!(alone[6].moves.len(), 70);
    }

    #[test]
    fn a_bad_token_in_a_later_row_group_names_its_row() {
        let mut rng = crate::testkit::Rng::new(7);
        let mut rows: Vec<TokenRow> = (0..300).map(|_| row(&mut rng, 60)).collect();
        if let Some(Some(r)) = rows.get_mut(256) {
            r[10] = Some(99);
        }
        let file = token_file(&rows, 100);
        let (alone, piped) = read_both(&file);
        assert_eq!(piped, alone);
        let bad: Vec<_> = alone
            .iter()
            .filter(|g| g.moves.iter().any(|m| m.token == Token::Unreadable))
            .map(|g| (g.origin.index, g.unreadable.clone()))
            .collect();
        assert_eq!(bad, [(257, vec![(10, Box::from("token 99"))])]);
    }

    #[test]
    fn packed_rows_unpack_as_they_were() {
        let rows: Vec<Vec<i64>> = vec![
            vec![37, 43, 0, 0],
            vec![],
            vec![1, 60, 61, -1, 254, 255, tokens::NULL, i64::MAX, 0xFEFE_FEFE],
            vec![0],
            vec![61, 5, 6, 0],
        ];
        let mut bytes = Vec::new();
        start(&mut bytes);
        for row in &rows {
            bytes.push(ROW);
            for &v in row {
                push(&mut bytes, v);
            }
        }
        seal(&mut bytes, rows.len());
        assert_eq!(rows_in(&bytes), 5);
        let mut seen = Vec::new();
        unpack(&bytes, |row| {
            seen.push(match row {
                Row::Small(row) => row.iter().map(|&t| i64::from(t)).collect(),
                Row::Wide(row) => row.to_vec(),
            });
        });
        assert_eq!(seen, rows);
    }
}
