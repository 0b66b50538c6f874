//! SGF (`GM[2]`) Othello records.
