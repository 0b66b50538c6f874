#!/usr/bin/env bash
# The limit loops of SPEC section 5: what a file costs with nothing but the
# parse and the replay, the yardsticks the whole commands are measured
# against. A small program built here, in target/peers/limit/, written the
# straightforward way (SPEC: "a straightforward single-threaded Rust replay
# loop (shift-based flips)"): no crate, no SIMD, a byte loop over the text
# and flips found by shifting along the eight directions; kifu's release
# profile:
#   limit ggf FILE        one thread: reads the file 1 MiB at a time, finds
#                         each record's B[..] and W[..] tags and replays
#                         them (a pass where the tag says so); prints the
#                         games, moves and illegal moves it met
#   limit wthor FILE [T]  T threads (default 2): the 68-byte records of a
#                         WTHOR file replayed, nothing else
# Then times `kifu convert big.ggf -o out.csv` against `limit ggf big.ggf`
# RUNS times each, in turn (medians and ratios, as scripts/peers.sh), unless
# NOBENCH=1.
# Usage: scripts/limit-loops.sh [RUNS]   (default 5; KIFU=path times another kifu)
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-5}"
root="$PWD"
kifu="${KIFU:-$root/target/release/kifu}"
data=target/bench-data
dir=target/peers/limit
scripts/bench-data.sh >/dev/null

mkdir -p "$dir/src"
cat >"$dir/Cargo.toml" <<EOF
[package]
name = "limit"
version = "0.1.0"
edition = "2021"

[profile.release]
lto = "thin"
codegen-units = 1

# Not a member of kifu's package.
[workspace]
EOF
cat >"$dir/src/main.rs" <<'EOF'
//! The bare loops: parse and replay, nothing else.
use std::io::Read;

/// A square, a1 = 0 … h8 = 63.
#[derive(Clone, Copy)]
struct Square(u8);

impl Square {
    fn from_ascii(name: &[u8]) -> Option<Square> {
        match *name {
            [c @ (b'a'..=b'h' | b'A'..=b'H'), r @ b'1'..=b'8'] => {
                Some(Square((r - b'1') * 8 + (c.to_ascii_lowercase() - b'a')))
            }
            _ => None,
        }
    }

    fn from_coords(column: u8, row: u8) -> Option<Square> {
        (column < 8 && row < 8).then_some(Square(row * 8 + column))
    }

    fn mask(self) -> u64 {
        1 << self.0
    }
}

const NOT_A: u64 = 0xfefe_fefe_fefe_fefe; // no disc of column a
const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f; // no disc of column h

/// One step in each of the eight directions (bits off the board dropped).
const STEPS: [fn(u64) -> u64; 8] = [
    |b| b << 8,
    |b| b >> 8,
    |b| (b << 1) & NOT_A,
    |b| (b >> 1) & NOT_H,
    |b| (b << 9) & NOT_A,
    |b| (b << 7) & NOT_H,
    |b| (b >> 7) & NOT_A,
    |b| (b >> 9) & NOT_H,
];

/// The discs a move on `square` flips: along each direction, a run of
/// the opponent's discs closed by one of the player's.
fn flips(player: u64, opponent: u64, square: Square) -> u64 {
    let mut all = 0;
    for step in STEPS {
        let (mut run, mut at) = (0, step(square.mask()));
        while at & opponent != 0 {
            run |= at;
            at = step(at);
        }
        if at & player != 0 {
            all |= run;
        }
    }
    all
}

/// The squares where `player` may move.
fn moves(player: u64, opponent: u64) -> u64 {
    let empty = !(player | opponent);
    let mut all = 0;
    for step in STEPS {
        let mut run = step(player) & opponent;
        while run != 0 {
            let next = step(run);
            all |= next & empty;
            run = next & opponent;
        }
    }
    all
}

/// One game's replay from the start: (player, opponent) as bitboards.
struct Replay {
    p: u64,
    o: u64,
    black_to_move: bool,
}

impl Replay {
    fn start() -> Replay {
        // d5 and e4 black, d4 and e5 white; black moves.
        Replay { p: (1 << 35) | (1 << 28), o: (1 << 27) | (1 << 36), black_to_move: true }
    }

    fn swap(&mut self) {
        std::mem::swap(&mut self.p, &mut self.o);
        self.black_to_move = !self.black_to_move;
    }

    /// Plays `square` for black or white; a side without a move passes
    /// first. False if the move is illegal.
    fn play(&mut self, black: bool, square: Square) -> bool {
        if black != self.black_to_move {
            if moves(self.p, self.o) != 0 {
                return false;
            }
            self.swap();
        }
        let bit = square.mask();
        if (self.p | self.o) & bit != 0 {
            return false;
        }
        let f = flips(self.p, self.o, square);
        if f == 0 {
            return false;
        }
        let p = self.p | f | bit;
        self.p = self.o ^ f;
        self.o = p;
        self.black_to_move = !self.black_to_move;
        true
    }
}

#[derive(Default)]
struct Count {
    games: u64,
    moves: u64,
    illegal: u64,
}

