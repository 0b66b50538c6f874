//! Compressed inputs: gzip, bzip2, xz and zstd, known by their extension
//! or their magic bytes, decoded as a stream in a thread of their own.
//!
//! ```
//! use std::io::{BufRead, Read, Write};
//! use kifu::compress::{decode, Codec};
//!
//! let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
//! gz.write_all(b"f5d6c3\n")?;
//! let bytes = gz.finish()?;
//! assert_eq!(Codec::from_magic(&bytes), Some(Codec::Gzip));
//! let mut text = String::new();
//! decode(Codec::Gzip, std::io::Cursor::new(bytes)).read_to_string(&mut text)?;
//! assert_eq!(text, "f5d6c3\n");
//! # Ok::<(), std::io::Error>(())
//! ```

use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{sync_channel, Receiver};
use std::sync::Arc;

/// A compression of a whole input.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Codec {
    /// gzip (`.gz`).
    Gzip,
    /// bzip2 (`.bz2`).
    Bzip2,
    /// xz (`.xz`).
    Xz,
    /// Zstandard (`.zst`).
    Zstd,
}

impl Codec {
    /// Every codec.
    pub const ALL: [Codec; 4] = [Codec::Gzip, Codec::Bzip2, Codec::Xz, Codec::Zstd];

    /// Its name, as messages say it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Codec::Gzip => "gzip",
            Codec::Bzip2 => "bzip2",
            Codec::Xz => "xz",
            Codec::Zstd => "zstd",
        }
    }

    /// Its file extensions, lowercase.
    #[must_use]
    pub const fn extensions(self) -> &'static [&'static str] {
        match self {
            Codec::Gzip => &["gz", "gzip"],
            Codec::Bzip2 => &["bz2", "bzip2"],
            Codec::Xz => &["xz"],
            Codec::Zstd => &["zst", "zstd"],
        }
    }

    /// The codec a file name's extension names, if any.
    #[must_use]
    pub fn from_path(path: &Path) -> Option<Codec> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        Codec::ALL
            .into_iter()
            .find(|c| c.extensions().contains(&ext.as_str()))
    }

    /// The codec whose magic bytes start `head`, if any.
    #[must_use]
    pub fn from_magic(head: &[u8]) -> Option<Codec> {
        if head.starts_with(&[0x1f, 0x8b]) {
            Some(Codec::Gzip)
        } else if head.starts_with(b"BZh") && head.get(3).is_some_and(|b| (b'1'..=b'9').contains(b))
        {
            Some(Codec::Bzip2)
        } else if head.starts_with(&[0xfd, b'7', b'z', b'X', b'Z', 0x00]) {
            Some(Codec::Xz)
        } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
            Some(Codec::Zstd)
        } else {
            None
        }
    }
}

/// The name of what a compressed file holds: `WTH_2004.wtb.gz` →
/// `WTH_2004.wtb` (the name itself when it has no codec's extension).
#[must_use]
pub fn inner_name(path: &Path) -> PathBuf {
    match Codec::from_path(path) {
        Some(_) => path.with_extension(""),
        None => path.to_path_buf(),
    }
}

/// Counts the compressed bytes the decoder takes, into a cell the
/// decoder's error message reads (the decoder owns this reader).
struct Counting<R> {
    inner: R,
    read: Arc<AtomicU64>,
}

impl<R: BufRead> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Counting<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, amt: usize) {
        self.read.fetch_add(amt as u64, Ordering::Relaxed);
        self.inner.consume(amt);
    }
}

/// Decodes a whole stream; an error says where in the compressed input it
/// was met.
struct Decoder {
    codec: Codec,
    inner: Box<dyn Read + Send>,
    read: Arc<AtomicU64>,
}

/// Bytes a decoder is asked for at a time: a decoder that fails drops what
/// it decoded in the failing call, so small calls keep all but a little of
/// what came before the damage.
const PIECE: usize = 8 << 10;

