//! `kifu stats`: results counted by year, player, event or opening.

use std::collections::HashMap;
use std::io::{self, Write};

use anyhow::{bail, Result};
use kifu::batch::Seen;
use kifu::record::analysis::{analyze_midgame, analyze_with, Judging};
use kifu::record::select::{winner, year, Results};
use kifu::search::Searcher;
use kifu::Winner;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use super::io::InputArgs;
use super::run::{run_inputs, Out, Replay, Replayed};
use super::shape::{csv_field, Shape};
use super::{report, Outcome};

/// Count results by year, player, event or opening.
///
/// By year, event or opening: games, Black's wins, draws, White's wins,
/// unfinished games and Black's average score in the complete ones. By
/// player: each game counts for both players, from their own side: wins,
/// draws, losses, unfinished, the score rate (wins and half the draws over
/// the decided games) and the average disc difference in complete games.
/// The filters choose the games first.
///
/// Examples:
///   kifu stats WTH_*.wtb --by year
///   kifu stats WTH_*.wtb --by player --format csv > players.csv
///   kifu stats WTH_*.wtb --by opening --year 2000..2025
///   kifu stats WTH_2004.wtb --by player --endgame 16
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// What to count by.
    #[arg(long, value_enum)]
    by: By,

    /// An aligned table, CSV, or JSON Lines (one object per row).
    #[arg(long, value_enum, default_value_t = Shape::Table)]
    format: Shape,

    /// Count each game once: leave out games whose moves repeat an
    /// earlier game's, turned or mirrored or not.
    #[arg(long, conflicts_with = "shard")]
    unique: bool,

    /// By player: also analyse every game exactly from N empty squares and
    /// give each player's mean loss in discs over those games (who plays
    /// endgames best).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=30))]
    endgame: Option<u32>,

    /// By player: also judge every move before the endgame (before
    /// --endgame's N empties, else 20) by a search D moves deep and give
    /// each player's mean estimated loss a move, in discs.
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=kifu::jobs::MAX_DEPTH as i64))]
    midgame: Option<u32>,

    /// The solver's (and the midgame search's) tables, in MB; the
    /// solver's at most (see `kifu analyze --help`).
    #[arg(long, value_name = "MB", default_value_t = kifu::jobs::DEFAULT_HASH_MB)]
    hash: usize,

    #[command(flatten)]
    input: InputArgs,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum By {
    Year,
    Player,
    Event,
    Opening,
}

/// What one game brings.
struct Counted {
    /// Its keys (its year is `year` instead: a number, nothing allocated).
    keys: [Option<String>; 2],
    year: Option<u16>,
    winner: Option<Winner>,
    /// Black's and White's scores, in a complete game.
    scores: Option<(u8, u8)>,
    /// Black's and White's losses over the analysed endgame (`--endgame`),
    /// when the game reached its depth.
    losses: Option<(i32, i32)>,
    /// Black's and White's estimated losses before the endgame and their
    /// moves there (`--midgame`): `[(loss, moves); 2]`.
    midgame: Option<[(i32, u32); 2]>,
}

/// The games of one key, from Black's view (year, event, opening).
type GameRow = Results;

/// The games of one player, from the player's side.
#[derive(Default, Clone, Copy)]
struct PlayerRow {
    games: u64,
    wins: u64,
    draws: u64,
    losses: u64,
    unfinished: u64,
    complete: u64,
    disc_diff_sum: i64,
    endgame_games: u64,
    endgame_loss_sum: i64,
    midgame_moves: u64,
    midgame_loss_sum: i64,
}

fn mean(sum: f64, n: u64) -> Option<String> {
    (n > 0).then(|| format!("{:.2}", sum / n as f64))
}

/// The cells of a row by year, event or opening, after its key.
fn game_cells(row: &GameRow) -> Vec<String> {
    vec![
        row.games.to_string(),
        row.black_wins.to_string(),
        row.draws.to_string(),
        row.white_wins.to_string(),
        row.unfinished.to_string(),
        row.mean_black_score()
            .map(|m| format!("{m:.2}"))
            .unwrap_or_default(),
    ]
}

impl PlayerRow {
    /// Adds a game the player played with `side`'s discs.
    fn add(&mut self, c: &Counted, black: bool) {
        self.games += 1;
        let own = if black { Winner::Black } else { Winner::White };
        match c.winner {
            Some(Winner::Draw) => self.draws += 1,
            Some(w) if w == own => self.wins += 1,
            Some(_) => self.losses += 1,
            None => self.unfinished += 1,
        }
        if let Some((b, w)) = c.scores {
            self.complete += 1;
            let diff = i64::from(b) - i64::from(w);
            self.disc_diff_sum += if black { diff } else { -diff };
        }
        if let Some((b, w)) = c.losses {
            self.endgame_games += 1;
            self.endgame_loss_sum += i64::from(if black { b } else { w });
        }
        if let Some(sides) = c.midgame {
            let (loss, moves) = sides[usize::from(!black)];
            self.midgame_moves += u64::from(moves);
            self.midgame_loss_sum += i64::from(loss);
        }
    }

