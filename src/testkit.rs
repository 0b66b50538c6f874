//! The one test kit of the unit tests: the corpus folder, a seeded
//! generator, random legal games and records decorated at random, so
//! random tests repeat exactly and every format tests the same games.

// Each part of the kit serves some tests, not all.
#![allow(dead_code)]

use std::path::PathBuf;

use crate::formats::transcript::{parse_line, LineContext};
use crate::record::{MoveNote, RecordedMove, RecordedResult, ResultKind, ResultValue, Rules};
use crate::{Color, GameRecord, Move, Position, Square, Winner};

/// The shared corpus folder: `KIFU_CORPUS` or `../shared/corpus`.
///
/// `None` (with a printed notice) when it is absent outside CI; in CI
/// (`CI=true`) a missing corpus fails the test.
pub(crate) fn corpus() -> Option<PathBuf> {
    let dir = std::env::var_os("KIFU_CORPUS").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
        PathBuf::from,
    );
    if dir.is_dir() {
        return Some(dir);
    }
    let in_ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
    assert!(
        !in_ci,
        "the corpus is required in CI but {} is missing (set KIFU_CORPUS)",
        dir.display()
    );
    eprintln!(
        "note: corpus not found at {}; skipping (set KIFU_CORPUS)",
        dir.display()
    );
    None
}

/// Xorshift64: small, seeded, the same stream on every machine.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    /// A generator from any seed (zero included).
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub(crate) fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// A number in `0..n`.
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// True `percent` times in a hundred.
    pub(crate) fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    /// One of `items`.
    pub(crate) fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    /// A short text with the characters that trouble writers: quotes,
    /// brackets, backslashes, separators, accents, CJK, a line break.
    pub(crate) fn tricky_text(&mut self) -> String {
        const PIECES: [&str; 16] = [
            "Tastet", "Marc", " ", "é", "\"", "]", "[", "\\", "(;", ";)", ",", "{", "}", "7",
            "小林", "\n",
        ];
        let mut out: String = (0..1 + self.below(5)).map(|_| self.pick(&PIECES)).collect();
        if out.trim().is_empty() {
            out.push('x');
        }
        out
    }
}

/// How [`random_game`] plays.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Play {
    /// Chance in a hundred, before each move, that the record stops there
    /// (0: play to the end).
    pub(crate) stop: u64,
    /// Chance in a hundred that a forced pass is written as a token.
    pub(crate) written_passes: u64,
    /// Chance in a hundred that the game starts from a position a few
    /// random moves on, as a non-standard start.
    pub(crate) odd_start: u64,
}

impl Play {
    /// Whole games from the standard start, passes left out.
    pub(crate) const WHOLE: Play = Play {
        stop: 0,
        written_passes: 0,
        odd_start: 0,
    };
}

/// A random legal game: its start and its moves with the side that made
/// each (forced passes written or not, as `play` says).
pub(crate) fn random_moves(rng: &mut Rng, play: Play) -> (Position, Vec<(Move, Color)>) {
    let mut position = Position::start();
    if rng.chance(play.odd_start) {
        for _ in 0..rng.below(12) {
            let legal: Vec<Square> = position.legal_moves().into_iter().collect();
            if legal.is_empty() {
                break;
            }
            let _ = position.play(rng.pick(&legal));
        }
    }
    let start = position;
    let mut moves = Vec::with_capacity(64);
    while !position.is_game_over() && !rng.chance(play.stop) {
        let mover = position.side_to_move();
        let legal: Vec<Square> = position.legal_moves().into_iter().collect();
        if legal.is_empty() {
            position.pass();
            if rng.chance(play.written_passes) {
                moves.push((Move::Pass, mover));
            }
            continue;
        }
        let square = rng.pick(&legal);
        let _ = position.play(square);
        moves.push((Move::Play(square), mover));
    }
    (start, moves)
}

/// A random legal game as a bare record (no colours, tags or result).
pub(crate) fn random_game(rng: &mut Rng, play: Play) -> GameRecord {
    let (start, moves) = random_moves(rng, play);
    let mut record = GameRecord::new(start);
    record.moves = moves
        .into_iter()
        .map(|(mv, _)| RecordedMove::new(mv))
        .collect();
    record
}

/// Gives `record` tags, a result, a theoretical score, per-move notes and
/// rules at random: what every format is asked to keep or to name as lost.
pub(crate) fn decorate(rng: &mut Rng, record: &mut GameRecord) {
    let t = &mut record.tags;
    for slot in [
        &mut t.black,
        &mut t.white,
        &mut t.event,
        &mut t.date,
        &mut t.site,
        &mut t.round,
        &mut t.black_rating,
        &mut t.white_rating,
    ] {
        if rng.chance(60) {
            *slot = Some(rng.tricky_text());
        }
    }
    for _ in 0..rng.below(3) {
        let name = rng
            .pick(&["Annotator", "TimeControl", "Database", "GN"])
            .to_owned();
        t.extra.push((name, rng.tricky_text()));
    }
    if rng.chance(20) {
        record.theoretical_black_score = Some(rng.below(65) as u8);
    }
    if rng.chance(25) {
        record.notes = (0..record.moves.len())
            .map(|_| MoveNote {
                eval: rng
                    .chance(70)
                    .then(|| (rng.below(12_801) as f64 - 6400.0) / 100.0),
                time: rng.chance(50).then(|| rng.below(100_000) as f64 / 1000.0),
            })
            .collect();
    }
    if rng.chance(10) {
        record.rules = Rules::Anti;
    }
    let side = rng.pick(&[Winner::Black, Winner::White, Winner::Draw]);
    record.result = match rng.below(5) {
        0 => None,
        1 => {
            // `1-0` and `0-1` name a winner, not disc counts.
            let black = 2 + rng.below(63) as u8;
            Some(RecordedResult::new(ResultValue::Discs {
                black,
                white: rng.below(65 - usize::from(black)) as u8,
            }))
        }
        2 => Some(RecordedResult::new(ResultValue::Winner(side))),
        3 => Some(RecordedResult {
            value: ResultValue::Winner(side),
            kind: rng.pick(&[ResultKind::Resigned, ResultKind::Time, ResultKind::Mutual]),
        }),
        _ => Some(RecordedResult::new(ResultValue::Margin(
            rng.below(129) as f64 - 64.0,
        ))),
    };
}

