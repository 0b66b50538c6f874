//! Board diagrams as strings; the library never prints.

pub mod text;