    fn cells(&self, endgame: bool, midgame: bool) -> Vec<String> {
        let decided = self.wins + self.draws + self.losses;
        let rate = (decided > 0).then(|| {
            format!(
                "{:.3}",
                (self.wins as f64 + self.draws as f64 / 2.0) / decided as f64
            )
        });
        let mut cells = vec![
            self.games.to_string(),
            self.wins.to_string(),
            self.draws.to_string(),
            self.losses.to_string(),
            self.unfinished.to_string(),
            rate.unwrap_or_default(),
            mean(self.disc_diff_sum as f64, self.complete).unwrap_or_default(),
        ];
        if endgame {
            cells.push(self.endgame_games.to_string());
            cells.push(mean(self.endgame_loss_sum as f64, self.endgame_games).unwrap_or_default());
        }
        if midgame {
            cells.push(self.midgame_moves.to_string());
            cells.push(mean(self.midgame_loss_sum as f64, self.midgame_moves).unwrap_or_default());
        }
        cells
    }
}

/// The header of SPEC section 7 for `by`, exactly; `--endgame` adds
/// section 9's two columns, `--midgame` section 12's two.
fn header(by: By, endgame: bool, midgame: bool) -> Vec<&'static str> {
    match by {
        By::Player => {
            let mut names = vec![
                "player",
                "games",
                "wins",
                "draws",
                "losses",
                "unfinished",
                "score_rate",
                "avg_disc_diff",
            ];
            if endgame {
                names.extend(["endgame_games", "avg_endgame_loss"]);
            }
            if midgame {
                names.extend(["midgame_moves", "avg_midgame_loss"]);
            }
            names
        }
        By::Year | By::Event | By::Opening => {
            let key = match by {
                By::Year => "year",
                By::Event => "event",
                _ => "opening",
            };
            vec![
                key,
                "games",
                "black_wins",
                "draws",
                "white_wins",
                "unfinished",
                "avg_black_score",
            ]
        }
    }
}

/// A JSON string.
fn json(text: &str) -> String {
    serde_json::Value::from(text).to_string()
}

/// Black's and White's estimated losses and moves before `boundary` empty
/// squares, by a `depth`-move search (the endgame after is not solved).
fn midgame_losses(
    searcher: &Searcher,
    record: &kifu::GameRecord,
    boundary: u32,
    depth: u32,
) -> Option<[(i32, u32); 2]> {
    let judging = Judging {
        empties: boundary,
        depth,
        best_moves: false,
    };
    let a = analyze_midgame(searcher, record, &judging).ok()?;
    let mut sides = [(0, 0); 2];
    for m in &a.moves {
        let side = &mut sides[usize::from(m.color == kifu::Color::White)];
        side.0 += m.loss;
        side.1 += 1;
    }
    Some(sides)
}

