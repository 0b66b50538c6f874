//! Database questions (SPEC section 7) against brute force: `explore`,
//! `stats`, the filters and `--unique` on the corpus, each answer counted
//! again here by replaying every game and comparing boards as text under
//! all 8 symmetries.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

use crate::support::{corpus, kifu, scratch};
use kifu::formats::wthor;
use kifu::record::select::{winner, year};
use kifu::{GameRecord, Move, Openings, Position, Report, Square, Status, Watch, Winner};

/// The 8 symmetries of the board as maps of square indices (`a1` = 0,
/// `b1` = 1, …), written out here rather than taken from the library.
type SquareMap = fn(usize, usize) -> (usize, usize);

fn symmetries() -> Vec<[usize; 64]> {
    let maps: [SquareMap; 8] = [
        |r, c| (r, c),
        |r, c| (c, r),
        |r, c| (7 - r, c),
        |r, c| (r, 7 - c),
        |r, c| (7 - r, 7 - c),
        |r, c| (7 - c, 7 - r),
        |r, c| (c, 7 - r),
        |r, c| (7 - c, r),
    ];
    maps.iter()
        .map(|f| {
            let mut map = [0; 64];
            for (i, to) in map.iter_mut().enumerate() {
                let (r, c) = f(i / 8, i % 8);
                *to = r * 8 + c;
            }
            map
        })
        .collect()
}

fn square_name(index: usize) -> String {
    Square::all().nth(index).expect("a square").to_string()
}

/// A game as the brute force sees it: every position of its replay as
/// text (64 squares and the side to move) with the move played from it.
struct Played {
    record: GameRecord,
    report: Report,
    positions: Vec<(String, Option<Move>)>,
}

#[derive(Default)]
struct Collect(Vec<(String, Option<Move>)>);

impl Watch for Collect {
    fn position(&mut self, position: &Position, _ply: u32, next: Move) {
        self.0.push((position.to_string(), Some(next)));
    }
    fn end(&mut self, position: &Position, _ply: u32) {
        self.0.push((position.to_string(), None));
    }
}

fn wthor_files(dir: &Path, years: &[u16]) -> Vec<PathBuf> {
    years
        .iter()
        .map(|y| dir.join(format!("wthor/WTH_{y}.wtb")))
        .collect()
}

fn read_games(files: &[PathBuf]) -> Vec<Played> {
    let mut games = Vec::new();
    for file in files {
        // The reader finds the names in WTH.JOU and WTH.TRN beside it.
        for record in wthor::Reader::open(file).expect("a corpus file") {
            let record = record.expect("a corpus game");
            let mut collect = Collect::default();
            let report = record.replay_watched(&mut collect);
            games.push(Played {
                record,
                report,
                positions: collect.0,
            });
        }
    }
    games
}

/// Where the game reaches `query` (board text), and the move it played
/// next mapped into the query's orientation: `Some(None)` when it ends
/// there. The identity wins when the game reaches the query exactly.
fn reaches(game: &Played, query: &str, syms: &[[usize; 64]]) -> Option<Option<String>> {
    let q = query.as_bytes();
    for (text, next) in &game.positions {
        let g = text.as_bytes();
        if g[65] != q[65] {
            continue;
        }
        let Some(image) = syms.iter().find(|map| (0..64).all(|s| g[map[s]] == q[s])) else {
            continue;
        };
        let next = next.map(|mv| match mv {
            Move::Pass => "pass".to_owned(),
            Move::Play(square) => {
                let from = (0..64)
                    .find(|&s| image[s] == square.index())
                    .expect("a square");
                square_name(from)
            }
        });
        return Some(next);
    }
    None
}

/// How many of the 8 symmetries map the query onto itself.
fn self_images(query: &str, syms: &[[usize; 64]]) -> usize {
    let q = query.as_bytes();
    syms.iter()
        .filter(|map| (0..64).all(|s| q[map[s]] == q[s]))
        .count()
}

fn position_of_moves(moves: &str) -> String {
    let mut replay = kifu::Replay::new(Position::start());
    for i in (0..moves.len()).step_by(2) {
        let square: Square = moves[i..i + 2].parse().expect("a square");
        replay.place(square, None).expect("a legal move");
    }
    replay.position().to_string()
}

#[derive(Default, Debug, PartialEq)]
struct Row {
    games: u64,
    black_wins: u64,
    draws: u64,
    white_wins: u64,
    unfinished: u64,
    complete: u64,
    black_sum: u64,
}