/// Reads GGF's move tags out of `text` (whole records only), returns how
/// many bytes it used.
fn ggf_block(text: &[u8], count: &mut Count, game: &mut Option<Replay>) -> usize {
    let mut i = 0;
    let mut used = 0;
    while i + 1 < text.len() {
        match text[i] {
            b'(' if text[i + 1] == b';' => {
                *game = Some(Replay::start());
                i += 2;
            }
            b';' if text[i + 1] == b')' => {
                if game.take().is_some() {
                    count.games += 1;
                }
                i += 2;
                used = i;
            }
            // A move tag: `B[` or `W[` not inside another tag's name (PB[).
            c @ (b'B' | b'W') if text[i + 1] == b'[' && (i == 0 || !text[i - 1].is_ascii_uppercase()) => {
                let Some(end) = text[i + 2..].iter().position(|&b| b == b']') else { break };
                let value = &text[i + 2..i + 2 + end];
                if let Some(replay) = game.as_mut() {
                    match Square::from_ascii(&value[..value.len().min(2)]) {
                        Some(square) => {
                            if replay.play(c == b'B', square) {
                                count.moves += 1;
                            } else {
                                count.illegal += 1;
                            }
                        }
                        None => replay.swap(), // PA, pass
                    }
                }
                i += end + 3;
            }
            // Any other tag's value is skipped whole.
            b'[' => match text[i + 1..].iter().position(|&b| b == b']') {
                Some(end) => i += end + 2,
                None => break,
            },
            _ => i += 1,
        }
    }
    used
}

fn ggf(path: &str) -> std::io::Result<Count> {
    let mut file = std::fs::File::open(path)?;
    let mut buffer = vec![0u8; 1 << 20];
    let (mut filled, mut count) = (0, Count::default());
    loop {
        let n = file.read(&mut buffer[filled..])?;
        if n == 0 {
            break;
        }
        filled += n;
        let mut game = None;
        let used = ggf_block(&buffer[..filled], &mut count, &mut game);
        buffer.copy_within(used..filled, 0);
        filled -= used;
        if filled == buffer.len() {
            buffer.resize(buffer.len() * 2, 0); // a record longer than the buffer
        }
    }
    Ok(count)
}

/// WTHOR: 16-byte header, 68-byte records, moves from byte 8 as 10·column+row.
fn wthor(path: &str, threads: usize) -> std::io::Result<Count> {
    let bytes = std::fs::read(path)?;
    let records: Vec<&[u8]> = bytes[16.min(bytes.len())..].chunks_exact(68).collect();
    let part = records.len().div_ceil(threads.max(1)).max(1);
    let counts: Vec<Count> = std::thread::scope(|scope| {
        let handles: Vec<_> = records
            .chunks(part)
            .map(|chunk| {
                scope.spawn(move || {
                    let mut count = Count::default();
                    for record in chunk {
                        let mut replay = Replay::start();
                        count.games += 1;
                        for &code in &record[8..] {
                            let (column, row) = (code % 10, code / 10);
                            if code == 0 {
                                break;
                            }
                            let square = Square::from_coords(column.wrapping_sub(1), row.wrapping_sub(1));
                            let black = replay.black_to_move;
                            let ok = square.is_some_and(|s| {
                                replay.play(black, s) || {
                                    // A side without a move passes.
                                    moves(replay.p, replay.o) == 0 && {
                                        replay.swap();
                                        replay.play(!black, s)
                                    }
                                }
                            });
                            if ok { count.moves += 1 } else { count.illegal += 1; break }
                        }
                    }
                    count
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("a replay thread")).collect()
    });
    Ok(counts.into_iter().fold(Count::default(), |a, b| Count {
        games: a.games + b.games,
        moves: a.moves + b.moves,
        illegal: a.illegal + b.illegal,
    }))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let result = match (args.get(1).map(String::as_str), args.get(2)) {
        (Some("ggf"), Some(path)) => ggf(path),
        (Some("wthor"), Some(path)) => wthor(path, args.get(3).and_then(|t| t.parse().ok()).unwrap_or(2)),
        _ => {
            eprintln!("usage: limit ggf FILE | limit wthor FILE [THREADS]");
            std::process::exit(2);
        }
    };
    match result {
        Ok(c) => println!("{} games, {} moves, {} illegal", c.games, c.moves, c.illegal),
        Err(e) => {
            eprintln!("limit: {e}");
            std::process::exit(1);
        }
    }
}
EOF
(cd "$dir" && cargo build --release -q)
limit="$root/$dir/target/release/limit"
counted=$("$limit" ggf "$data/big.ggf")
echo "limit ggf: $counted"
[ "${NOBENCH:-0}" = 1 ] && exit 0

peers=$dir
times=$dir/times
games=${counted%% games*}
# shellcheck source=scripts/peer-timing.sh
. scripts/peer-timing.sh
for _ in $(seq "$runs"); do
  rm -f "$dir/kifu.csv"
  sync
  time_run kifu "$kifu" convert --quiet "$data/big.ggf" -o "$dir/kifu.csv"
  sync
  time_run peer "$limit" ggf "$data/big.ggf"
done
ratios peer 'the one-thread GGF loop'
rm -f "$dir/kifu.csv"
