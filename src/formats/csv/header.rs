//! A table's header line: which delimiter splits it and which names a
//! moves column.

/// Names of a moves column, best first (exact names, ignoring case): when
/// several columns have such names, the best one holds the moves
/// (`game,moves` reads `moves`; `game` is often a game's number).
pub const MOVE_COLUMNS: [&str; 6] = [
    "moves",
    "game_moves",
    "transcript",
    "movelist",
    "move_list",
    "game",
];

/// The field delimiters a header line is tried with, the preferred first.
pub const DELIMITERS: [u8; 3] = [b',', b';', b'\t'];

/// How good a moves column `name` is: 0 the best ([`MOVE_COLUMNS`]).
pub(super) fn move_rank(name: &str) -> Option<usize> {
    let name = name.trim();
    MOVE_COLUMNS
        .iter()
        .position(|n| n.eq_ignore_ascii_case(name))
}

/// The first line of `head`, without a byte order mark or line ending.
fn first_line(head: &[u8]) -> &[u8] {
    let head = head.strip_prefix("\u{feff}".as_bytes()).unwrap_or(head);
    let line = head.split(|&c| c == b'\n').next().unwrap_or(head);
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// The fields of a header line split at `delimiter`, quotes read.
fn header_fields(line: &[u8], delimiter: u8) -> Vec<String> {
    let mut reader = ::csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(delimiter)
        .from_reader(line);
    let mut record = ::csv::ByteRecord::new();
    match reader.read_byte_record(&mut record) {
        Ok(true) => record
            .iter()
            .map(|f| String::from_utf8_lossy(f).into_owned())
            .collect(),
        _ => Vec::new(),
    }
}

/// Whether a header's fields name a moves column: `named` when given,
/// else one of [`MOVE_COLUMNS`].
fn has_moves_column(fields: &[String], named: Option<&str>) -> bool {
    fields.iter().any(|f| match named {
        Some(name) => f.trim().eq_ignore_ascii_case(name.trim()),
        None => move_rank(f).is_some(),
    })
}

/// The delimiter of a table from its header line: the first of
/// [`DELIMITERS`] that gives a moves column (`named`, else one of
/// [`MOVE_COLUMNS`]), else the one that gives the most fields.
#[must_use]
pub fn sniff_delimiter(line: &[u8], named: Option<&str>) -> u8 {
    let line = first_line(line);
    let mut best = (false, 0, DELIMITERS[0]);
    for delimiter in DELIMITERS {
        if !line.contains(&delimiter) {
            continue;
        }
        let fields = header_fields(line, delimiter);
        let key = (has_moves_column(&fields, named), fields.len(), delimiter);
        // Ties keep the earlier, preferred delimiter.
        if (key.0, key.1) > (best.0, best.1) {
            best = key;
        }
    }
    best.2
}

/// Whether the first bytes look like a table with a moves column: a
/// header line that, split at `,`, `;` or a tab, names one of
/// [`MOVE_COLUMNS`].
#[must_use]
pub fn sniff(head: &[u8]) -> bool {
    let line = first_line(head);
    DELIMITERS.into_iter().any(|delimiter| {
        line.contains(&delimiter) && has_moves_column(&header_fields(line, delimiter), None)
    })
}
