//! OBF positions: a board, the side to move and scored moves.