impl Row {
    fn add(&mut self, game: &Played) {
        self.games += 1;
        match winner(&game.record, &game.report) {
            Some(Winner::Black) => self.black_wins += 1,
            Some(Winner::White) => self.white_wins += 1,
            Some(Winner::Draw) => self.draws += 1,
            None => self.unfinished += 1,
        }
        if let Some(score) = game.report.final_score() {
            self.complete += 1;
            self.black_sum += u64::from(score.black_score);
        }
    }

    fn cells(&self) -> String {
        let avg = if self.complete == 0 {
            String::new()
        } else {
            format!("{:.2}", self.black_sum as f64 / self.complete as f64)
        };
        format!(
            "{},{},{},{},{},{avg}",
            self.games, self.black_wins, self.draws, self.white_wins, self.unfinished
        )
    }
}

fn stdout_of(args: &[&str]) -> (String, String) {
    let out = kifu().args(args).output().expect("kifu runs");
    let stderr = String::from_utf8(out.stderr).expect("UTF-8");
    assert!(out.status.success(), "kifu {args:?} failed: {stderr}");
    (String::from_utf8(out.stdout).expect("UTF-8"), stderr)
}

fn paths(files: &[PathBuf]) -> Vec<&str> {
    files
        .iter()
        .map(|f| f.to_str().expect("UTF-8 path"))
        .collect()
}

/// The explore CSV rows against the brute-force count: rows by games
/// descending, then move.
fn check_explore(files: &[PathBuf], games: &[Played], position: &str, query_args: &[&str]) {
    let syms = symmetries();
    assert_eq!(
        self_images(position, &syms),
        1,
        "the query must have no symmetry, so each game's next move is one square"
    );
    let mut rows: BTreeMap<String, Row> = BTreeMap::new();
    let mut reached = 0;
    for game in games {
        if let Some(next) = reaches(game, position, &syms) {
            reached += 1;
            if let Some(mv) = next {
                rows.entry(mv).or_default().add(game);
            }
        }
    }
    assert!(reached > 0, "no game reaches the query {query_args:?}");
    let mut expected: Vec<(String, Row)> = rows.into_iter().collect();
    expected.sort_by(|a, b| b.1.games.cmp(&a.1.games).then_with(|| a.0.cmp(&b.0)));
    let mut text =
        String::from("move,games,black_wins,draws,white_wins,unfinished,avg_black_score\n");
    for (mv, row) in &expected {
        text.push_str(&format!("{mv},{}\n", row.cells()));
    }

    let mut args = vec!["explore", "--format", "csv"];
    args.extend_from_slice(query_args);
    args.extend(paths(files));
    let (stdout, _) = stdout_of(&args);
    assert_eq!(stdout, text, "explore {query_args:?}");

    let mut args = vec!["explore", "--format", "json"];
    args.extend_from_slice(query_args);
    args.extend(paths(files));
    let (stdout, _) = stdout_of(&args);
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("one JSON object");
    assert_eq!(json["games"], reached, "games reaching {query_args:?}");
    assert_eq!(json["position"], position);
}

const EXPLORE_YEARS: [u16; 8] = [1977, 1978, 1979, 1980, 1984, 1988, 1990, 2025];

#[test]
fn explore_agrees_with_a_brute_force_count() {
    let Some(dir) = corpus() else { return };
    let files = wthor_files(&dir, &EXPLORE_YEARS);
    let games = read_games(&files);
    let syms = symmetries();

    // The Tiger, by moves and as a board.
    let tiger = position_of_moves("f5d6c3d3c4");
    check_explore(&files, &games, &tiger, &["--moves", "f5d6c3d3c4"]);
    check_explore(&files, &games, &tiger, &["--board", &tiger]);

    // f5 d6 c3, queried turned half a circle (c4 e3 f6): the same games,
    // the next moves turned with it.
    let turned = position_of_moves("c4e3f6");
    assert_ne!(turned, position_of_moves("f5d6c3"));
    check_explore(&files, &games, &turned, &["--moves", "c4e3f6"]);

    // A position the games reach by more than one move order.
    let moves = "f5d6c3d3c4f4f6f3e6e7";
    let target = position_of_moves(moves);
    let prefixes: HashSet<String> = syms
        .iter()
        .map(|map| {
            (0..moves.len())
                .step_by(2)
                .map(|i| {
                    let square: Square = moves[i..i + 2].parse().unwrap();
                    square_name(map[square.index()])
                })
                .collect()
        })
        .collect();
    let transposed = games
        .iter()
        .filter(|g| reaches(g, &target, &syms).is_some())
        .filter(|g| !prefixes.contains(&g.record.move_string()[..moves.len()]))
        .count();
    assert!(
        transposed > 0,
        "some game must reach {moves} in another order for this check to count"
    );
    check_explore(&files, &games, &target, &["--moves", moves]);
}

