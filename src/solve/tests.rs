//! The solver against a plain minimax, Edax's scored FFO problems and
//! Flippy's endgame set. No answer is stored here: the oracles are a
//! search written below and the corpus files.

use super::*;
use crate::testkit::{corpus, Rng};
use crate::Position;

/// The value of a position by plain negamax over the public `Position`
/// API: no pruning, no table, no ordering — nothing the solver does.
fn minimax(pos: &Position) -> i32 {
    let legal = pos.legal_moves();
    if legal.is_empty() {
        if !pos.opponent_has_moves() {
            return final_score(pos);
        }
        let mut next = *pos;
        next.pass();
        return -minimax(&next);
    }
    let mut best = i32::MIN;
    for sq in legal {
        let mut next = *pos;
        next.play(sq).expect("a legal move");
        best = best.max(-minimax(&next));
    }
    best
}

/// The final score from the side to move's view, empties to the winner.
fn final_score(pos: &Position) -> i32 {
    let me = pos.board().discs(pos.side_to_move()).count() as i32;
    let them = pos.board().discs(pos.side_to_move().opponent()).count() as i32;
    let empty = 64 - me - them;
    match me.cmp(&them) {
        std::cmp::Ordering::Greater => me - them + empty,
        std::cmp::Ordering::Less => me - them - empty,
        std::cmp::Ordering::Equal => 0,
    }
}

/// A position reached by random legal moves from the start with
/// `empties` empty squares (or the end of the game, if sooner).
fn random_position(rng: &mut Rng, empties: u32) -> Position {
    let mut pos = Position::start();
    while pos.board().empty().count() > empties && !pos.is_game_over() {
        let legal: Vec<_> = pos.legal_moves().into_iter().collect();
        if legal.is_empty() {
            pos.pass();
        } else {
            pos.play(legal[rng.below(legal.len())])
                .expect("a legal move");
        }
    }
    pos
}

fn solver() -> Solver {
    Solver::new(SolverOptions::with_hash(1 << 20))
}

/// Plays `line` from `pos` and returns the final score of the side to move
/// at `pos`.
fn play_line(pos: &Position, line: &[Move]) -> i32 {
    let mut p = *pos;
    for m in line {
        match m {
            Move::Play(sq) => {
                p.play(*sq).expect("the line's moves are legal");
            }
            Move::Pass => {
                assert!(!p.has_moves(), "a pass in the line while a move exists");
                p.pass();
            }
        }
    }
    assert!(p.is_game_over(), "the line stops before the end");
    let score = final_score(&p);
    if p.side_to_move() == pos.side_to_move() {
        score
    } else {
        -score
    }
}

fn check_against_minimax(seed: u64, count: usize, empties: std::ops::RangeInclusive<u32>) {
    check_against_minimax_with(&solver(), seed, count, empties);
}

fn check_against_minimax_with(
    solver: &Solver,
    seed: u64,
    count: usize,
    empties: std::ops::RangeInclusive<u32>,
) {
    let mut rng = Rng::new(seed);
    for i in 0..count {
        let n =
            *empties.start() + (rng.below((empties.end() - empties.start() + 1) as usize)) as u32;
        let pos = random_position(&mut rng, n);
        let expected = minimax(&pos);
        let solution = solver.solve(&pos).unwrap();
        assert_eq!(solution.value, expected, "position {i}: {pos}");
        assert_eq!(play_line(&pos, &solution.line), expected, "line of {pos}");
        // Every move's value, and the best moves as the moves of best value.
        let all = solver.solve_moves(&pos).unwrap();
        assert_eq!(all.value, expected);
        let mut best = Vec::new();
        for mv in &all.moves {
            let mut next = pos;
            match mv.mv {
                Move::Play(sq) => {
                    next.play(sq).unwrap();
                }
                Move::Pass => next.pass(),
            }
            assert_eq!(mv.value, -minimax(&next), "move {} of {pos}", mv.mv);
            if mv.value == expected {
                best.push(mv.mv);
            }
        }
        best.sort_by_key(|m| m.slot());
        assert_eq!(solution.best_moves, best, "best moves of {pos}");
        assert!(all.moves.windows(2).all(|w| w[0].value >= w[1].value));
        // Windows: a bound on the right side, exact inside.
        let alpha = expected - 2 * (1 + rng.below(3) as i32);
        let beta = expected + 2 * rng.below(3) as i32;
        let (bound, _) = solver.bound(&pos, alpha, beta).unwrap();
        match bound {
            Bound::Exact(v) => assert!(v == expected && alpha < v && v < beta),
            Bound::AtLeast(v) => assert!(beta <= v && v <= expected),
            Bound::AtMost(v) => panic!("{v} from below {expected}"),
        }
    }
}