impl Read for Decoder {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = buf.len().min(PIECE);
        self.inner.read(&mut buf[..n]).map_err(|e| {
            let at = self.read.load(Ordering::Relaxed);
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "corrupt {} stream near byte {at} of the compressed input: {e}",
                    self.codec.name()
                ),
            )
        })
    }
}

/// A reader of the decoded bytes of `input`, compressed with `codec`
/// (every member of a multi-member gzip or bzip2 file, every frame of a
/// zstd file).
pub fn decode<R: BufRead + Send + 'static>(codec: Codec, input: R) -> Box<dyn BufRead + Send> {
    let read = Arc::new(AtomicU64::new(0));
    let counted = Counting {
        inner: input,
        read: read.clone(),
    };
    let inner: Box<dyn Read + Send> = match codec {
        Codec::Gzip => Box::new(flate2::bufread::MultiGzDecoder::new(counted)),
        Codec::Bzip2 => Box::new(bzip2::bufread::MultiBzDecoder::new(counted)),
        Codec::Xz => Box::new(liblzma::bufread::XzDecoder::new_multi_decoder(counted)),
        Codec::Zstd => match zstd::stream::read::Decoder::with_buffer(counted) {
            Ok(decoder) => Box::new(decoder),
            Err(e) => Box::new(Failing(Some(e))),
        },
    };
    Box::new(BufReader::with_capacity(
        1 << 16,
        Decoder { codec, inner, read },
    ))
}

/// A reader that fails once with the error it was given.
struct Failing(Option<io::Error>);

impl Read for Failing {
    fn read(&mut self, _buf: &mut [u8]) -> io::Result<usize> {
        match self.0.take() {
            Some(e) => Err(e),
            None => Ok(0),
        }
    }
}

/// Blocks of decoded bytes, read ahead by a thread of their own.
const BLOCK: usize = 1 << 18;
/// Blocks waiting at most: memory stays bounded.
const AHEAD: usize = 4;