#[test]
fn explore_of_the_start_lists_first_moves() {
    let Some(dir) = corpus() else { return };
    let files = wthor_files(&dir, &[1977, 1978, 1979, 1980]);
    let games = read_games(&files);
    // The start is its own image four ways; every game reaches it exactly,
    // so its first move is counted as played.
    let mut rows: BTreeMap<String, u64> = BTreeMap::new();
    for game in &games {
        let first = &game.record.move_string()[..2];
        *rows.entry(first.to_owned()).or_default() += 1;
    }
    let files = paths(&files);
    let mut args = vec!["explore", "--format", "csv"];
    args.extend(&files);
    let (stdout, _) = stdout_of(&args);
    let listed: BTreeMap<String, u64> = stdout
        .lines()
        .skip(1)
        .map(|line| {
            let mut cells = line.split(',');
            let mv = cells.next().unwrap().to_owned();
            (mv, cells.next().unwrap().parse().unwrap())
        })
        .collect();
    assert_eq!(listed, rows);
}

/// The matched count of the summary line on standard error.
fn matched(stderr: &str) -> u64 {
    let line = stderr
        .lines()
        .find(|l| l.contains(" read"))
        .unwrap_or_else(|| panic!("a summary line in {stderr}"));
    let after = line
        .split(", ")
        .nth(1)
        .unwrap_or_else(|| panic!("a matched count in {line}"));
    after
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("a matched count in {line}"))
}

/// The games by year of `kifu stats --by year --format csv`, summed.
fn stats_total(stdout: &str) -> u64 {
    let mut lines = stdout.lines();
    assert_eq!(
        lines.next(),
        Some("year,games,black_wins,draws,white_wins,unfinished,avg_black_score")
    );
    lines
        .map(|l| l.split(',').nth(1).unwrap().parse::<u64>().unwrap())
        .sum()
}

fn contains(haystack: Option<&str>, needle: &str) -> bool {
    haystack.is_some_and(|h| h.to_lowercase().contains(&needle.to_lowercase()))
}

/// The name of the opening the game reaches: the longest entry whose
/// position (or an image of it) the game's replay passes through.
fn opening_of(game: &Played, syms: &[[usize; 64]]) -> Option<String> {
    let mut best: Option<(usize, String)> = None;
    for entry in Openings::builtin().entries() {
        let n = entry.moves().len();
        if best.as_ref().is_some_and(|(m, _)| *m >= n) {
            continue;
        }
        if reaches(game, &entry.position().to_string(), syms).is_some() {
            best = Some((n, entry.name().to_owned()));
        }
    }
    best.map(|(_, name)| name)
}