#[test]
fn agrees_with_minimax_up_to_8_empties() {
    check_against_minimax(1, 2000, 0..=8);
}

#[test]
fn agrees_with_minimax_at_9_to_11_empties() {
    check_against_minimax(2, 150, 9..=11);
}

#[test]
#[ignore = "slow: minimax at 12 empties"]
fn agrees_with_minimax_at_12_empties() {
    check_against_minimax(3, 40, 12..=12);
}

#[test]
fn finished_positions_and_passes() {
    let solver = solver();
    // A full board.
    let full: Position = format!("{}{} X", "X".repeat(40), "O".repeat(24))
        .parse()
        .unwrap();
    let s = solver.solve(&full).unwrap();
    assert_eq!((s.value, s.best_moves.len(), s.line.len()), (16, 0, 0));
    assert!(solver.solve_moves(&full).unwrap().moves.is_empty());
    // Black to move with no move but White has one: the pass is the move.
    let mut rng = Rng::new(5);
    let mut found = 0;
    for _ in 0..3000 {
        let n = 6 + rng.below(4) as u32;
        let pos = random_position(&mut rng, n);
        if pos.has_moves() || !pos.opponent_has_moves() {
            continue;
        }
        found += 1;
        let s = solver.solve(&pos).unwrap();
        assert_eq!(s.best_moves, vec![Move::Pass]);
        assert_eq!(s.line.first(), Some(&Move::Pass));
        let all = solver.solve_moves(&pos).unwrap();
        assert_eq!(
            all.moves,
            vec![MoveValue {
                mv: Move::Pass,
                value: s.value
            }]
        );
        assert_eq!(s.value, minimax(&pos));
    }
    assert!(found > 0, "no position with a pass came up");
}

/// Each position of an OBF file with its listed moves and scores.
/// A line number, its position and its listed moves with their scores.
type Listed = (usize, Position, Vec<(Move, i32)>);

fn obf_positions(name: &str) -> Option<Vec<Listed>> {
    let path = corpus()?.join("positions/obf").join(name);
    let text = std::fs::read_to_string(&path).expect("the OBF file reads");
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let (board, rest) = line.split_once(';').expect("an OBF line");
        let pos: Position = board.parse().expect("an OBF board");
        let moves = rest
            .split(';')
            .filter(|e| !e.trim().is_empty())
            .map(|e| {
                let (mv, score) = e.split_once(':').expect("move:score");
                let mv = mv.trim();
                let mv = if mv.eq_ignore_ascii_case("ps") || mv.eq_ignore_ascii_case("pa") {
                    Move::Pass
                } else {
                    Move::Play(mv.to_ascii_lowercase().parse().expect("a square"))
                };
                (mv, score.trim().parse::<i32>().expect("a score"))
            })
            .collect();
        out.push((i + 1, pos, moves));
    }
    Some(out)
}

/// Listed scores that the files' own author contradicts: Edax 4.6, which
/// wrote these files, solves the position after the move (`lEdax -solve`)
/// to the value kifu finds, not to the one listed. The test does not take
/// kifu's word for them either: the move's value must be minus a fresh
/// solve of the position after it by a second solver with no evaluation
/// and a small table, and it must differ from the listed score (were the
/// file corrected, the entry would leave this list).
const ERRATA: &[(&str, usize, &str)] = &[("fforum-20-39.obf", 12, "g1")];

fn check_obf(name: &str, first: usize, count: usize) {
    check_obf_with(
        &Solver::new(SolverOptions::with_hash(64 << 20)),
        name,
        first,
        count,
    );
}

