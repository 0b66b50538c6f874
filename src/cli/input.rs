//! Opening inputs: files or standard input, and choosing their format.

use std::fs::File;
use std::io::{self, BufRead, BufReader};

use anyhow::{bail, Context, Result};
use kifu::formats::Format;

/// An opened input and its format.
pub struct Input {
    pub reader: Box<dyn BufRead + Send>,
    pub format: Format,
}

/// Opens `name` (`-` is standard input) and settles its format: `--from`
/// if given, else the extension, else the content.
pub fn open(name: &str, from: Option<Format>) -> Result<Input> {
    let mut reader: Box<dyn BufRead + Send> = if name == "-" {
        Box::new(BufReader::with_capacity(1 << 16, io::stdin()))
    } else {
        let meta = std::fs::metadata(name).with_context(|| format!("cannot read {name}"))?;
        if meta.is_dir() {
            bail!("cannot read {name}: is a directory");
        }
        let file = File::open(name).with_context(|| format!("cannot read {name}"))?;
        Box::new(BufReader::with_capacity(1 << 16, file))
    };
    let format = match from.or_else(|| Format::from_path(name.as_ref())) {
        Some(f) => f,
        None => {
            let head = reader
                .fill_buf()
                .with_context(|| format!("cannot read {name}"))?;
            match Format::detect(head) {
                Some(f) => f,
                None => bail!("cannot tell the format of {name}: use --from"),
            }
        }
    };
    Ok(Input { reader, format })
}