#[test]
fn each_filter_alone_and_combined_matches_a_brute_force_count() {
    let Some(dir) = corpus() else { return };
    let files = wthor_files(&dir, &[1980, 1984, 1988, 2021]);
    let games = read_games(&files);
    let syms = symmetries();
    let tiger = position_of_moves("f5d6c3d3c4");
    let openings: Vec<Option<String>> = games.iter().map(|g| opening_of(g, &syms)).collect();

    type Test = Box<dyn Fn(usize, &Played) -> bool>;
    let black = |g: &Played| g.record.tags.black.as_deref().map(str::to_owned);
    let cases: Vec<(Vec<&str>, Test)> = vec![
        (
            vec!["--player", "TAMENORI"],
            Box::new(|_, g| {
                contains(g.record.tags.black.as_deref(), "tamenori")
                    || contains(g.record.tags.white.as_deref(), "tamenori")
            }),
        ),
        (
            vec!["--black", "murakami"],
            Box::new(|_, g| contains(g.record.tags.black.as_deref(), "murakami")),
        ),
        (
            vec!["--white", "shaman"],
            Box::new(|_, g| contains(g.record.tags.white.as_deref(), "shaman")),
        ),
        (
            vec!["--event", "championnat"],
            Box::new(|_, g| contains(g.record.tags.event.as_deref(), "championnat")),
        ),
        (
            vec!["--year", "1984..1988"],
            Box::new(|_, g| year(&g.record).is_some_and(|y| (1984..=1988).contains(&y))),
        ),
        (
            vec!["--year", "2021"],
            Box::new(|_, g| year(&g.record) == Some(2021)),
        ),
        (
            vec!["--status", "incomplete"],
            Box::new(|_, g| g.report.status() == Status::Incomplete),
        ),
        (
            vec!["--status", "complete,invalid"],
            Box::new(|_, g| g.report.status() != Status::Incomplete),
        ),
        (
            vec!["--winner", "draw"],
            Box::new(|_, g| winner(&g.record, &g.report) == Some(Winner::Draw)),
        ),
        (
            vec!["--opening", "tiger"],
            Box::new(move |i, _| contains(openings[i].as_deref(), "tiger")),
        ),
        (
            vec!["--position", "f5d6c3d3c4"],
            Box::new(move |_, g| reaches(g, &tiger, &symmetries()).is_some()),
        ),
        (
            vec![
                "--year",
                "1988..2021",
                "--winner",
                "black",
                "--position",
                "f5d6c3",
                "--player",
                "a",
            ],
            Box::new(move |_, g| {
                let position = position_of_moves("f5d6c3");
                year(&g.record).is_some_and(|y| (1988..=2021).contains(&y))
                    && winner(&g.record, &g.report) == Some(Winner::Black)
                    && reaches(g, &position, &symmetries()).is_some()
                    && (contains(black(g).as_deref(), "a")
                        || contains(g.record.tags.white.as_deref(), "a"))
            }),
        ),
    ];
    for (flags, test) in cases {
        let expected = games
            .iter()
            .enumerate()
            .filter(|(i, g)| test(*i, g))
            .count() as u64;
        assert!(expected > 0, "{flags:?} must choose some games to count");
        assert!(
            expected < games.len() as u64,
            "{flags:?} must leave some out"
        );
        let mut args = vec!["stats", "--by", "year", "--format", "csv"];
        args.extend(&flags);
        args.extend(paths(&files));
        let (stdout, stderr) = stdout_of(&args);
        assert_eq!(matched(&stderr), expected, "{flags:?}: {stderr}");
        assert_eq!(stats_total(&stdout), expected, "{flags:?}: stats rows");
    }
}

#[test]
fn stats_by_player_and_year_agree_with_a_brute_force_count() {
    let Some(dir) = corpus() else { return };
    let files = wthor_files(&dir, &[1977, 1978, 1979, 1980, 1984]);
    let games = read_games(&files);

    // By player: each game twice, from each side.
    #[derive(Default)]
    struct Player {
        games: u64,
        wins: u64,
        draws: u64,
        losses: u64,
        unfinished: u64,
        complete: u64,
        diff: i64,
    }
    let mut players: HashMap<String, Player> = HashMap::new();
    for g in &games {
        let score = g.report.final_score();
        for (name, side) in [
            (&g.record.tags.black, Winner::Black),
            (&g.record.tags.white, Winner::White),
        ] {
            let p = players.entry(name.clone().unwrap_or_default()).or_default();
            p.games += 1;
            match winner(&g.record, &g.report) {
                Some(Winner::Draw) => p.draws += 1,
                Some(w) if w == side => p.wins += 1,
                Some(_) => p.losses += 1,
                None => p.unfinished += 1,
            }
            if let Some(s) = score {
                p.complete += 1;
                let d = i64::from(s.black_score) - i64::from(s.white_score);
                p.diff += if side == Winner::Black { d } else { -d };
            }
        }
    }
    let mut rows: Vec<(String, &Player)> = players.iter().map(|(k, v)| (k.clone(), v)).collect();
    rows.sort_by(|a, b| b.1.games.cmp(&a.1.games).then_with(|| a.0.cmp(&b.0)));
    let mut expected =
        String::from("player,games,wins,draws,losses,unfinished,score_rate,avg_disc_diff\n");
    for (name, p) in rows {
        let decided = p.wins + p.draws + p.losses;
        let rate = (p.wins as f64 + p.draws as f64 / 2.0) / decided as f64;
        let name = if name.contains([',', '"']) {
            format!("\"{}\"", name.replace('"', "\"\""))
        } else {
            name
        };
        expected.push_str(&format!(
            "{name},{},{},{},{},{},{rate:.3},{:.2}\n",
            p.games,
            p.wins,
            p.draws,
            p.losses,
            p.unfinished,
            p.diff as f64 / p.complete as f64
        ));
    }
    let mut args = vec!["stats", "--by", "player", "--format", "csv"];
    args.extend(paths(&files));
    let (stdout, _) = stdout_of(&args);
    assert_eq!(stdout, expected);

    // By year, oldest first.
    let mut years: BTreeMap<u16, Row> = BTreeMap::new();
    for g in &games {
        years.entry(year(&g.record).unwrap()).or_default().add(g);
    }
    let mut expected =
        String::from("year,games,black_wins,draws,white_wins,unfinished,avg_black_score\n");
    for (y, row) in &years {
        expected.push_str(&format!("{y},{}\n", row.cells()));
    }
    let mut args = vec!["stats", "--by", "year", "--format", "csv"];
    args.extend(paths(&files));
    let (stdout, stderr) = stdout_of(&args);
    assert_eq!(stdout, expected);
    assert!(
        stderr.contains(&format!("{} games read", games.len())),
        "{stderr}"
    );

    // JSON Lines: one object per row, the CSV's fields in its order.
    let mut args = vec!["stats", "--by", "year", "--format", "json"];
    args.extend(paths(&files));
    let (stdout, _) = stdout_of(&args);
    let first = stdout.lines().next().unwrap();
    assert!(
        first.starts_with("{\"year\":\"1977\",\"games\":12,"),
        "{first}"
    );
    assert_eq!(stdout.lines().count(), years.len());
}