fn check_obf_with(solver: &Solver, name: &str, first: usize, count: usize) {
    let Some(positions) = obf_positions(name) else {
        return;
    };
    let plain = Solver::new(SolverOptions {
        hash_bytes: 1 << 20,
        evaluation: false,
    });
    for (line, pos, listed) in positions.into_iter().skip(first).take(count) {
        let all = solver.solve_moves(&pos).unwrap();
        for (mv, score) in &listed {
            let found = all.moves.iter().find(|m| m.mv == *mv);
            let erratum = ERRATA
                .iter()
                .any(|&(file, l, m)| file == name && l == line && m == mv.to_string());
            if erratum {
                let Move::Play(sq) = *mv else {
                    panic!("{name} line {line}: an erratum names a square")
                };
                let mut next = pos;
                next.play(sq).unwrap();
                let child = plain.solve(&next).unwrap().value;
                let value = found.map(|m| m.value);
                assert_eq!(value, Some(-child), "{name} line {line}: move {mv}");
                assert_ne!(value, Some(*score), "{name} line {line}: {mv} corrected");
                continue;
            }
            assert_eq!(
                found.map(|m| m.value),
                Some(*score),
                "{name} line {line}: move {mv}"
            );
        }
        assert_eq!(
            all.moves.len(),
            listed.len(),
            "{name} line {line}: the legal moves"
        );
        let best = solver.solve(&pos).unwrap();
        assert_eq!(best.value, listed[0].1, "{name} line {line}");
        assert_eq!(play_line(&pos, &best.line), best.value);
    }
}

#[test]
fn ffo_1_to_19_every_listed_move() {
    check_obf("fforum-1-19.obf", 0, 19);
}

#[test]
#[ignore = "slow: 20 to 26 empties, every move"]
fn ffo_20_to_39_every_listed_move() {
    check_obf("fforum-20-39.obf", 0, 20);
}

/// Flippy's positions: a best move and the final disc difference from
/// Black's side, raw: a game ending with empty squares does not give them
/// to the winner (MANIFEST.md). Where the two conventions agree (the
/// listed difference is even and the exact value equals it) the listed
/// move must be one of the best; everywhere the value must be the listed
/// difference or the same sign and at most two away (the empties).
#[test]
fn flippy_13_and_14_empties() {
    let Some(dir) = corpus() else {
        return;
    };
    let text = std::fs::read_to_string(dir.join("positions/flippy/eg_13_14.txt")).unwrap();
    let solver = Solver::new(SolverOptions::with_hash(16 << 20));
    let mut same = 0;
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let side = if fields[1] == "Black" { "X" } else { "O" };
        let pos: Position = format!("{} {side}", fields[0]).parse().unwrap();
        let best: i32 = fields[2].parse().unwrap();
        let raw: i32 = fields[3].parse().unwrap();
        let s = solver.solve(&pos).unwrap();
        let value = if side == "X" { s.value } else { -s.value };
        if value == raw {
            same += 1;
            if best >= 0 {
                let listed = Move::Play(crate::Square::new(best as u8).unwrap());
                assert!(
                    s.best_moves.contains(&listed),
                    "line {}: {listed} is not best",
                    i + 1
                );
            } else {
                // -1: a pass, or (seen once, a wipe-out) no move better
                // than another.
                let legal = (pos.legal_moves().count() as usize).max(1);
                assert_eq!(
                    s.best_moves.len(),
                    legal,
                    "line {}: not all moves are best",
                    i + 1
                );
            }
        } else {
            assert!(
                value.signum() == raw.signum() && (value - raw).abs() <= 2,
                "line {}: value {value} for Black, listed {raw}",
                i + 1
            );
        }
    }
    // MANIFEST.md: 458 of the 492 agree once read this way.
    assert!(
        same * 100 >= lines.len() * 90,
        "only {same} of {} agree",
        lines.len()
    );
    eprintln!("flippy: {same} of {} agree exactly", lines.len());
}

/// The parallel search (deep nodes split over the threads) gives the
/// values, best moves and move values of the search on one thread.
#[test]
fn threads_agree_with_one_thread() {
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let four = rayon::ThreadPoolBuilder::new()
        .num_threads(4)
        .build()
        .unwrap();
    let mut rng = Rng::new(21);
    for _ in 0..12 {
        let n = 14 + rng.below(4) as u32;
        let pos = random_position(&mut rng, n);
        let serial = one.install(|| solver().solve(&pos).unwrap());
        let parallel = four.install(|| solver().solve(&pos).unwrap());
        assert_eq!(serial.value, parallel.value, "{pos}");
        assert_eq!(serial.best_moves, parallel.best_moves, "{pos}");
        assert_eq!(play_line(&pos, &parallel.line), parallel.value);
        let a = one.install(|| solver().solve_moves(&pos).unwrap());
        let b = four.install(|| solver().solve_moves(&pos).unwrap());
        assert_eq!(a.moves.len(), b.moves.len());
        for m in &a.moves {
            assert!(b.moves.contains(m), "{pos}: {m:?}");
        }
    }
}

