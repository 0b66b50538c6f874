//! Rows of text fields, as a CSV holds them, written as a typed Parquet
//! table: the parts of a distributed job hold the command line's rows
//! with the same values, column by column.

use std::io::Write;

use parquet::data_type::ByteArray;
use parquet::errors::ParquetError;

use crate::formats::parquet::{Column, Error, Kind, Table};

/// A Parquet table of text rows: the columns named as text hold the
/// field (an empty one too), the others a whole number (an empty field:
/// null); `game` columns are 64-bit, the others 32-bit.
pub struct TextTable<W: Write + Send> {
    table: Table<W>,
    kinds: Vec<Kind>,
}

impl<W: Write + Send> TextTable<W> {
    /// Starts a table of `columns`, those in `text` holding text.
    pub fn new(
        out: W,
        name: &str,
        columns: &[&'static str],
        text: &[&str],
    ) -> Result<TextTable<W>, Error> {
        let columns: Vec<Column> = columns
            .iter()
            .map(|&name| {
                let (kind, logical) = if text.contains(&name) {
                    (Kind::Text, "STRING")
                } else if name == "game" {
                    (Kind::Int64, "")
                } else {
                    (Kind::Int32, "")
                };
                Column {
                    name,
                    kind,
                    logical,
                    nullable: kind != Kind::Text,
                    dictionary: kind == Kind::Text,
                }
            })
            .collect();
        Ok(TextTable {
            kinds: columns.iter().map(|c| c.kind).collect(),
            table: Table::new(out, name, &columns)?,
        })
    }

    /// Adds a row: a field a column, in order; a field that is not a
    /// whole number where one is due is an error, and the row is left out.
    pub fn push<S: AsRef<str>>(&mut self, fields: &[S]) -> Result<(), Error> {
        let mut numbers = Vec::with_capacity(fields.len());
        for (i, (field, kind)) in fields.iter().zip(&self.kinds).enumerate() {
            let field = field.as_ref();
            numbers.push(match kind {
                Kind::Text => None,
                _ if field.is_empty() => None,
                _ => Some(field.parse::<i64>().map_err(|_| {
                    Error::from(ParquetError::General(format!(
                        "column {i}: {field:?} is not a whole number"
                    )))
                })?),
            });
        }
        for (i, ((field, kind), number)) in fields.iter().zip(&self.kinds).zip(numbers).enumerate()
        {
            match kind {
                Kind::Text => self
                    .table
                    .text(i, Some(ByteArray::from(field.as_ref().as_bytes().to_vec()))),
                Kind::Int64 => self.table.int64(i, number),
                // The command line's numbers of these columns fit.
                Kind::Int32 => self
                    .table
                    .int32(i, number.map(|n| i32::try_from(n).unwrap_or(i32::MAX))),
            }
        }
        self.table.end_row()
    }

    /// Writes the footer; gives the output back.
    pub fn finish(self) -> Result<W, Error> {
        self.table.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parquet::file::reader::{FileReader, SerializedFileReader};

    #[test]
    fn text_rows_keep_their_values_typed() {
        let mut t =
            TextTable::new(Vec::new(), "t", &["source", "game", "loss"], &["source"]).unwrap();
        t.push(&["a.txt", "3", ""]).unwrap();
        t.push(&["", "4", "-2"]).unwrap();
        assert!(t.push(&["b", "x", "1"]).is_err());
        let bytes = t.finish().unwrap();
        let reader = SerializedFileReader::new(bytes::Bytes::from(bytes)).unwrap();
        let rows: Vec<String> = reader
            .get_row_iter(None)
            .unwrap()
            .map(|r| r.unwrap().to_string())
            .collect();
        assert_eq!(
            rows,
            [
                r#"{source: "a.txt", game: 3, loss: null}"#,
                r#"{source: "", game: 4, loss: -2}"#
            ]
        );
    }
}