/// The moves of a game turned by a symmetry, as a transcript.
fn turned(moves: &str, map: &[usize; 64]) -> String {
    (0..moves.len())
        .step_by(2)
        .map(|i| {
            let square: Square = moves[i..i + 2].parse().unwrap();
            square_name(map[square.index()])
        })
        .collect()
}

#[test]
fn unique_leaves_out_turned_and_mirrored_copies() {
    let Some(dir) = corpus() else { return };
    let files = wthor_files(&dir, &[1980]);
    let games = read_games(&files);
    let syms = symmetries();
    let originals: Vec<String> = games[..40].iter().map(|g| g.record.move_string()).collect();
    // Each original, then copies turned by every symmetry (the identity
    // too: an exact copy), interleaved with the next originals.
    let mut lines = Vec::new();
    let mut copies = 0;
    for (i, moves) in originals.iter().enumerate() {
        lines.push(moves.clone());
        if i >= 8 {
            lines.push(turned(&originals[i - 8], &syms[i % 8]));
            copies += 1;
        }
    }
    let tmp = scratch("unique");
    let input = tmp.join("games.txt");
    std::fs::write(&input, lines.join("\n") + "\n").unwrap();
    let output = tmp.join("unique.txt");
    let out = kifu()
        .args(["convert", "--unique", "-o"])
        .arg(&output)
        .arg(&input)
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains(&format!("({copies} duplicates left out)")),
        "{stderr}"
    );
    let written = std::fs::read_to_string(&output).unwrap();
    let written: Vec<&str> = written.lines().collect();
    assert_eq!(
        written,
        originals.iter().map(String::as_str).collect::<Vec<_>>()
    );
}