/// Reads `input` in a thread of its own, a few blocks ahead: a decoder
/// then runs on one core while the caller parses on another.
pub fn read_ahead(mut input: Box<dyn BufRead + Send>) -> Box<dyn BufRead + Send> {
    let (tx, rx) = sync_channel::<io::Result<Vec<u8>>>(AHEAD);
    std::thread::spawn(move || loop {
        let mut block = vec![0u8; BLOCK];
        let mut filled = 0;
        let result = loop {
            match input.read(&mut block[filled..]) {
                Ok(0) => break Ok(()),
                Ok(n) => {
                    filled += n;
                    if filled == block.len() {
                        break Ok(());
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => break Err(e),
            }
        };
        block.truncate(filled);
        let end = filled == 0;
        if !block.is_empty() && tx.send(Ok(block)).is_err() {
            return;
        }
        if let Err(e) = result {
            let _ = tx.send(Err(e));
            return;
        }
        if end {
            return;
        }
    });
    Box::new(Ahead {
        rx,
        block: Vec::new(),
        at: 0,
        done: false,
    })
}

/// The reading end of [`read_ahead`].
struct Ahead {
    rx: Receiver<io::Result<Vec<u8>>>,
    block: Vec<u8>,
    at: usize,
    done: bool,
}

impl Read for Ahead {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(buf.len());
        buf[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Ahead {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        while self.at >= self.block.len() && !self.done {
            match self.rx.recv() {
                Ok(Ok(block)) => {
                    self.block = block;
                    self.at = 0;
                }
                Ok(Err(e)) => {
                    self.done = true;
                    return Err(e);
                }
                // The thread ended: the input is done.
                Err(_) => self.done = true,
            }
        }
        Ok(self.block.get(self.at..).unwrap_or(&[]))
    }

    fn consume(&mut self, amt: usize) {
        self.at = (self.at + amt).min(self.block.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn compressed(codec: Codec, data: &[u8]) -> Vec<u8> {
        match codec {
            Codec::Gzip => {
                let mut w = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
                w.write_all(data).unwrap();
                w.finish().unwrap()
            }
            Codec::Bzip2 => {
                let mut w = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
                w.write_all(data).unwrap();
                w.finish().unwrap()
            }
            Codec::Xz => {
                let mut w = liblzma::write::XzEncoder::new(Vec::new(), 1);
                w.write_all(data).unwrap();
                w.finish().unwrap()
            }
            Codec::Zstd => {
                // With a checksum, as the zstd program writes by default.
                let mut w = zstd::stream::write::Encoder::new(Vec::new(), 1).unwrap();
                w.include_checksum(true).unwrap();
                w.write_all(data).unwrap();
                w.finish().unwrap()
            }
        }
    }

    /// Half a megabyte of random games: text that does not compress to
    /// nothing.
    fn data() -> Vec<u8> {
        let mut rng = crate::testkit::Rng::new(3);
        let mut out = String::new();
        while out.len() < 500_000 {
            let game = crate::testkit::random_game(&mut rng, crate::testkit::Play::WHOLE);
            out.push_str(&game.move_string());
            out.push('\n');
        }
        out.into_bytes()
    }

    #[test]
    fn every_codec_is_known_by_its_magic_and_decodes_through_the_thread() {
        for codec in Codec::ALL {
            let bytes = compressed(codec, &data());
            assert_eq!(Codec::from_magic(&bytes), Some(codec), "{codec:?}");
            let mut out = Vec::new();
            let reader = read_ahead(decode(codec, std::io::Cursor::new(bytes)));
            let mut reader = reader;
            reader.read_to_end(&mut out).unwrap();
            assert_eq!(out, data(), "{codec:?}");
        }
        assert_eq!(Codec::from_magic(b"f5d6c3"), None);
    }

    #[test]
    fn names_and_extensions() {
        assert_eq!(
            Codec::from_path(Path::new("WTH_2004.wtb.GZ")),
            Some(Codec::Gzip)
        );
        assert_eq!(
            inner_name(Path::new("a/Othello.01e4.ggf.bz2")),
            PathBuf::from("a/Othello.01e4.ggf")
        );
        assert_eq!(inner_name(Path::new("x.txt")), PathBuf::from("x.txt"));
        assert_eq!(Codec::from_path(Path::new("x.txt")), None);
    }

    /// What a decoder gives of the first `n` compressed bytes alone.
    fn decoded_prefix(codec: Codec, bytes: &[u8], n: usize) -> Vec<u8> {
        let mut out = Vec::new();
        let _ = decode(codec, std::io::Cursor::new(bytes[..n].to_vec())).read_to_end(&mut out);
        out
    }

    #[test]
    fn a_corrupt_stream_says_where_and_keeps_what_came_before() {
        for codec in Codec::ALL {
            let mut bytes = compressed(codec, &data());
            let cut = bytes.len() / 2;
            // What the stream gives before the damage: the decoded bytes of
            // the compressed bytes before it (a block may hold back a few).
            let before = decoded_prefix(codec, &bytes, cut);
            for b in &mut bytes[cut..cut + 64] {
                *b ^= 0x5a;
            }
            let mut reader = read_ahead(decode(codec, std::io::Cursor::new(bytes)));
            let mut out = Vec::new();
            let Err(err) = reader.read_to_end(&mut out) else {
                panic!("{codec:?}: the damage went unnoticed");
            };
            let text = err.to_string();
            assert!(
                text.starts_with(&format!("corrupt {} stream near byte ", codec.name())),
                "{codec:?}: {text}"
            );
            // Deflate has no checksum before the end: past the damage it
            // may give garbage, but never loses what came before.
            let kept = out.len().min(before.len());
            assert!(
                kept + PIECE >= before.len(),
                "{codec:?}: {kept} of {}",
                before.len()
            );
            assert_eq!(out[..kept], data()[..kept], "{codec:?}");
            assert!(
                !before.is_empty(),
                "{codec:?}: some games before the damage"
            );
        }
    }
}