/// The evaluation only orders moves: without it every value is the same.
#[test]
fn the_evaluation_changes_no_value() {
    let Some(positions) = obf_positions("fforum-1-19.obf") else {
        return;
    };
    let with = Solver::new(SolverOptions::with_hash(16 << 20));
    let without = Solver::new(SolverOptions {
        evaluation: false,
        ..SolverOptions::with_hash(16 << 20)
    });
    for (line, pos, _) in positions {
        let a = with.solve(&pos).unwrap();
        let b = without.solve(&pos).unwrap();
        assert_eq!(
            (a.value, &a.best_moves),
            (b.value, &b.best_moves),
            "line {line}"
        );
    }
}

/// The kernel for any processor (no POPCNT, BMI2 or AVX2), forced on a
/// processor that has them: the same values as the plain minimax.
#[test]
fn plain_kernel_agrees_with_minimax() {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2")
        && std::is_x86_feature_detected!("bmi2")
        && std::env::var_os("KIFU_SOLVER_KERNEL").is_none()
    {
        // Otherwise every other test runs the plain kernel already.
        assert!(solver().runs_modern_kernel());
    }
    let plain = solver().plain_kernel();
    assert!(!plain.runs_modern_kernel());
    check_against_minimax_with(&plain, 31, 600, 0..=8);
    check_against_minimax_with(&plain, 32, 40, 9..=11);
}

/// The plain kernel on FFO #1–#6 (14–15 empties: the deep search, its
/// ordering by the evaluation and the table), every listed move.
#[test]
fn plain_kernel_on_ffo_1_to_6() {
    let plain = Solver::new(SolverOptions::with_hash(16 << 20)).plain_kernel();
    check_obf_with(&plain, "fforum-1-19.obf", 0, 6);
}

/// A table larger than the machine's memory (a petabyte asked for): the
/// solver takes a smaller one and its values stay exact.
#[test]
fn a_solver_asked_for_too_large_a_table_still_solves() {
    let solver = Solver::new(SolverOptions::with_hash(1 << 50));
    assert!(solver.table_bytes() < 1 << 50);
    check_against_minimax_with(&solver, 41, 6, 6..=10);
}

/// `bound` takes any window, however far outside the values or empty
/// (it once clamped beta against the unclamped alpha: a panic from alpha
/// 65 up); the answer is always on the right side of the true value.
#[test]
fn bound_takes_any_window() {
    let solver = solver();
    let mut rng = Rng::new(41);
    for _ in 0..60 {
        let n = 4 + rng.below(6) as u32;
        let pos = random_position(&mut rng, n);
        let value = minimax(&pos);
        let windows = [
            (64, 70),
            (65, 66),
            (100, 100),
            (i32::MAX, i32::MAX),
            (i32::MAX - 1, i32::MIN),
            (-100, -70),
            (i32::MIN, i32::MIN),
            (i32::MIN, i32::MAX),
            (-65, 65),
            (value, value),
            (value - 1, value + 1),
            (10, -10),
        ];
        for (alpha, beta) in windows {
            let (bound, _) = solver.bound(&pos, alpha, beta).unwrap();
            let (low, high) = (alpha.clamp(-65, 64), beta.max(alpha.clamp(-65, 64) + 1));
            match bound {
                Bound::Exact(v) => assert!(v == value && low < v && v < high),
                Bound::AtMost(v) => assert!(value <= v && v <= low, "{pos} ({alpha}, {beta})"),
                Bound::AtLeast(v) => assert!(value >= v && v >= high.min(65)),
            }
            if (alpha, beta) == (i32::MIN, i32::MAX) {
                assert_eq!(bound, Bound::Exact(value));
            }
        }
    }
}

