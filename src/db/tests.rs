//! The database against the streaming replay `kifu explore` runs: the same
//! answers for random positions, filters and games (with left-out and
//! written passes, other starts, errors and unreadable tokens), and every
//! record given back as it was read.

use super::*;
use crate::formats::jsonl::GameJson;
use crate::record::select::{FilterBuilder, Selection};
use crate::testkit::{decorate, random_game, Play, Rng};
use crate::{Color, RecordedMove, Replay, Symmetry};

/// Random games, some decorated, some broken, a few from other starts.
fn games(rng: &mut Rng, n: usize) -> Vec<GameRecord> {
    let play = Play {
        stop: 2,
        written_passes: 50,
        odd_start: 5,
    };
    let names = ["Tastet Marc", "Hobo Roel", "Müller Jörg", "Shaman Brian"];
    (0..n)
        .map(|i| {
            let mut record = random_game(rng, play);
            record.origin.index = i as u64 + 1;
            if rng.chance(20) {
                decorate(rng, &mut record);
            } else {
                record.tags.black = Some(rng.pick(&names).to_owned());
                record.tags.white = Some(rng.pick(&names).to_owned());
                record.tags.event = Some(format!("Open {}", rng.below(3)));
                record.tags.date = Some(format!("{}", 1990 + rng.below(30)));
                if let Some(score) = record.replay().final_score() {
                    record.result = Some(RecordedResult::new(ResultValue::Discs {
                        black: score.black_discs,
                        white: score.white_discs,
                    }));
                }
            }
            if !record.moves.is_empty() && rng.chance(8) {
                // A bad move, or a token that is no move.
                let at = rng.below(record.moves.len());
                if rng.chance(50) {
                    let square = Square::new(rng.below(64) as u8).expect("a square");
                    record.moves[at] = RecordedMove::new(Move::Play(square));
                } else {
                    record.moves[at] = RecordedMove {
                        token: Token::Unreadable,
                        color: None,
                    };
                    record.unreadable.push((at, "z9".into()));
                }
            }
            if rng.chance(3) {
                // Colours as some records write them (and sometimes wrong).
                let colors = record.move_colors();
                for (m, c) in record.moves.iter_mut().zip(colors) {
                    m.color = Some(if rng.chance(2) { c.opponent() } else { c });
                }
            }
            record
        })
        .collect()
}

fn database(records: &[GameRecord]) -> Database {
    let mut db = unsorted(records);
    // Every board 3 games stand on counted: the lookups below answer
    // from the counts wherever they can.
    db.popular_rule = popular::Rule { every: 1, min: 3 };
    db.finish();
    db
}

/// The games as pushed, each replayed alone by a lookup.
fn unsorted(records: &[GameRecord]) -> Database {
    let selection = Selection::new(Filter::default(), true);
    let mut db = Database::new();
    let source = db.add_source("random.txt");
    for record in records {
        let (report, found) = selection.replay(record);
        db.push(source, Prepared::new(record, &report, found.opening));
    }
    db
}

/// What `kifu explore` finds: each record replayed with the query watched.
fn streamed(
    records: &[GameRecord],
    query: &PositionQuery,
    filter: &Filter,
) -> (Explored, Vec<u64>) {
    let mut selection = Selection::new(filter.clone(), false);
    selection.explore = Some(query.clone());
    let mut answer = Explored::new(*query.target());
    let mut listed = Vec::new();
    for record in records {
        let (report, found) = selection.replay(record);
        if !selection.filter.accepts(record, &report, &found) {
            continue;
        }
        if let Some(hit) = found.explored {
            let score = report.final_score().map(|s| s.black_score);
            answer.add(hit.next, select::winner(record, &report), score);
            listed.push(record.origin.index);
        }
    }
    (answer, listed)
}

/// `record` under a symmetry: its start and its moves turned.
fn turned(record: &GameRecord, symmetry: Symmetry) -> GameRecord {
    let mut copy = record.clone();
    copy.start = record.start.transform(symmetry);
    for m in &mut copy.moves {
        if let Token::Move(Move::Play(square)) = m.token {
            m.token = Token::Move(Move::Play(square.transform(symmetry)));
        }
    }
    copy
}

