//! NumPy's `.npy` header (format version 1.0), for every array kifu
//! writes: training positions, Othello-GPT tokens and per-move tensors.

/// The header of an array of `rows` items of NumPy type `descr` (its text
/// as NumPy writes it: `'|i1'`, or a structured type's list), each of
/// shape `tail` (`&[]` for one item a row, `&[60]`, `&[8, 8]`): magic,
/// version, length, and the dictionary padded with spaces to a multiple
/// of 64 bytes. Its length is the same for every `rows`, so a writer can
/// put it first and write it again with the count at the end.
#[must_use]
pub fn header(descr: &str, tail: &[usize], rows: u64) -> Vec<u8> {
    let dict = |rows: u64| {
        let shape = if tail.is_empty() {
            format!("({rows},)")
        } else {
            let dims: Vec<String> = tail.iter().map(ToString::to_string).collect();
            format!("({rows}, {})", dims.join(", "))
        };
        format!("{{'descr': {descr}, 'fortran_order': False, 'shape': {shape}, }}")
    };
    // Room for the largest count: the length never changes.
    let room = dict(u64::MAX).len() + 1;
    let total = (10 + room).div_ceil(64) * 64;
    let mut text = dict(rows);
    text.push_str(&" ".repeat(total - 10 - text.len() - 1));
    text.push('\n');
    let mut header = Vec::with_capacity(total);
    header.extend_from_slice(b"\x93NUMPY\x01\x00");
    // A version 1.0 length is two bytes; a descr of kifu's is far shorter.
    header.extend_from_slice(&u16::try_from(total - 10).unwrap_or(u16::MAX).to_le_bytes());
    header.extend_from_slice(text.as_bytes());
    header
}