/// Many threads splitting the search, sharing a table of a few kilobytes
/// (every bucket fought over, entries evicted all the time): the values
/// FFO lists for #1–#8, and on random positions of 14–18 empties the
/// values of one thread with a big table and no evaluation.
#[test]
fn many_threads_on_a_small_table_keep_every_value() {
    let eight = rayon::ThreadPoolBuilder::new()
        .num_threads(8)
        .build()
        .unwrap();
    let small = || Solver::new(SolverOptions::with_hash(8 << 10));
    eight.install(|| check_obf_with(&small(), "fforum-1-19.obf", 0, 8));
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let reference = Solver::new(SolverOptions {
        hash_bytes: 16 << 20,
        evaluation: false,
    });
    let mut rng = Rng::new(51);
    let shared = small();
    for _ in 0..16 {
        let n = 14 + rng.below(5) as u32;
        let pos = random_position(&mut rng, n);
        let expected = one.install(|| reference.solve_moves(&pos).unwrap());
        let got = eight.install(|| shared.solve_moves(&pos).unwrap());
        assert_eq!(got.value, expected.value, "{pos}");
        let mut a = got.moves.clone();
        let mut b = expected.moves.clone();
        a.sort_by_key(|m| format!("{}", m.mv));
        b.sort_by_key(|m| format!("{}", m.mv));
        assert_eq!(a, b, "{pos}");
    }
}

/// Runs `job` on `solver` with its interrupt flag set from another thread
/// after `delay`: the result, and how long the search ran on after the
/// flag was set.
fn interrupted<T: Send>(
    solver: &mut Solver,
    delay: std::time::Duration,
    job: impl FnOnce(&Solver) -> T + Send,
) -> (T, std::time::Duration) {
    use std::sync::atomic::AtomicBool;
    use std::time::Instant;
    let flag = Arc::new(AtomicBool::new(false));
    solver.set_interrupt(flag.clone());
    let solver = &*solver;
    let set_at = std::sync::Mutex::new(None);
    let out = std::thread::scope(|scope| {
        scope.spawn(|| {
            std::thread::sleep(delay);
            *set_at.lock().unwrap() = Some(Instant::now());
            flag.store(true, std::sync::atomic::Ordering::Relaxed);
        });
        let out = job(solver);
        let done = Instant::now();
        (out, done)
    });
    // The flag is set by now (the scope joined the thread).
    let set = set_at.into_inner().unwrap().expect("the flag was set");
    let (out, done) = out;
    (out, done.saturating_duration_since(set))
}

/// A long solve stopped by its interrupt flag returns `Interrupted` from
/// every entry point, soon after the flag is set, on one thread and on
/// several.
#[test]
fn an_interrupted_solve_stops_promptly() {
    use std::time::Duration;
    let mut rng = Rng::new(61);
    // 30 empties: minutes, far more than the delay.
    let pos = loop {
        let pos = random_position(&mut rng, 30);
        if pos.legal_moves().count() >= 4 {
            break pos;
        }
    };
    let delay = Duration::from_millis(50);
    // A shared machine: generous, but far below the solve itself.
    let prompt = Duration::from_millis(1500);
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let mut s = solver();
            let (r, late) = interrupted(&mut s, delay, |s| s.solve(&pos).map(|_| ()));
            assert_eq!(r, Err(Interrupted), "solve");
            assert!(late < prompt, "solve ran {late:?} past the flag");
            let (r, late) = interrupted(&mut s, delay, |s| s.solve_moves(&pos).map(|_| ()));
            assert_eq!(r, Err(Interrupted), "solve_moves");
            assert!(late < prompt, "solve_moves ran {late:?} past the flag");
            let (r, late) = interrupted(&mut s, delay, |s| s.value(&pos, 0).map(|_| ()));
            assert_eq!(r, Err(Interrupted), "value");
            assert!(late < prompt, "value ran {late:?} past the flag");
            let (r, late) = interrupted(&mut s, delay, |s| s.bound(&pos, -1, 1).map(|_| ()));
            assert_eq!(r, Err(Interrupted), "bound");
            assert!(late < prompt, "bound ran {late:?} past the flag");
            let (r, late) = interrupted(&mut s, delay, |s| s.best_moves(&pos, 0).map(|_| ()));
            assert_eq!(r, Err(Interrupted), "best_moves");
            assert!(late < prompt, "best_moves ran {late:?} past the flag");
        });
    }
}