/// `record` with two moves of one side swapped (moves `at` and `at + 2`)
/// where both orders are legal and lead to the same position: a
/// transposition, the rest of the game unchanged.
fn transposed(record: &GameRecord, at: usize) -> Option<GameRecord> {
    let after = |moves: &[RecordedMove]| {
        let mut replay = Replay::new(record.start);
        for m in moves {
            let Token::Move(mv @ Move::Play(_)) = m.token else {
                return None;
            };
            let ply = replay.play(mv, None).ok()?;
            if ply.implicit_pass {
                return None;
            }
        }
        Some(*replay.position())
    };
    let moves = record.moves.get(..at + 3)?;
    let mut swapped = moves.to_vec();
    swapped.swap(at, at + 2);
    let (a, b) = (after(moves)?, after(&swapped)?);
    (a == b && moves != swapped.as_slice()).then(|| {
        let mut copy = record.clone();
        copy.moves[..at + 3].clone_from_slice(&swapped);
        copy
    })
}

/// Positions the games went through: where they stood before some move.
fn targets(rng: &mut Rng, records: &[GameRecord], n: usize) -> Vec<Position> {
    let mut out = vec![Position::start()];
    while out.len() < n {
        let record = &records[rng.below(records.len())];
        let mut replay = Replay::new(record.start);
        let stop = rng.below(record.moves.len() + 1);
        for m in &record.moves[..stop] {
            let Token::Move(mv) = m.token else { break };
            if replay.play(mv, None).is_err() {
                break;
            }
        }
        let mut position = *replay.position();
        if rng.chance(10) {
            position.pass();
        }
        if rng.chance(4) {
            // An image of it: games stand on it under another symmetry.
            position = position.transform(rng.pick(&Symmetry::ALL));
        }
        out.push(position);
    }
    out
}

#[test]
fn lookups_give_what_the_streaming_replay_gives() {
    let mut rng = Rng::new(2028);
    let mut records = games(&mut rng, 3000);
    // Games that begin alike, as openings do: prefixes of others, and
    // others' first moves with a random ending.
    for i in 0..600 {
        let mut copy = records[i * 3].clone();
        let keep = rng.below(copy.moves.len() + 1);
        copy.moves.truncate(keep);
        copy.origin.index = records.len() as u64 + 1;
        records.push(copy);
    }
    // Games that reach the same positions as others under another
    // symmetry, or by another move order.
    let mut swapped = 0;
    for i in 0..600 {
        let mut copy = if i % 2 == 0 {
            turned(&records[i * 5], rng.pick(&Symmetry::ALL))
        } else {
            let record = &records[i * 5];
            let at = rng.below(record.moves.len().clamp(3, 30) - 2);
            match transposed(record, at) {
                Some(copy) => {
                    swapped += 1;
                    copy
                }
                None => continue,
            }
        };
        copy.origin.index = records.len() as u64 + 1;
        records.push(copy);
    }
    assert!(swapped >= 20, "{swapped} transposed games");
    let db = database(&records);
    let alone = unsorted(&records);
    assert_eq!(db.len(), records.len());
    assert!(db.popular_positions() > 100, "{}", db.popular_positions());
    let mut counted = 0;
    let filters: Vec<Filter> = vec![
        Filter::default(),
        Filter::builder().player("tastet").build(),
        Filter::builder()
            .years("1995..2010")
            .and_then(|b| b.winner("white"))
            .map(FilterBuilder::build)
            .unwrap(),
        Filter::builder()
            .statuses("incomplete,invalid")
            .unwrap()
            .build(),
        Filter::builder().opening("tiger").build(),
        Filter::builder()
            .position("f5d6")
            .map(|b| b.event("open 1"))
            .unwrap()
            .build(),
    ];
    let mut reached = 0;
    let mut depths = std::collections::BTreeSet::new();
    let mut positions = targets(&mut rng, &records, 300);
    // Where games ended: full boards among them.
    for record in &records[..40] {
        let mut replay = Replay::new(record.start);
        for m in &record.moves {
            let Token::Move(mv) = m.token else { break };
            if replay.play(mv, None).is_err() {
                break;
            }
        }
        positions.push(*replay.position());
    }
    for (i, target) in positions.into_iter().enumerate() {
        let query = PositionQuery::new(target);
        let filter = &filters[i % filters.len()];
        let (expected, listed) = streamed(&records, &query, filter);
        // Found by the index, which gives every game that reaches the
        // position (and others, replayed and dropped).
        let candidates = db.candidates(&query).expect("an indexed position");
        assert!(candidates.len() >= listed.len());
        assert!(alone.candidates(&query).is_none());
        depths.insert(query.discs());
        counted += usize::from(db.popular_explore(&query, filter).is_some());
        let answer = db.explore(&query, filter);
        assert_eq!(
            serde_json::to_string(&answer).unwrap(),
            serde_json::to_string(&expected).unwrap(),
            "{target} {filter:?}"
        );
        assert_eq!(
            serde_json::to_string(&alone.explore(&query, filter)).unwrap(),
            serde_json::to_string(&expected).unwrap(),
            "{target} {filter:?}, unsorted"
        );
        let page = db.games(&query, filter, 0, usize::MAX);
        assert_eq!(page.total, listed.len() as u64);
        let indices: Vec<u64> = page.games.iter().map(|g| g.index).collect();
        assert_eq!(indices, listed);
        if listed.len() > 3 {
            let page = db.games(&query, filter, 2, 2);
            let indices: Vec<u64> = page.games.iter().map(|g| g.index).collect();
            assert_eq!(indices, listed[2..4]);
        }
        reached += expected.games();
    }
    assert!(reached > 10_000, "{reached}");
    assert!(counted > 10, "{counted} answered from the counts");
    // Positions of every count of discs, the first and last the index
    // knows among them.
    assert!(depths.len() > 50 && depths.contains(&4) && depths.contains(&64));
}

