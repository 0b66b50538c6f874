//! The evaluation: how good a position looks, in 1/64 disc for the side
//! to move, from pattern weights by game phase — an estimate, never an
//! exact value.
//!
//! The evaluation is a sum of weights, one for each pattern instance
//! ([`patterns`]: 12 base patterns — an edge with its two X squares, a
//! corner's 3×3 block, 2×5 block and triangle, the second to fourth
//! rows, the diagonals of 4 to 8 squares — under the board's 8
//! symmetries), the instance's squares (empty, mine, theirs) forming the
//! index, with one table per phase of two empty squares (30 phases).
//! [`Weights::evaluate`] is the whole function; [`Weights::builtin`] the
//! weights this crate ships (`eval.zst`).
//!
//! Training ([`label`], [`train`]) is `kifu train-eval`: positions of
//! complete games and of lines kifu generates by leaving them; labels
//! exact (kifu's solver) at the end of each line and, before that, the
//! exact value of the line's first solved position (see [`label`] for
//! what that label is and is not) or a search's estimate with earlier
//! weights (the shipped weights: a depth-4 search on the propagated
//! labels' fit); a least-squares fit of each phase.
//! `manifest.json` beside the weights names the inputs (SHA-256), the
//! parameters and seed, and the weights file's SHA-256; a test holds the
//! embedded file to it.
//!
//! The exact solver orders its moves by this evaluation: its values are
//! exact with any weights, or none.

pub mod features;
pub mod fit;
pub mod label;
pub mod manifest;
pub mod patterns;
pub mod sha256;
mod weights;

pub use features::Features;
pub use fit::{errors, train, FitOptions, Sample};
pub use weights::{Weights, WeightsFileError, SCALE};