/// A record read from a transcript line (`f5d6c3`, any variant).
pub(crate) fn transcript(line: &str) -> GameRecord {
    let ctx = LineContext {
        line: 1,
        byte: 0,
        index: 1,
    };
    parse_line(line.as_bytes(), ctx).expect("a game line")
}

/// `record` replayed as the batch replays it for a table: its report and
/// its opening named.
pub fn replay_named(record: &GameRecord) -> (crate::Report, Option<&'static crate::Opening>) {
    let selection =
        crate::record::select::Selection::new(crate::record::select::Filter::default(), true);
    let (report, found) = selection.replay(record);
    (report, found.opening)
}

/// One of `sources` with a few random edits: bytes deleted, replaced or
/// inserted, drawn from `alphabet` (a format's own delimiters and words,
/// so the edits reach its syntax).
pub(crate) fn mutate(rng: &mut Rng, sources: &[&str], alphabet: &[u8]) -> Vec<u8> {
    let mut bytes = sources[rng.below(sources.len())].as_bytes().to_vec();
    for _ in 0..1 + rng.below(6) {
        let at = rng.below(bytes.len() + 1);
        let c = alphabet[rng.below(alphabet.len())];
        match rng.below(3) {
            0 if at < bytes.len() => {
                bytes.remove(at);
            }
            1 if at < bytes.len() => bytes[at] = c,
            _ => bytes.insert(at, c),
        }
    }
    bytes
}

/// What every reader promises of the games it read from `input`: numbered
/// from 1, a span for each move token and inside the input, unreadable
/// tokens marked, a defect's place inside the input. Returns how many
/// games have a defect.
pub(crate) fn check_read(games: &[GameRecord], input: &[u8]) -> usize {
    let end = input.len() as u64;
    let mut defects = 0;
    for (i, g) in games.iter().enumerate() {
        assert_eq!(g.origin.index, i as u64 + 1);
        assert_eq!(g.spans.each().len(), g.moves.len());
        for span in g.spans.each() {
            assert!(span.byte + u64::from(span.len) <= end, "{span:?}");
        }
        for (k, _) in &g.unreadable {
            assert_eq!(g.moves[*k].token, crate::Token::Unreadable);
        }
        if let Some(d) = &g.defect {
            defects += 1;
            assert!(d.span.byte <= end, "{d:?}");
        }
    }
    defects
}

/// A record's move tokens as written, separated by spaces (`f5 d6 xx`).
pub(crate) fn tokens(g: &GameRecord) -> String {
    (0..g.moves.len())
        .map(|i| g.token_text(i))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Each game's move tokens as written ([`tokens`]) and its defect as
/// `line:column message` (empty when it has none).
pub(crate) fn defects(games: &[GameRecord]) -> Vec<(String, String)> {
    games
        .iter()
        .map(|g| {
            let defect = g.defect.as_ref().map_or(String::new(), |d| {
                format!("{}:{} {}", d.span.line, d.span.column, d.message)
            });
            (tokens(g), defect)
        })
        .collect()
}

/// Every `.wtb` under `dir`, at any depth, any case of extension, in
/// name order, appended to `out`.
pub(crate) fn wtb_files(dir: &std::path::Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            wtb_files(&path, out);
        } else if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("wtb"))
        {
            out.push(path);
        }
    }
}

/// The colour each move token states, `B`, `W` or `?` (none).
pub(crate) fn colors(g: &GameRecord) -> String {
    g.moves
        .iter()
        .map(|m| match m.color {
            Some(Color::Black) => 'B',
            Some(Color::White) => 'W',
            None => '?',
        })
        .collect()
}

/// Where a game starts: its number, line and byte.
pub(crate) type Origin = (u64, Option<u32>, u64);

/// Where the pipeline, run with `options`, puts each game `reader` reads:
/// cut into chunks or not, they must be where the sequential reader puts
/// them.
pub(crate) fn pipeline_origins(
    reader: impl crate::formats::GameReader,
    options: &crate::batch::Options,
) -> Vec<Origin> {
    let mut seen = Vec::new();
    crate::batch::run(
        reader,
        options,
        |games| {
            games
                .iter()
                .map(|g| (g.origin.index, g.origin.line, g.origin.byte))
                .collect::<Vec<_>>()
        },
        |ids| {
            seen.extend(ids);
            Ok(())
        },
    )
    .expect("no failure");
    seen
}
