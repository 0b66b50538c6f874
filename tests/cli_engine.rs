//! `kifu engine` through the binary: a scripted NBoard session, bad lines
//! included, a forced pass, an exact endgame hint and a timed move.

use crate::support::kifu;

/// The standard start as NBoard's GGF sets it, with `moves` (`B[F5]W[D6]…`).
fn game(moves: &str, clock: &str) -> String {
    format!(
        "set game (;GM[Othello]PC[NBoard]DT[2014-01-01 00:00:00 GMT]PB[me]PW[kifu]RE[?]{clock}TY[8]\
         BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]{moves};)"
    )
}

/// Runs a session, its lines joined, and returns the engine's lines.
fn session(lines: &[String]) -> Vec<String> {
    session_with(&[], lines)
}

/// [`session`] with more flags for `kifu engine`.
fn session_with(flags: &[&str], lines: &[String]) -> Vec<String> {
    let mut input = lines.join("\n");
    input.push('\n');
    let out = kifu()
        .args(["engine", "--hash", "8"])
        .args(flags)
        .write_stdin(input)
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out)
        .unwrap()
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The legal moves after `moves` from the start, in lowercase.
fn legal_after(moves: &str) -> Vec<String> {
    let position = if moves.is_empty() {
        kifu::Position::start()
    } else {
        *kifu::PositionQuery::parse(moves)
            .expect("legal moves")
            .target()
    };
    position
        .legal_moves()
        .into_iter()
        .map(|s| s.to_string())
        .collect()
}

/// `=== F5/1.50/0.02` → the move, in lowercase.
fn played(line: &str) -> String {
    let rest = line.strip_prefix("=== ").expect("a move line");
    let mv = rest.split('/').next().unwrap();
    mv.to_lowercase()
}

