//! Board diagrams as strings; the library never prints.

pub mod svg;
pub mod text;
