//! The integration tests, in one binary.

mod bad_input;
mod cli_analyze;
mod cli_convert;
mod cli_database;
mod cli_engine;
mod cli_eval;
mod cli_formats;
mod cli_inputs;
mod cli_ml;
mod cli_page;
mod cli_parquet;
mod cli_positions;
mod cli_repair;
mod cli_safety;
mod cli_serve;
mod cli_shard;
mod cli_show;
mod cli_solve;
mod cli_train;
mod cli_validate;
mod cli_wthor;
mod corpus;
mod docs;
mod engine;
mod matrix;
mod support;