/// A search interrupted anywhere leaves nothing wrong behind: whatever
/// it returned (`Interrupted`, or the answer when it finished first) is
/// right, and the same solver, its table holding what the stopped search
/// stored, then finds the values of a fresh solver.
#[test]
fn an_interrupted_solve_leaves_the_table_right() {
    use std::sync::atomic::AtomicBool;
    use std::time::Duration;
    let fresh = Solver::new(SolverOptions {
        hash_bytes: 16 << 20,
        evaluation: false,
    });
    let mut rng = Rng::new(71);
    let mut stopped = 0;
    for i in 0..12 {
        let n = 16 + rng.below(4) as u32;
        let pos = random_position(&mut rng, n);
        let expected = fresh.solve_moves(&pos).unwrap();
        let mut s = solver();
        let delay = Duration::from_millis(1 + i % 4 * 3);
        let (r, _) = interrupted(&mut s, delay, |s| s.solve_moves(&pos));
        match r {
            Ok(got) => assert_eq!(got.value, expected.value, "{pos}"),
            Err(Interrupted) => stopped += 1,
        }
        s.set_interrupt(Arc::new(AtomicBool::new(false)));
        let again = s.solve_moves(&pos).unwrap();
        assert_eq!(again.value, expected.value, "{pos}");
        for m in &expected.moves {
            assert!(again.moves.contains(m), "{pos}: {m:?}");
        }
        let solution = s.solve(&pos).unwrap();
        assert_eq!(solution.value, expected.value, "{pos}");
        assert_eq!(play_line(&pos, &solution.line), expected.value, "{pos}");
    }
    assert!(stopped > 0, "no search was stopped before its end");
}

/// Every null-window search (the last four squares, `shallow`, `deep`),
/// asked at every `alpha` around the value, in both kernels: above the
/// value it fails low with an upper bound that the value does not
/// exceed, below it fails high with a lower bound the value reaches.
#[test]
fn null_window_searches_bound_the_value_on_the_right_side() {
    let mut rng = Rng::new(81);
    for plain in [false, true] {
        let solver = if plain {
            solver().plain_kernel()
        } else {
            solver()
        };
        for _ in 0..150 {
            let n = 1 + rng.below(11) as u32;
            let pos = random_position(&mut rng, n);
            if pos.is_game_over() {
                continue;
            }
            let value = minimax(&pos);
            let (p, o) = pos.relative();
            let empties = pos.board().empty().count();
            for alpha in value - 3..=value + 2 {
                let alpha = alpha.clamp(-65, 64);
                let search = |s: &mut nws::Search<'_>| {
                    #[cfg(target_arch = "x86_64")]
                    if let Some(k) = solver.modern {
                        return nws::nws(k, s, p, o, alpha, empties);
                    }
                    nws::nws(kernel::Plain, s, p, o, alpha, empties)
                };
                let (r, _) = solver.run((p, o), search).unwrap();
                if value > alpha {
                    assert!(alpha < r && r <= value, "{pos} at {alpha}: {r} for {value}");
                } else {
                    assert!(
                        value <= r && r <= alpha,
                        "{pos} at {alpha}: {r} for {value}"
                    );
                }
            }
        }
    }
}

/// The guess only changes the time: the aspiration finds the same value
/// from any guess, even one far off or outside the values.
#[test]
fn the_value_does_not_depend_on_the_guess() {
    let mut rng = Rng::new(91);
    for _ in 0..30 {
        let n = 6 + rng.below(9) as u32;
        let pos = random_position(&mut rng, n);
        let solver = solver();
        let (value, _) = solver.value(&pos, 0).unwrap();
        for guess in [-200, -64, -33, -2, 1, 10, 64, 300] {
            assert_eq!(solver.value(&pos, guess).unwrap().0, value, "{pos}");
            let fresh = Solver::new(SolverOptions::with_hash(1 << 16));
            assert_eq!(fresh.value(&pos, guess).unwrap().0, value, "{pos}");
        }
        let guessed = solver
            .solve_with(&pos, Some(value + 20), BestMoves::One)
            .unwrap();
        assert_eq!(guessed.value, value);
        assert_eq!(play_line(&pos, &guessed.line), value, "{pos}");
        if n <= 10 {
            assert_eq!(value, minimax(&pos), "{pos}");
        }
    }
}

#[test]
fn the_solvers_guess_is_a_value_and_any_guess_gives_the_same_value() {
    let s = solver();
    let mut rng = Rng::new(77);
    for _ in 0..20 {
        // Few enough empties for the plain minimax.
        let empties = 4 + rng.below(6) as u32;
        let pos = random_position(&mut rng, empties);
        let guess = s.guess(&pos);
        assert!((-64..=64).contains(&guess) && guess % 2 == 0, "{guess}");
        let exact = minimax(&pos);
        for g in [guess, 0, -64, 64, exact] {
            assert_eq!(s.value(&pos, g).unwrap().0, exact, "{pos} guess {g}");
        }
    }
}