/// Boards of fewer discs than the index knows (games from such a start
/// only) are found by a scan, with the same answers.
#[test]
fn positions_the_index_does_not_know_are_scanned() {
    let mut records = Vec::new();
    for (i, text) in ["f5d6", "", "c4"].iter().enumerate() {
        let mut record = if text.is_empty() {
            // Three discs, and nothing played.
            let board = format!("{}O-------XX{} X", "-".repeat(27), "-".repeat(27));
            GameRecord::new(board.parse().unwrap())
        } else {
            crate::testkit::transcript(text)
        };
        record.origin.index = i as u64 + 1;
        records.push(record);
    }
    let db = database(&records);
    for target in [records[1].start, Position::start()] {
        let query = PositionQuery::new(target);
        assert_eq!(
            db.candidates(&query).is_none(),
            query.discs() < INDEXED_FROM
        );
        for filter in [Filter::default(), Filter::builder().player("x").build()] {
            let (expected, listed) = streamed(&records, &query, &filter);
            let answer = db.explore(&query, &filter);
            assert_eq!(
                serde_json::to_string(&answer).unwrap(),
                serde_json::to_string(&expected).unwrap()
            );
            let page = db.games(&query, &filter, 0, 10);
            let indices: Vec<u64> = page.games.iter().map(|g| g.index).collect();
            assert_eq!(indices, listed);
        }
    }
    assert_eq!(
        db.games(
            &PositionQuery::new(records[1].start),
            &Filter::default(),
            0,
            9
        )
        .total,
        1
    );
}

