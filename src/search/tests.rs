//! The midgame search against a plain depth-limited minimax on the same
//! evaluation, and against the exact solver where its depth covers the
//! empty squares. No answer is stored here: the oracles are the search
//! written below and the solver.

use super::*;
use crate::testkit::Rng;

/// The depth-`depth` value (the definition in [`super::tree`]'s doc) by
/// plain negamax over the public `Position` API: no pruning, no table,
/// no ordering.
fn minimax(w: Option<&Weights>, pos: &Position, depth: u32) -> i32 {
    if depth == 0 {
        let (p, o) = pos.relative();
        if pos.board().empty().count() == 0 || p == 0 || o == 0 {
            return final_score(pos) * SCALE;
        }
        return match w {
            Some(w) => w.evaluate(p, o),
            None => (p.count_ones() as i32 - o.count_ones() as i32) * SCALE,
        };
    }
    if pos.is_game_over() {
        return final_score(pos) * SCALE;
    }
    let legal = pos.legal_moves();
    if legal.is_empty() {
        let mut next = *pos;
        next.pass();
        return -minimax(w, &next, depth);
    }
    let mut best = i32::MIN;
    for sq in legal {
        let mut next = *pos;
        next.play(sq).expect("a legal move");
        best = best.max(-minimax(w, &next, depth - 1));
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

/// A searcher without selectivity: its estimates are the minimax's.
fn searcher() -> Searcher {
    Searcher::new(SearchOptions {
        selectivity: Selectivity::Off,
        ..SearchOptions::with_hash(1 << 20)
    })
}

/// The score of `mv` at `pos` by the minimax: its position searched
/// `depth - 1` deep (a pass costs no depth).
fn move_scores(w: Option<&Weights>, pos: &Position, mv: Move, depth: u32) -> i32 {
    let mut next = *pos;
    match mv {
        Move::Play(sq) => {
            next.play(sq).expect("a legal move");
        }
        Move::Pass => next.pass(),
    }
    let d = if mv == Move::Pass { depth } else { depth - 1 };
    -minimax(w, &next, d)
}

#[test]
fn estimates_equal_a_plain_minimax_at_depths_1_to_4() {
    let s = searcher();
    let w = Weights::builtin();
    let mut rng = Rng::new(31);
    for round in 0..160 {
        let empties = 8 + rng.below(48) as u32;
        let pos = random_position(&mut rng, empties);
        let depth = 1 + round % 4;
        let e = s.estimate(&pos, depth).unwrap();
        let want = minimax(w, &pos, depth);
        assert_eq!(e.score, want, "{pos} at depth {depth}");
        assert_eq!(e.value, discs(want));
        let n = pos.board().empty().count();
        assert_eq!(e.exact, depth >= n || pos.is_game_over(), "{pos}");
        if pos.is_game_over() {
            assert!(e.best_moves.is_empty());
            continue;
        }
        // The best move reaches the score (exact searches: the solver's
        // best moves, checked against the solver below).
        if !e.exact {
            assert_eq!(e.best_moves.len(), 1);
            assert_eq!(move_scores(w, &pos, e.best_moves[0], depth), want, "{pos}");
            assert_eq!(e.line.first(), e.best_moves.first());
        }
    }
}

/// The tree compiled for the target's baseline (`KIFU_SOLVER_KERNEL=plain`)
/// gives the same estimates as the plain minimax, at every selectivity the
/// same values and nodes as the tree in this processor's instructions (one
/// thread, so that the nodes are the same too).
#[test]
fn the_baseline_instruction_set_searches_alike() {
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    one.install(baseline_alike);
}

fn baseline_alike() {
    let w = Weights::builtin();
    let mut rng = Rng::new(43);
    for selectivity in [Selectivity::Off, Selectivity::Careful, Selectivity::Bold] {
        let options = SearchOptions {
            selectivity,
            ..SearchOptions::with_hash(1 << 20)
        };
        let (fast, plain) = (
            Searcher::new(options.clone()),
            Searcher::new(options).plain_kernel(),
        );
        assert!(!plain.modern);
        for round in 0..24 {
            let empties = 20 + rng.below(30) as u32;
            let pos = random_position(&mut rng, empties);
            let depth = 1 + round % 6;
            let (a, b) = (
                fast.estimate(&pos, depth).unwrap(),
                plain.estimate(&pos, depth).unwrap(),
            );
            assert_eq!(
                (a.score, a.nodes, &a.best_moves),
                (b.score, b.nodes, &b.best_moves),
                "{pos}"
            );
            if selectivity == Selectivity::Off && depth <= 4 {
                assert_eq!(b.score, minimax(w, &pos, depth), "{pos} at depth {depth}");
            }
            fast.clear();
            plain.clear();
        }
    }
}

#[test]
fn every_move_estimate_equals_a_plain_minimax() {
    let s = searcher();
    let w = Weights::builtin();
    let mut rng = Rng::new(7);
    for round in 0..60 {
        let empties = 10 + rng.below(44) as u32;
        let pos = random_position(&mut rng, empties);
        let depth = 1 + round % 4;
        let all = s.estimate_moves(&pos, depth).unwrap();
        assert_eq!(all.score, minimax(w, &pos, depth), "{pos}");
        let legal = pos.legal_moves().count();
        if pos.is_game_over() {
            assert!(all.moves.is_empty());
            continue;
        }
        assert_eq!(all.moves.len(), legal.max(1) as usize);
        for m in &all.moves {
            assert_eq!(m.score, move_scores(w, &pos, m.mv, depth), "{pos} {}", m.mv);
            assert_eq!(m.value, discs(m.score));
        }
        assert!(all.moves.windows(2).all(|p| p[0].score >= p[1].score));
        assert_eq!(all.moves[0].score, all.score);
    }
}

#[test]
fn a_depth_covering_the_empties_is_the_exact_solve() {
    let s = searcher();
    let solver = Solver::new(SolverOptions::with_hash(1 << 20));
    let mut rng = Rng::new(12);
    for round in 0..40 {
        let empties = 1 + rng.below(12) as u32;
        let pos = random_position(&mut rng, empties);
        let n = pos.board().empty().count();
        let depth = n + round % 3;
        let e = s.estimate(&pos, depth).unwrap();
        let solved = solver.solve(&pos).unwrap();
        assert!(e.exact);
        assert_eq!(e.exact_value(), Some(solved.value), "{pos}");
        assert_eq!(e.score, solved.value * SCALE);
        assert_eq!(e.best_moves, solved.best_moves);
        let all = s.estimate_moves(&pos, depth).unwrap();
        let exact = solver.solve_moves(&pos).unwrap();
        assert!(all.exact);
        let got: Vec<(Move, i32)> = all.moves.iter().map(|m| (m.mv, m.value)).collect();
        let want: Vec<(Move, i32)> = exact.moves.iter().map(|m| (m.mv, m.value)).collect();
        assert_eq!(got, want, "{pos}");
    }
}

#[test]
fn estimates_do_not_depend_on_what_the_table_held() {
    // The same positions searched again, in another order and after
    // other searches, give the same scores and moves.
    let s = searcher();
    let mut rng = Rng::new(99);
    let positions: Vec<Position> = (0..12)
        .map(|_| {
            let empties = 30 + rng.below(20) as u32;
            random_position(&mut rng, empties)
        })
        .collect();
    let first: Vec<Estimate> = positions
        .iter()
        .map(|p| s.estimate(p, 6).unwrap())
        .collect();
    let fresh = searcher();
    for (pos, e) in positions.iter().zip(&first).rev() {
        let again = fresh.estimate(pos, 6).unwrap();
        assert_eq!(again.score, e.score, "{pos}");
    }
}

#[test]
fn a_side_that_must_pass_is_searched_through_the_pass() {
    let s = searcher();
    let w = Weights::builtin();
    let mut rng = Rng::new(3);
    let mut found = 0;
    for _ in 0..20_000 {
        let empties = 6 + rng.below(30) as u32;
        let pos = random_position(&mut rng, empties);
        if pos.has_moves() || pos.is_game_over() {
            continue;
        }
        let depth = 1 + found % 3;
        let e = s.estimate(&pos, depth).unwrap();
        assert_eq!(e.score, minimax(w, &pos, depth), "{pos}");
        assert_eq!(e.best_moves, vec![Move::Pass]);
        assert_eq!(e.line.first(), Some(&Move::Pass));
        let all = s.estimate_moves(&pos, depth).unwrap();
        assert_eq!(all.moves.len(), 1);
        assert_eq!((all.moves[0].mv, all.moves[0].score), (Move::Pass, e.score));
        found += 1;
        if found == 6 {
            return;
        }
    }
    panic!("only {found} positions with a pass in the random games");
}

#[test]
fn a_finished_game_is_its_final_score() {
    // A wipe-out: White has no disc left, its empties go to Black.
    let pos: Position = format!("{}---- O", "X".repeat(60)).parse().unwrap();
    assert!(pos.is_game_over());
    let s = searcher();
    for depth in [0, 1, 5] {
        let e = s.estimate(&pos, depth).unwrap();
        assert!(e.exact);
        assert_eq!(e.exact_value(), Some(-64));
        assert!(e.best_moves.is_empty());
        let all = s.estimate_moves(&pos, depth).unwrap();
        assert!(all.moves.is_empty());
        assert_eq!(all.value, -64);
    }
}

#[test]
fn a_deadline_returns_the_deepest_finished_depth() {
    let s = searcher();
    let mut rng = Rng::new(5);
    let pos = random_position(&mut rng, 40);
    let mut depths = Vec::new();
    let limits = Limits {
        depth: 60,
        exact_from: 0,
        deadline: Some(Instant::now() + Duration::from_millis(200)),
        soft_deadline: None,
    };
    let started = Instant::now();
    let e = s.think(&pos, &limits, |e| depths.push(e.depth)).unwrap();
    assert!(started.elapsed() < Duration::from_secs(2));
    assert!(!e.exact);
    assert_eq!(depths.last(), Some(&e.depth));
    assert!(depths.windows(2).all(|d| d[1] == d[0] + 1));
    assert_eq!(e.score, s.estimate(&pos, e.depth).unwrap().score);
}

#[test]
fn no_depth_starts_after_the_soft_deadline() {
    let s = searcher();
    let mut rng = Rng::new(6);
    let pos = random_position(&mut rng, 40);
    let now = Instant::now();
    // Passed at once: depth 1 (which always finishes) is the answer.
    let passed = Limits {
        depth: 60,
        exact_from: 0,
        deadline: Some(now + Duration::from_secs(60)),
        soft_deadline: Some(now),
    };
    let mut depths = Vec::new();
    let e = s.think(&pos, &passed, |e| depths.push(e.depth)).unwrap();
    assert_eq!((e.depth, depths), (1, vec![1]));
    // A soft deadline later than the depth needs changes nothing.
    let later = Limits {
        soft_deadline: Some(Instant::now() + Duration::from_secs(60)),
        depth: 6,
        ..passed
    };
    let e = s.think(&pos, &later, |_| {}).unwrap();
    assert_eq!(e.depth, 6);
    assert_eq!(e.score, s.estimate(&pos, 6).unwrap().score);
}

#[test]
fn an_interrupt_stops_the_search() {
    let mut s = searcher();
    let flag = Arc::new(AtomicBool::new(true));
    s.set_interrupt(Arc::clone(&flag));
    let pos = Position::start();
    assert_eq!(s.estimate(&pos, 30), Err(Interrupted));
    flag.store(false, Ordering::Relaxed);
    assert!(s.estimate(&pos, 3).is_ok());
}

#[test]
fn discs_round_half_away_from_zero() {
    assert_eq!(discs(0), 0);
    assert_eq!(discs(31), 0);
    assert_eq!(discs(32), 1);
    assert_eq!(discs(-32), -1);
    assert_eq!(discs(-31), 0);
    assert_eq!(discs(64 * 70), 64);
}

#[test]
fn selective_estimates_depend_on_the_position_and_depth_alone() {
    // ProbCut's cut-offs are a function of the position and depth too:
    // a searcher that searched other positions first answers as a fresh
    // one, with a legal best move and a line that starts with it.
    assert_eq!(
        SearchOptions::with_hash(1 << 20).selectivity,
        Selectivity::Careful
    );
    for selectivity in [Selectivity::Careful, Selectivity::Bold] {
        let options = SearchOptions {
            selectivity,
            ..SearchOptions::with_hash(1 << 20)
        };
        let used = Searcher::new(options.clone());
        let mut rng = Rng::new(41);
        let positions: Vec<Position> = (0..8)
            .map(|_| {
                let empties = 24 + rng.below(24) as u32;
                random_position(&mut rng, empties)
            })
            .collect();
        let first: Vec<Estimate> = positions
            .iter()
            .map(|p| used.estimate(p, 7).unwrap())
            .collect();
        for (pos, e) in positions.iter().zip(&first).rev() {
            let fresh = Searcher::new(options.clone()).estimate(pos, 7).unwrap();
            assert_eq!(
                (fresh.score, &fresh.best_moves),
                (e.score, &e.best_moves),
                "{selectivity:?} {pos}"
            );
            if let [Move::Play(sq)] = e.best_moves[..] {
                assert!(pos.legal_moves().contains(sq));
                assert_eq!(e.line.first(), Some(&Move::Play(sq)));
            }
        }
    }
}

#[test]
fn bolder_selectivity_searches_fewer_nodes() {
    // The same depth, the same positions: each setting cuts more than
    // the one before (summed over positions; one may go either way).
    let mut rng = Rng::new(43);
    let positions: Vec<Position> = (0..6).map(|_| random_position(&mut rng, 40)).collect();
    let nodes = |selectivity| -> u64 {
        let s = Searcher::new(SearchOptions {
            selectivity,
            ..SearchOptions::with_hash(1 << 20)
        });
        positions
            .iter()
            .map(|p| {
                s.clear();
                s.estimate(p, 8).unwrap().nodes
            })
            .sum()
    };
    let (off, careful, bold) = (
        nodes(Selectivity::Off),
        nodes(Selectivity::Careful),
        nodes(Selectivity::Bold),
    );
    assert!(off > careful && careful > bold, "{off} {careful} {bold}");
}
