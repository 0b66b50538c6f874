//! Data for machine learning: Othello-GPT's token vocabulary, the training
//! positions of SPEC section 8, per-move tensors, and the NumPy `.npy`
//! header they share.

pub(crate) mod npy;
pub mod positions;
pub mod tensors;
pub mod tokens;