#[test]
fn records_come_back_as_read_and_as_json_lines() {
    let mut rng = Rng::new(28);
    let records = games(&mut rng, 1500);
    let db = database(&records);
    let whole = records
        .iter()
        .filter(|r| db.entries[r.origin.index as usize - 1].whole != 0)
        .count();
    assert!(whole > 100 && whole < 1000, "{whole} kept whole");
    for record in &records {
        let index = record.origin.index;
        let back = db.record("random.txt", index).unwrap();
        assert_eq!(back.start, record.start);
        assert_eq!(back.moves, record.moves);
        assert_eq!(back.unreadable, record.unreadable);
        assert_eq!(back.tags, record.tags);
        assert_eq!(back.result, record.result);
        assert_eq!(back.notes, record.notes);
        assert_eq!(back.rules, record.rules);
        assert_eq!(back.theoretical_black_score, record.theoretical_black_score);
        let (report, opening) = crate::testkit::replay_named(record);
        let game = Game::new("random.txt", record, &report).with_opening(opening);
        let expected = serde_json::to_string(&GameJson::from_row(&game)).unwrap();
        assert_eq!(db.game_json("random.txt", index).unwrap(), expected);
    }
    assert_eq!(db.record("random.txt", 0), None);
    assert_eq!(db.record("random.txt", records.len() as u64 + 1), None);
    assert_eq!(db.record("other.txt", 1), None);
}

#[test]
fn games_of_several_inputs_are_found_by_input_and_number() {
    let selection = Selection::new(Filter::default(), true);
    let mut db = Database::new();
    for (name, lines) in [("a.txt", ["f5d6", "f5f6"]), ("b.txt", ["c4c3", "f5d6c3"])] {
        let source = db.add_source(name);
        for (i, line) in lines.iter().enumerate() {
            let mut record = crate::testkit::transcript(line);
            record.origin.index = i as u64 + 1;
            let (report, found) = selection.replay(&record);
            db.push(source, Prepared::new(&record, &report, found.opening));
        }
    }
    assert_eq!(db.sources(), ["a.txt", "b.txt"]);
    assert_eq!(db.record("b.txt", 2).unwrap().move_string(), "f5d6c3");
    assert_eq!(db.record("a.txt", 2).unwrap().move_string(), "f5f6");
    let query = PositionQuery::from_moves("f5d6").unwrap();
    let page = db.games(&query, &Filter::default(), 0, 10);
    let found: Vec<(&str, u64)> = page
        .games
        .iter()
        .map(|g| (g.source.as_str(), g.index))
        .collect();
    assert_eq!(found, [("a.txt", 1), ("b.txt", 2)]);
    let answer = db.explore(&query, &Filter::default());
    let rows = answer.ranked();
    assert_eq!(rows.len(), 1);
    assert_eq!((rows[0].name.as_str(), rows[0].results.games), ("c3", 1));
    assert_eq!(Position::start().side_to_move(), Color::Black);
}

/// The positions counted at `finish` (chosen from a sample) answer as the
/// lookup's replay does, to the game: images of them, symmetric ones
/// (the start), positions after a pass, games from other starts.
#[test]
fn popular_positions_answer_as_lookups_do() {
    let mut rng = Rng::new(77);
    let mut records = games(&mut rng, 2500);
    for i in 0..500 {
        let mut copy = turned(&records[i * 2], rng.pick(&Symmetry::ALL));
        copy.origin.index = records.len() as u64 + 1;
        records.push(copy);
    }
    let mut db = unsorted(&records);
    db.popular_rule = popular::Rule { every: 2, min: 2 };
    db.finish();
    let every = Filter::default();
    let mut answered = 0;
    let mut positions = targets(&mut rng, &records, 1500);
    positions.extend(Symmetry::ALL.map(|s| {
        let mut p = Position::start();
        p.play("f5".parse().unwrap()).unwrap();
        p.transform(s)
    }));
    for target in positions {
        let query = PositionQuery::new(target);
        let Some(answer) = db.popular_explore(&query, &every) else {
            continue;
        };
        answered += 1;
        let found = db.lookup(&query, &every);
        assert_eq!(
            serde_json::to_string(&answer).unwrap(),
            serde_json::to_string(&found.explored(&db)).unwrap(),
            "{target}"
        );
        for (offset, limit) in [(0, usize::MAX), (2, 3), (found.len() as u64, 5)] {
            assert_eq!(
                db.popular_games(&query, &every, offset, limit),
                Some(found.page(&db, offset, limit)),
                "{target} {offset} {limit}"
            );
        }
        // Not with a filter: those are looked up.
        let filter = Filter::builder().player("tastet").build();
        assert!(db.popular_explore(&query, &filter).is_none());
    }
    assert!(
        answered > 100,
        "{answered} positions answered from the counts"
    );
}

