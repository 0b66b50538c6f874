//! Inputs opened by name: compressed streams (gzip, bzip2, xz, zstd) and
//! the format settled from a flag, the file's name or its content, for the
//! command line and the Python package alike.

pub mod compress;
pub mod input;
