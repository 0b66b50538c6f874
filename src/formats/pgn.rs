//! PGN-style Othello records.
