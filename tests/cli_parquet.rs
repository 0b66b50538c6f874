//! `kifu convert --to parquet`: the CSV table with typed columns, read back
//! with the parquet crate and compared cell by cell with the CSV.

use parquet::basic::{LogicalType, Type as PhysicalType};
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::record::Field;

use crate::support::{kifu, scratch};

#[test]
fn convert_to_parquet_holds_the_csv_table_typed() {
    let dir = scratch("convert-parquet");
    let path = dir.join("games.parquet");
    let input = "fixtures/transcripts/example.txt";
    let csv = kifu()
        .args(["convert", input, "--to", "csv"])
        .output()
        .unwrap();
    // The example has an invalid game: exit 1, as for CSV.
    let out = kifu()
        .args(["convert", input, "-o"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), csv.status.code());
    let csv = String::from_utf8(csv.stdout).unwrap();
    let mut reader = ::csv::Reader::from_reader(csv.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_owned)
        .collect();
    let rows: Vec<Vec<String>> = reader
        .records()
        .map(|r| r.unwrap().iter().map(str::to_owned).collect())
        .collect();
    assert_eq!(header.last().map(String::as_str), Some("opening"));

    let file = SerializedFileReader::new(std::fs::File::open(&path).unwrap()).unwrap();
    let meta = file.metadata().file_metadata();
    assert_eq!(meta.num_rows() as usize, rows.len());
    let columns = meta.schema_descr().columns().to_vec();
    let names: Vec<&str> = columns.iter().map(|c| c.name()).collect();
    assert_eq!(names, header);
    for column in &columns {
        match column.name() {
            "index" | "move_count" | "black_discs" | "black_score" | "error_move" => {
                assert_eq!(
                    column.physical_type(),
                    PhysicalType::INT64,
                    "{}",
                    column.name()
                );
            }
            "source" | "moves" | "status" | "opening" => {
                assert_eq!(column.logical_type_ref(), Some(&LogicalType::String));
            }
            _ => {}
        }
    }
    for (row, record) in rows.iter().zip(file.get_row_iter(None).unwrap()) {
        let record = record.unwrap();
        for ((name, field), cell) in record.get_column_iter().zip(row) {
            let ok = match field {
                Field::Null => cell.is_empty(),
                Field::Long(n) => *cell == n.to_string(),
                Field::Str(s) => cell == s,
                other => panic!("{name}: unexpected {other:?}"),
            };
            assert!(ok, "{name}: {field:?} against the CSV's {cell:?}");
        }
    }
    // Read back by kifu too (tests/cli_ml.rs compares the rows).
    let back = kifu()
        .args(["convert", "--to", "csv"])
        .arg(&path)
        .output()
        .unwrap();
    // The same games, the same verdict (an invalid game exits 1).
    assert_eq!(back.status.code(), out.status.code());
    let formats = kifu().arg("formats").output().unwrap();
    assert!(String::from_utf8_lossy(&formats.stdout).contains("\n  read, write; .parquet .pq"));
}