/// An index saved and read back is the one built, and answers alike; a
/// file of other games, of another format, or damaged anywhere is
/// refused, and the database stays as it was (the index is then built).
#[test]
fn a_saved_index_reads_back_as_built_and_nothing_else_is_taken() {
    let mut rng = Rng::new(515);
    let records = games(&mut rng, 1500);
    let db = database(&records);
    assert!(db.popular_positions() > 50, "{}", db.popular_positions());
    let mut saved = Vec::new();
    db.save_index(&mut saved).unwrap();
    let fresh = || {
        let mut fresh = unsorted(&records);
        fresh.popular_rule = db.popular_rule;
        fresh
    };
    let mut read = fresh();
    read.finish_from(saved.as_slice()).unwrap();
    assert!(read.finished);
    assert!(read.index == db.index && read.popular == db.popular);
    let every = Filter::default();
    for target in targets(&mut rng, &records, 200) {
        let query = PositionQuery::new(target);
        assert_eq!(
            serde_json::to_string(&read.explore(&query, &every)).unwrap(),
            serde_json::to_string(&db.explore(&query, &every)).unwrap(),
            "{target}"
        );
        assert_eq!(
            read.games(&query, &every, 0, 50),
            db.games(&query, &every, 0, 50)
        );
    }

    // Other games: one fewer, one cut short, two swapped, counted by
    // another rule.
    let mut others: Vec<Database> = Vec::new();
    others.push(unsorted(&records[..records.len() - 1]));
    let mut cut = records.clone();
    let long = cut.iter().position(|r| r.moves.len() > 30).unwrap();
    cut[long].moves.pop();
    others.push(unsorted(&cut));
    let mut swapped = records.clone();
    swapped.swap(long, long + 1);
    others.push(unsorted(&swapped));
    let mut rule = unsorted(&records);
    rule.popular_rule = popular::Rule { every: 2, min: 3 };
    others.push(rule);
    for mut other in others {
        let err = other.finish_from(saved.as_slice()).unwrap_err();
        assert!(matches!(err, SavedIndexError::OtherGames), "{err}");
        assert!(!other.finished && other.index.games == 0);
    }

    // Damage: every header field, bytes of the index and of the counts,
    // the checksum; cut short anywhere; a byte too many.
    let refused = |bytes: &[u8]| {
        let mut db = fresh();
        let err = db.finish_from(bytes).unwrap_err();
        assert!(!db.finished && db.index.games == 0 && db.popular.len() == 0);
        db.finish();
        assert!(db.index == read.index);
        err
    };
    let index_end = 36 + read.index.hashes.len();
    for at in [
        0,
        7,
        8,
        11,
        12,
        27,
        28,
        35,
        36,
        100,
        index_end - 1,
        index_end,
        index_end + 9,
    ]
    .into_iter()
    .chain(saved.len() - 30..saved.len())
    {
        let mut bad = saved.clone();
        bad[at] ^= 0x10;
        let err = refused(&bad);
        let expected = match at {
            0..8 => matches!(err, SavedIndexError::NotAnIndex),
            8..12 => matches!(err, SavedIndexError::Format { found } if found != 1),
            12..28 => matches!(err, SavedIndexError::OtherGames),
            _ => matches!(err, SavedIndexError::Damaged(_)),
        };
        assert!(expected, "byte {at}: {err}");
    }
    for len in [0, 5, 20, 36, index_end, saved.len() - 16, saved.len() - 1] {
        let err = refused(&saved[..len]);
        let expected = match len {
            0..8 => matches!(err, SavedIndexError::NotAnIndex),
            _ => matches!(err, SavedIndexError::Damaged(_)),
        };
        assert!(expected, "cut at {len}: {err}");
    }
    let mut longer = saved.clone();
    longer.push(0);
    assert!(matches!(refused(&longer), SavedIndexError::Damaged(_)));

    // Nothing to save before `finish`.
    assert!(fresh().save_index(Vec::new()).is_err());
}
