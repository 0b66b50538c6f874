//! What the answering commands (`explore`, `stats`, `openings`) print in:
//! the shape flag and the CSV quoting they share.

/// `--format table|csv|json`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// An aligned table for reading.
    Table,
    /// CSV with a header line.
    Csv,
    /// JSON.
    Json,
}

/// A CSV field, quoted when it must be.
pub fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::csv_field;

    #[test]
    fn quotes_only_what_needs_it() {
        assert_eq!(csv_field("Tastet Marc"), "Tastet Marc");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
    }
}
