#!/usr/bin/env bash
# kifu against a peer: a small program built here, in target/peers/, from the
# crates.io crates wthor (reading), magpie (replay) and csv (writing), written
# the straightforward way a Rust user would without kifu. Both turn big.wtb
# (scripts/bench-data.sh) into CSV, RUNS times each, alternately; prints every
# run, the medians and the ratios (wall time and CPU time).
# Usage: scripts/peers.sh [RUNS]   (default 3; KIFU=path times another kifu)
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-3}"
kifu="${KIFU:-target/release/kifu}"
data=target/bench-data
peers=target/peers
scripts/bench-data.sh >/dev/null

mkdir -p "$peers/src"
# The peer gets kifu's release profile, so that the ratio is about the code.
cat >"$peers/Cargo.toml" <<'EOF'
[package]
name = "wthor-magpie-csv"
version = "0.1.0"
edition = "2021"

[dependencies]
csv = "=1.4.0"
magpie = "=0.12.0"
wthor = "=0.6.0"

[profile.release]
lto = "thin"
codegen-units = 1

# Not a member of kifu's package.
[workspace]
EOF
cat >"$peers/src/main.rs" <<'EOF'
//! Reads a WTHOR file (and its .JOU/.TRN names), replays every game with
//! magpie and writes one CSV row per game.
use std::error::Error;
use std::fs::File;
use std::io::BufWriter;
use std::path::Path;

use magpie::othello::{Game, Position, Status, Stone};
use wthor::game_archive::GameArchive;
use wthor::records::Records;

fn names(wtb: &Path, ext: &str) -> Vec<String> {
    std::fs::read(wtb.with_extension(ext))
        .ok()
        .and_then(|bytes| wthor::parse::<Records>(&bytes).ok())
        .map_or_else(Vec::new, |r| r.names)
}

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().collect();
    let wtb = Path::new(&args[1]);
    let bytes = std::fs::read(wtb)?;
    let archive = wthor::parse::<GameArchive>(&bytes).map_err(|e| format!("{e:?}"))?;
    let (players, tournaments) = (names(wtb, "JOU"), names(wtb, "TRN"));
    let name = |list: &[String], i: u16| list.get(usize::from(i)).cloned().unwrap_or_default();

    let mut out = csv::Writer::from_writer(BufWriter::new(File::create(&args[2])?));
    out.write_record([
        "index", "event", "black_player", "white_player", "moves", "move_count",
        "black_discs", "white_discs", "winner", "status",
    ])?;
    for (i, record) in archive.games.iter().enumerate() {
        let mut game = Game::new();
        let mut moves = String::new();
        let mut status = "complete";
        for m in &record.moves {
            // A side without a legal move passes.
            if game.moves().is_empty() {
                game.pass_turn();
            }
            match Position::try_from((m.rank, m.file)) {
                Ok(pos) if game.play(pos).is_ok() => moves.push_str(&pos.to_notation()),
                _ => {
                    status = "invalid";
                    break;
                }
            }
        }
        if game.moves().is_empty() {
            game.pass_turn();
        }
        let winner = match game.status() {
            _ if status == "invalid" => "",
            Status::Win(Stone::Black) => "black",
            Status::Win(Stone::White) => "white",
            Status::Draw => "draw",
            Status::Progressing => {
                status = "incomplete";
                ""
            }
        };
        let board = game.board();
        out.write_record([
            (i + 1).to_string(),
            name(&tournaments, record.tournament_label_number),
            name(&players, record.black_player_number),
            name(&players, record.white_player_number),
            moves.to_lowercase(),
            record.moves.len().to_string(),
            board.bits_for(Stone::Black).count_set().to_string(),
            board.bits_for(Stone::White).count_set().to_string(),
            winner.to_owned(),
            status.to_owned(),
        ])?;
    }
    out.flush()?;
    Ok(())
}
EOF
cargo build --release -q --manifest-path "$peers/Cargo.toml"
peer="$peers/target/release/wthor-magpie-csv"

games=$(($(stat -L -c %s "$data/big.wtb") / 68)) # 16 header bytes: rounds down
times=$peers/times
# shellcheck source=scripts/peer-timing.sh
. scripts/peer-timing.sh
for _ in $(seq "$runs"); do
  # Each run from no output, the last run's written back to disk first
  # (freeing its pages would fall into this run's time).
  rm -f "$peers/kifu.csv" "$peers/peer.csv"
  sync
  time_run kifu "$kifu" convert "$data/big.wtb" --to csv -o "$peers/kifu.csv"
  sync
  time_run peer "$peer" "$data/big.wtb" "$peers/peer.csv"
done
echo "rows: kifu $(($(wc -l <"$peers/kifu.csv") - 1)), peer $(($(wc -l <"$peers/peer.csv") - 1)), games $games"
ratios peer 'the peer'
rm -f "$peers/kifu.csv" "$peers/peer.csv"