/// From 20 empties the exact search runs after the selective pass: the
/// same value as a windowed search from scratch that never runs it
/// ([`Solver::bound`] over every value), and a best line that scores it.
#[test]
fn the_selective_pass_changes_no_value() {
    let mut rng = Rng::new(2020);
    for _ in 0..4 {
        let n = root::PRESEARCH_MIN + rng.below(2) as u32;
        let pos = random_position(&mut rng, n);
        let with_pass = Solver::new(SolverOptions::with_hash(8 << 20));
        let solution = with_pass.solve_with(&pos, None, BestMoves::One).unwrap();
        let plain = Solver::new(SolverOptions::with_hash(8 << 20));
        let (bound, _) = plain.bound(&pos, -65, 65).unwrap();
        assert_eq!(Bound::Exact(solution.value), bound, "{pos}");
        assert_eq!(play_line(&pos, &solution.line), solution.value, "{pos}");
    }
}

/// A selective pass alone: a value within the values, found in a few
/// windows however far off the guess, with its bounds stored at its own
/// level; the exact search after it on the same table still finds the
/// value (the plain minimax's, or a fresh solver's beyond 10 empties).
#[test]
fn a_selective_pass_gives_a_value_and_leaves_the_exact_search_alone() {
    let mut rng = Rng::new(3030);
    for i in 0..30 {
        let n = 9 + rng.below(6) as u32;
        let pos = random_position(&mut rng, n);
        let solver = solver();
        let (p, o) = pos.relative();
        let guess = [-64, -10, 0, 12, 64][i % 5];
        let (pass, nodes) = solver.selective_pass(&pos, guess).unwrap();
        assert!(nodes > 0);
        assert!((-64..=64).contains(&pass), "{pos}: {pass}");
        if let Some(e) = solver.table.probe(p, o) {
            assert!(e.level <= 1, "{pos}");
        }
        if n <= 10 {
            assert_eq!(solver.value(&pos, pass).unwrap().0, minimax(&pos), "{pos}");
        } else {
            let fresh = Solver::new(SolverOptions::with_hash(1 << 20));
            let value = solver.value(&pos, pass).unwrap().0;
            assert_eq!(
                Bound::Exact(value),
                fresh.bound(&pos, -65, 65).unwrap().0,
                "{pos}"
            );
        }
    }
}

/// A move's value from its position's floor: the value itself for any
/// floor at or below it (one null-window search when the floor is the
/// value), a bound of at most the floor for a floor above it; from 20
/// empties too, where the selective pass runs first (and the aspiration
/// from its value, when that is above the floor).
#[test]
fn the_value_from_a_floor_is_the_value() {
    let mut rng = Rng::new(4040);
    for i in 0..40 {
        let n = 4 + rng.below(7) as u32;
        let pos = random_position(&mut rng, n);
        let exact = minimax(&pos);
        let solver = solver();
        for floor in [exact, exact - 2, exact - 10, -64, -200] {
            let (v, _) = solver.value_at_least(&pos, floor).unwrap();
            assert_eq!(v, exact, "{pos} floor {floor}");
        }
        if exact < 64 {
            let floor = exact + 2 * (1 + i % 3);
            let fresh = Solver::new(SolverOptions::with_hash(1 << 16));
            let (v, _) = fresh.value_at_least(&pos, floor).unwrap();
            assert!(v <= floor, "{pos} floor {floor}: {v}");
        }
    }
    for _ in 0..2 {
        let pos = random_position(&mut rng, root::PRESEARCH_MIN);
        let plain = Solver::new(SolverOptions::with_hash(8 << 20));
        let Bound::Exact(exact) = plain.bound(&pos, -65, 65).unwrap().0 else {
            panic!("the full window gives the value");
        };
        for floor in [exact, exact - 4, exact - 20] {
            let solver = Solver::new(SolverOptions::with_hash(8 << 20));
            assert_eq!(
                solver.value_at_least(&pos, floor).unwrap().0,
                exact,
                "{pos}"
            );
        }
        if exact < 60 {
            let solver = Solver::new(SolverOptions::with_hash(8 << 20));
            let (v, _) = solver.value_at_least(&pos, exact + 4).unwrap();
            assert!(v <= exact + 4, "{pos}: {v}");
        }
    }
}
