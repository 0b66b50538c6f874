//! The integration tests, in one binary.

mod cli_convert;
mod cli_repair;
mod cli_show;
mod cli_validate;
mod corpus;
mod engine;
mod support;