pub fn run(args: Args) -> Result<Outcome> {
    let by = args.by;
    if args.endgame.is_some() && by != By::Player {
        bail!("--endgame counts by player: use it with --by player");
    }
    if args.midgame.is_some() && by != By::Player {
        bail!("--midgame counts by player: use it with --by player");
    }
    let selection = args.input.selection(by == By::Opening)?;
    let solver = args
        .endgame
        .map(|empties| super::solver::analysis_solver(args.hash, empties));
    let searcher = args
        .midgame
        .map(|_| super::solver::searcher(args.hash, kifu::search::Selectivity::default()));
    // The midgame ends where the endgame is solved (or where analyze's
    // exact part begins by default).
    let boundary = args.endgame.unwrap_or(20);
    let options = match args.endgame.or(args.midgame) {
        // Solving takes long a game: small slices keep every worker busy.
        Some(_) => kifu::batch::Options {
            chunk: 16,
            slice: 16,
            chunk_bytes: 1024,
            slice_bytes: 1024,
            ..args.input.options()
        },
        None => args.input.options().counting(),
    };
    let mut games: HashMap<String, GameRow> = HashMap::new();
    let mut players: HashMap<String, PlayerRow> = HashMap::new();
    let mut years: HashMap<Option<u16>, GameRow> = HashMap::new();
    let job = &mut Replayed {
        options,
        selection: &selection,
        unique: args.unique.then(Seen::default),
        work: |g: &Replay<'_>| {
            let tags = &g.record.tags;
            let keys = match by {
                By::Year => [None, None],
                By::Event => [tags.event.clone(), None],
                By::Opening => [g.found.opening.map(|o| o.name().to_owned()), None],
                By::Player => [tags.black.clone(), tags.white.clone()],
            };
            Out {
                item: Some(Counted {
                    keys,
                    year: (by == By::Year).then(|| year(g.record)).flatten(),
                    winner: winner(g.record, g.report),
                    scores: g
                        .report
                        .final_score()
                        .map(|s| (s.black_score, s.white_score)),
                    losses: match (&solver, args.endgame) {
                        (Some(solver), Some(n)) if g.report.error.is_none() => {
                            // Never interrupted: Ctrl-C ends the process.
                            analyze_with(solver, g.record, n, false)
                                .ok()
                                .filter(|a| a.empties.is_some())
                                .map(|a| (a.black_loss, a.white_loss))
                        }
                        _ => None,
                    },
                    midgame: match (&searcher, args.midgame) {
                        (Some(searcher), Some(depth)) if g.report.error.is_none() => {
                            midgame_losses(searcher, g.record, boundary, depth)
                        }
                        _ => None,
                    },
                }),
                notes: Vec::new(),
            }
        },
        // The sink runs on one thread for every game: a key seen before
        // is looked up without a copy.
        sink: |mut c: Counted| {
            match by {
                By::Player => {
                    let keys = std::mem::take(&mut c.keys);
                    for (i, key) in keys.into_iter().enumerate() {
                        let key = key.unwrap_or_default();
                        match players.get_mut(&key) {
                            Some(row) => row.add(&c, i == 0),
                            None => players.entry(key).or_default().add(&c, i == 0),
                        }
                    }
                }
                By::Year => {
                    let black = c.scores.map(|(black, _)| black);
                    years.entry(c.year).or_default().add(c.winner, black);
                }
                _ => {
                    let [key, _] = std::mem::take(&mut c.keys);
                    let key = key.unwrap_or_default();
                    let black = c.scores.map(|(black, _)| black);
                    match games.get_mut(&key) {
                        Some(row) => row.add(c.winner, black),
                        None => games.entry(key).or_default().add(c.winner, black),
                    }
                }
            }
            Ok(())
        },
    };
    let totals = run_inputs(&args.input, job)?;
    // Years are counted by number; their rows are named like the others.
    games.extend(
        years
            .into_iter()
            .map(|(y, row)| (y.map(|y| y.to_string()).unwrap_or_default(), row)),
    );
    let mut rows: Vec<(String, Vec<String>, u64)> = match by {
        By::Player => players
            .into_iter()
            .map(|(k, r)| {
                let cells = r.cells(args.endgame.is_some(), args.midgame.is_some());
                (k, cells, r.games)
            })
            .collect(),
        _ => games
            .into_iter()
            .map(|(k, r)| (k, game_cells(&r), r.games))
            .collect(),
    };
    if by == By::Year {
        // By year, oldest first; games without a year last.
        rows.sort_by(|a, b| (a.0.is_empty(), &a.0).cmp(&(b.0.is_empty(), &b.0)));
    } else {
        rows.sort_by(|a, b| b.2.cmp(&a.2).then_with(|| a.0.cmp(&b.0)));
    }
    let header = header(by, args.endgame.is_some(), args.midgame.is_some());
    let mut out = io::stdout().lock();
    match args.format {
        Shape::Csv => {
            writeln!(out, "{}", header.join(","))?;
            for (key, cells, _) in &rows {
                writeln!(out, "{},{}", csv_field(key), cells.join(","))?;
            }
        }
        Shape::Json => {
            // Fields in the CSV header's order; numbers as numbers, an
            // empty average as null.
            for (key, cells, _) in &rows {
                let mut line = format!("{{{}:{}", json(header[0]), json(key));
                for (name, cell) in header[1..].iter().zip(cells) {
                    let value = if cell.is_empty() { "null" } else { cell };
                    line.push_str(&format!(",{}:{value}", json(name)));
                }
                writeln!(out, "{line}}}")?;
            }
        }
        Shape::Table => {
            let width = rows
                .iter()
                .map(|(k, _, _)| k.width())
                .chain([header[0].len(), 1])
                .max()
                .unwrap_or(1)
                .min(40);
            // The key cut to `width` columns (wide characters count two)
            // and padded to it.
            let cut = |text: &str| -> String {
                let mut s = String::new();
                let mut used = 0;
                for c in text.chars() {
                    let w = c.width().unwrap_or(0);
                    if used + w > width {
                        break;
                    }
                    used += w;
                    s.push(c);
                }
                s + &" ".repeat(width - used)
            };
            let mut line = cut(header[0]);
            for name in &header[1..] {
                line.push_str(&format!("  {name:>10}"));
            }
            writeln!(out, "{}", line.trim_end())?;
            for (key, cells, _) in &rows {
                let shown = if key.is_empty() { "-" } else { key };
                let mut line = cut(shown);
                for cell in cells {
                    let cell = if cell.is_empty() { "-" } else { cell };
                    line.push_str(&format!("  {cell:>10}"));
                }
                writeln!(out, "{line}")?;
            }
        }
    }
    out.flush()?;
    eprintln!("kifu: {}", report::tally_line(&totals));
    Ok(totals.outcome())
}