#[test]
fn a_scripted_session_is_answered_line_by_line() {
    let lines: Vec<String> = [
        "nboard 2",
        "set depth 4",
        &game("B[F5//0.5]W[D6]", ""),
        "ping 1",
        "go",
        "this is not a command",
        "move z9",
        "move C3/0.50/1.2",
        "hint 3",
        "set depth many",
        "ping 2",
        "learn",
        "move h8",
        "quit",
        "ping 3",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    let out = session(&lines);
    let mut it = out.iter();
    assert_eq!(it.next().unwrap(), "set myname kifu");
    assert_eq!(it.next().unwrap(), "pong 1");
    // Black to move after f5 d6: its legal moves.
    let go = it.next().unwrap();
    assert!(legal_after("f5d6").contains(&played(go)), "{go}");
    let eval: f64 = go.split('/').nth(1).unwrap().parse().unwrap();
    assert!(eval.abs() <= 64.0);
    assert!(it
        .next()
        .unwrap()
        .starts_with("error unknown command \"this\""));
    assert!(it.next().unwrap().starts_with("error move: \"z9\""));
    assert_eq!(it.next().unwrap(), "status kifu is thinking");
    // White to move after f5 d6 c3: its three best replies, best first.
    let mut evals = Vec::new();
    for _ in 0..3 {
        let hint = it.next().unwrap();
        let words: Vec<&str> = hint.split(' ').collect();
        assert_eq!(words.len(), 5, "{hint}");
        assert_eq!((words[0], words[3], words[4]), ("search", "0", "3"));
        assert_eq!(words[1].len(), 2);
        evals.push(words[2].parse::<f64>().unwrap());
    }
    assert!(evals.windows(2).all(|w| w[0] >= w[1]));
    assert_eq!(it.next().unwrap(), "status");
    assert!(it
        .next()
        .unwrap()
        .starts_with("error set depth needs 1 to 60"));
    assert_eq!(it.next().unwrap(), "pong 2");
    assert_eq!(it.next().unwrap(), "learned");
    assert!(it.next().unwrap().starts_with("error move h8:"));
    // Nothing after quit.
    assert_eq!(it.next(), None);
}

#[test]
fn a_forced_pass_a_finished_game_and_an_exact_hint() {
    // The first 48 moves of the first game of WTH_1977, then to the end.
    let moves = "f5d6c3f3f4d3c4g6f6e6c5c6d7d8e7g5e3d2g4h3f7b5h5g3b4b6c8b8c7e8f8g8h4h6e2d1c1a3a6a5e1f2g7c2a4h8a2b7";
    let record: String = moves
        .as_bytes()
        .chunks(2)
        .enumerate()
        .map(|(i, m)| {
            let tag = if i % 2 == 0 { "B" } else { "W" };
            format!("{tag}[{}]", std::str::from_utf8(m).unwrap())
        })
        .collect();
    let lines = vec![
        "nboard 2".to_owned(),
        "set depth 6".to_owned(),
        game(&record, ""),
        "hint 1".to_owned(),
        "go".to_owned(),
        // A wipe-out board: the game is over.
        "set game (;GM[Othello]TY[8]BO[8 ******** ******** ******** ******** ******** ******** ******** -------- O];)".to_owned(),
        "go".to_owned(),
        // Black to move has none; White has (b1 flips c1).
        "set game (;GM[Othello]TY[8]BO[8 --*OOOOO OOOOOOOO OOOOOOOO OOOOOOOO OOOOOOOO OOOOOOOO OOOOOOOO OOOOOOOO *];)".to_owned(),
        "go".to_owned(),
        "set game (;GM[Othello]BO[8 garbage];)".to_owned(),
        "ping 9".to_owned(),
    ];
    let out = session(&lines);
    let mut it = out.iter();
    assert_eq!(it.next().unwrap(), "set myname kifu");
    assert_eq!(it.next().unwrap(), "status kifu is thinking");
    // 12 empties at depth 6: an estimate.
    let hint = it.next().unwrap();
    assert!(hint.starts_with("search "), "{hint}");
    assert_eq!(it.next().unwrap(), "status");
    let go = it.next().unwrap();
    assert!(go.starts_with("=== "), "{go}");
    assert_eq!(it.next().unwrap(), "error go: the game is over");
    assert_eq!(it.next().unwrap(), "=== PA");
    assert!(it.next().unwrap().starts_with("error set game:"));
    assert_eq!(it.next().unwrap(), "pong 9");
    assert_eq!(it.next(), None);
}

#[test]
fn the_end_is_solved_and_a_clock_bounds_the_time() {
    // 12 empties at depth 8: solved exactly (from 20 empties at depth 8).
    let moves = "f5d6c3f3f4d3c4g6f6e6c5c6d7d8e7g5e3d2g4h3f7b5h5g3b4b6c8b8c7e8f8g8h4h6e2d1c1a3a6a5e1f2g7c2a4h8a2b7";
    let record: String = moves
        .as_bytes()
        .chunks(2)
        .enumerate()
        .map(|(i, m)| {
            let tag = if i % 2 == 0 { "B" } else { "W" };
            format!("{tag}[{}]", std::str::from_utf8(m).unwrap())
        })
        .collect();
    let out = session(&[
        "set depth 8".to_owned(),
        game(&record, ""),
        "hint 1".to_owned(),
        // A minute each: the first moves take a share of it.
        game("", "TI[1:00]"),
        "go".to_owned(),
    ]);
    let hint = &out[2];
    assert!(hint.ends_with(" 100%"), "{hint}");
    // Told to solve only from 10 empties, the same hint is an estimate
    // of the set depth.
    let later = session_with(
        &["--exact-from", "10"],
        &[
            "set depth 8".to_owned(),
            game(&record, ""),
            "hint 1".to_owned(),
        ],
    );
    assert!(later[2].ends_with(" 8"), "{}", later[2]);
    let go = &out[4];
    assert!(legal_after("").contains(&played(go)), "{go}");
    let seconds: f64 = go.rsplit('/').next().unwrap().parse().unwrap();
    assert!(seconds < 10.0, "{go}");
}

/// Runs `scripts/nboard-match.py` with `args`, kifu against itself at
/// depth 1, and returns the opening of each game line it printed.
fn match_openings(args: &[&str]) -> Vec<String> {
    let engine = format!(
        "{} engine --hash 8",
        assert_cmd::cargo::cargo_bin("kifu").display()
    );
    let out = std::process::Command::new("python3")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["scripts/nboard-match.py", "--depth", "1", "--fresh"])
        .args(["--engine1", &engine, "--engine2", &engine])
        .args(args)
        .output()
        .expect("python3 runs the match script");
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
        .lines()
        .filter(|l| l.starts_with("game "))
        .map(|l| l.split_whitespace().nth(2).unwrap().to_owned())
        .collect()
}

#[test]
fn the_match_script_cuts_openings_from_whole_games() {
    // Two games that share their first 4 plies, one other, one too short:
    // cut to 4 plies they give two openings, each played with both colours.
    let dir = crate::support::scratch("match-openings");
    let games = dir.join("games.txt");
    std::fs::write(
        &games,
        "f5d6c3d3c4f4f6f3e6e7\nf5d6c3d3c4f4c5b3c2e6\nf5f6e6f4e3c5c4e7\nf5d6c3\n",
    )
    .unwrap();
    let games = games.to_str().unwrap();
    let played = match_openings(&["--openings", games, "--plies", "4"]);
    assert_eq!(played, ["f5d6c3d3", "f5d6c3d3", "f5f6e6f4", "f5f6e6f4"]);
    // A sample by a seed is the same twice, and one of the two.
    let sample = [
        "--openings",
        games,
        "--plies",
        "4",
        "--sample",
        "1",
        "--seed",
        "9",
    ];
    let one = match_openings(&sample);
    assert_eq!(one.len(), 2);
    assert!(one[0] == "f5d6c3d3" || one[0] == "f5f6e6f4", "{one:?}");
    assert_eq!(one, match_openings(&sample));
    std::fs::remove_dir_all(dir).unwrap();
}