#[test]
fn unique_on_the_corpus_agrees_with_a_brute_force_count() {
    let Some(dir) = corpus() else { return };
    let files = wthor_files(&dir, &[2000, 2004, 2008]);
    let games = read_games(&files);
    let syms = symmetries();
    let mut seen = HashSet::new();
    let mut duplicates = 0u64;
    let mut kept = Row::default();
    for g in &games {
        let moves = g.record.move_string();
        let key = syms.iter().map(|map| turned(&moves, map)).min().unwrap();
        if seen.insert(key) {
            kept.add(g);
        } else {
            duplicates += 1;
        }
    }
    assert!(duplicates > 0, "the corpus years chosen hold duplicates");
    let mut args = vec!["stats", "--by", "event", "--unique", "--format", "csv"];
    args.extend(paths(&files));
    let (stdout, stderr) = stdout_of(&args);
    assert!(
        stderr.contains(&format!(
            "{} games read, {} matched ({duplicates} duplicates left out)",
            games.len(),
            games.len()
        )),
        "{stderr}"
    );
    let total: u64 = stdout
        .lines()
        .skip(1)
        .map(|l| l.rsplit(',').nth(5).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(total, kept.games);
}

#[test]
fn the_opening_column_agrees_with_a_brute_force_classification() {
    let Some(dir) = corpus() else { return };
    let files = wthor_files(&dir, &[1990, 2010]);
    let games = read_games(&files);
    let syms = symmetries();
    let expected: Vec<String> = games
        .iter()
        .map(|g| opening_of(g, &syms).unwrap_or_default())
        .collect();
    assert!(
        expected.iter().filter(|name| !name.is_empty()).count() > games.len() / 2,
        "most games have a named opening"
    );
    let files = paths(&files);
    let mut args = vec!["convert", "--to", "csv"];
    args.extend(&files);
    let (stdout, _) = stdout_of(&args);
    let mut table = csv::Reader::from_reader(stdout.as_bytes());
    let headers = table.headers().expect("a header").clone();
    assert_eq!(
        headers.iter().next_back(),
        Some("opening"),
        "the last column"
    );
    let column = headers.len() - 1;
    let written: Vec<String> = table
        .records()
        .map(|row| row.expect("a row")[column].to_owned())
        .collect();
    assert_eq!(written, expected);

    let mut args = vec!["convert", "--to", "jsonl"];
    args.extend(&files);
    let (stdout, _) = stdout_of(&args);
    let written: Vec<String> = stdout
        .lines()
        .map(|line| {
            let object: serde_json::Value = serde_json::from_str(line).expect("an object");
            object["opening"].as_str().unwrap_or_default().to_owned()
        })
        .collect();
    assert_eq!(written, expected);
}

#[test]
fn show_names_the_opening_of_a_turned_transposed_line() {
    // The Tiger, f5d6c3d3c4, turned onto d3 and played in another order.
    let (stdout, _) = stdout_of(&["show", "d3c5e6f5f6", "--ascii"]);
    let tiger = position_of_moves("f5d6c3d3c4");
    let typed = position_of_moves("d3c5e6f5f6");
    let syms = symmetries();
    let (t, g) = (tiger.as_bytes(), typed.as_bytes());
    assert!(syms.iter().any(|map| (0..64).all(|s| g[map[s]] == t[s])));
    assert_eq!(stdout.lines().next(), Some("opening: Tiger"));
}

#[test]
fn a_malformed_filter_is_a_usage_error_naming_the_flag() {
    let short_board = "-".repeat(63);
    let cases = [
        (vec!["--year", "20x4"], "--year 20x4: not a year"),
        (
            vec!["--position", "f5z9"],
            "--position f5z9: move 2 (white) z9: not a square",
        ),
        (vec!["--position", "f5f5"], "--position f5f5: move 2"),
        (vec!["--position", &short_board], "--position"),
        (
            vec!["--winner", "nobody"],
            "--winner nobody: not black, white or draw",
        ),
        (vec!["--status", "done"], "--status done"),
    ];
    for (flags, message) in cases {
        for command in ["validate", "score", "convert", "stats", "explore"] {
            let mut args = vec![command];
            match command {
                "stats" => args.extend(["--by", "year"]),
                "convert" => args.extend(["--to", "csv"]),
                _ => {}
            }
            args.extend(&flags);
            let out = kifu().args(&args).write_stdin("f5d6c3\n").output().unwrap();
            let stderr = String::from_utf8(out.stderr).unwrap();
            assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
            assert!(stderr.contains(message), "{args:?}: {stderr}");
        }
    }
}

#[test]
fn openings_lists_the_whole_table() {
    let (csv, _) = stdout_of(&["openings", "--format", "csv"]);
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("name,moves,aliases"));
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), Openings::builtin().entries().len());
    assert!(rows.contains(&"Tiger,f5d6c3d3c4,"), "{csv}");
    for row in &rows {
        // Every listed line of moves is legal from the start.
        let moves = row.rsplit(',').nth(1).unwrap();
        position_of_moves(moves);
    }

    let (table, _) = stdout_of(&["openings", "--name", "TIGER"]);
    let names: Vec<&str> = table.lines().skip(1).collect();
    assert!(!names.is_empty());
    assert!(
        names.iter().all(|l| l.to_lowercase().contains("tiger")),
        "{table}"
    );

    let (json, _) = stdout_of(&["openings", "--format", "json", "--name", "tiger"]);
    let first: serde_json::Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    assert_eq!(first["name"], "Tiger");
    assert_eq!(first["moves"], "f5d6c3d3c4");
}
