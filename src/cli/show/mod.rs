//! `kifu show`: board diagrams of a game.

use std::io::{self, BufWriter, Write};
use std::path::Path;

use anyhow::{bail, Context, Result};
use kifu::record::analysis::{analyze_game, GameAnalysis, Judging, MoveAnalysis, MIDGAME_MISTAKE};
use kifu::render::svg::{position_svg, sheet_svg, SvgOptions};
use kifu::render::text::{diagram, diagram_painted, sheet, Cell, Sheet, TextStyle};
use kifu::solve::Solver;
use kifu::{
    Color, GameRecord, Move, Opening, Openings, Position, Report, Score, Token, Turn, Watch, Winner,
};

use super::diagnostic;
use super::output::{self, AtomicFile, Target};
use super::report;
use super::status::Outcome;

mod args;
mod html;

use args::load;
pub use args::Args;

fn style(args: &Args) -> TextStyle {
    TextStyle {
        ascii: args.ascii,
        legal_moves: true,
        last_move: None,
    }
}

/// ANSI colours for a terminal: bold discs, green legal moves, the last
/// move on a yellow background.
fn paint(cell: Cell, last: bool, glyph: char) -> String {
    use anstyle::{AnsiColor, Style};
    let mut style = match cell {
        Cell::Black | Cell::White => Style::new().bold(),
        Cell::Legal => Style::new().fg_color(Some(AnsiColor::Green.into())),
        Cell::Empty => Style::new().dimmed(),
    };
    if last {
        style = style
            .bg_color(Some(AnsiColor::Yellow.into()))
            .fg_color(Some(AnsiColor::Black.into()));
    }
    format!("{}{glyph}{}", style.render(), style.render_reset())
}

fn last_square(step: Option<&Step>) -> Option<kifu::Square> {
    match step?.turn.token {
        Token::Move(Move::Play(sq)) => Some(sq),
        _ => None,
    }
}

/// Starts a picture; it is renamed into place once every picture of the
/// run is written. A picture that would replace the game's own file is
/// refused.
fn picture(path: &Path, text: &str, input: &[String]) -> Result<AtomicFile> {
    output::refuse_inputs_as_outputs(input, &[Target::File(path)])?;
    let mut file = AtomicFile::create(path)?;
    file.write_all(text.as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(file)
}

fn squares(bits: u64) -> String {
    kifu::Bitboard(bits)
        .into_iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Every position of the game (the start, then after each pass and move)
/// as the one replay passes them.
#[derive(Default)]
struct Positions(Vec<Position>);

impl Watch for Positions {
    fn position(&mut self, position: &Position, _ply: u32, _next: Move) {
        self.0.push(*position);
    }

    fn end(&mut self, position: &Position, _ply: u32) {
        self.0.push(*position);
    }
}

/// One legal move token of the record and the position after it.
struct Step {
    /// 1-based move token number.
    number: usize,
    /// What was played, by whom.
    turn: Turn,
    /// The position after it.
    position: Position,
}

/// The replay of `record`, its legal move tokens, each with the position
/// after it, and its opening.
fn steps(record: &GameRecord) -> (Report, Vec<Step>, Option<&'static Opening>) {
    let mut seen = Positions::default();
    let report = record.replay_watched(&mut seen);
    let mut classifier = Openings::builtin().classifier(&record.start);
    for position in seen.0.iter().skip(1) {
        if !classifier.push(position) {
            break;
        }
    }
    let opening = classifier.opening();
    let mut after = seen.0.into_iter().skip(1);
    let steps = record
        .plies(&report)
        .take_while(|turn| turn.legal)
        .filter_map(|turn| {
            if turn.pass_before {
                // The position where the other side had to pass.
                after.next();
            }
            Some(Step {
                number: turn.index + 1,
                turn,
                position: after.next()?,
            })
        })
        .collect();
    (report, steps, opening)
}

/// The lines above the diagram: the players, the event, the date and the
/// opening, when the record has them.
fn heading(record: &GameRecord, opening: Option<&Opening>) -> String {
    let tags = &record.tags;
    let mut out = String::new();
    let mut line = |fields: [(&str, Option<String>); 2]| {
        let parts: Vec<String> = fields
            .into_iter()
            .filter_map(|(name, value)| value.map(|v| format!("{name}: {v}")))
            .collect();
        if !parts.is_empty() {
            out.push_str(&parts.join("   "));
            out.push('\n');
        }
    };
    line([("black", tags.black.clone()), ("white", tags.white.clone())]);
    let date = tags
        .date
        .as_deref()
        .map(|d| kifu::record::date::iso_date(d).unwrap_or_else(|| d.to_owned()));
    line([("event", tags.event.clone()), ("date", date)]);
    line([
        ("opening", opening.map(|o| o.name().to_owned())),
        ("", None),
    ]);
    out
}

/// The lines under a diagram: what was played, the counts, what comes next.
fn describe(
    position: &Position,
    last: Option<&Step>,
    style: &TextStyle,
    analysis: &Analysis,
) -> String {
    let mut out = String::new();
    match last {
        None => out.push_str("start position\n"),
        Some(step) => {
            let turn = &step.turn;
            let what = match turn.token {
                Token::Move(Move::Play(sq)) => format!("{} {sq}", turn.color),
                _ => format!("{} passes", turn.color),
            };
            out.push_str(&format!("move {}: {what}", step.number));
            if turn.pass_before {
                out.push_str(&format!(
                    " ({} had no move and passed)",
                    turn.color.opponent()
                ));
            }
            if let Some(m) = analysis
                .game
                .as_ref()
                .and_then(|g| g.moves.iter().find(|m| m.index + 1 == step.number))
            {
                out.push_str(&move_value(m));
            }
            out.push('\n');
        }
    }
    let score = Score::of(position.board());
    out.push_str(&format!(
        "black {} {}  white {} {}  empty {}\n",
        style.disc(Color::Black),
        score.black_discs,
        style.disc(Color::White),
        score.white_discs,
        score.empties
    ));
    let mover = position.side_to_move();
    let played = last.map_or(0, |step| step.number);
    if let Some(line) = analysis
        .perfect(position)
        .or_else(|| analysis.judged(played))
    {
        out.push_str(&line);
    }
    if position.is_game_over() {
        let result = match score.winner {
            Winner::Black => format!("black wins {}-{}", score.black_score, score.white_score),
            Winner::White => format!("white wins {}-{}", score.white_score, score.black_score),
            Winner::Draw => format!("draw {}-{}", score.black_score, score.white_score),
        };
        out.push_str(&format!("game over: {result}\n"));
    } else if position.has_moves() {
        out.push_str(&format!(
            "{mover} to move: {}\n",
            squares(position.legal_moves().0)
        ));
    } else {
        let mut passed = *position;
        passed.pass();
        out.push_str(&format!(
            "{mover} has no move and must pass; {} to move: {}\n",
            mover.opponent(),
            squares(passed.legal_moves().0)
        ));
    }
    out
}

/// What `--analyze` found: the game's analysis and the solver for the
/// position shown.
struct Analysis {
    game: Option<GameAnalysis>,
    solver: Option<Solver>,
    empties: u32,
}

impl Analysis {
    /// The value of an unfinished position under perfect play, within the
    /// analysed depth.
    fn perfect(&self, position: &Position) -> Option<String> {
        let solver = self.solver.as_ref()?;
        if position.is_game_over() || position.board().empty().count() > self.empties {
            return None;
        }
        let solution = solver.solve(position).ok()?;
        let mover = position.side_to_move();
        let best: Vec<String> = solution
            .best_moves
            .iter()
            .map(ToString::to_string)
            .collect();
        Some(format!(
            "perfect play: {mover} {:+} with {} (black {})\n",
            solution.value,
            best.join(" "),
            final_discs(solution.value, mover)
        ))
    }

    /// The value of the position after `played` move tokens, before the
    /// exact part, as the search judged it for the next move: an estimate
    /// (or a value, where the search reached the end).
    fn judged(&self, played: usize) -> Option<String> {
        let m = self
            .game
            .as_ref()?
            .moves
            .iter()
            .find(|m| m.index == played)?;
        if m.empties <= self.empties {
            return None;
        }
        let best: Vec<String> = m.best_moves.iter().map(ToString::to_string).collect();
        Some(if m.exact {
            format!(
                "perfect play: {} {:+} with {} (black {})\n",
                m.color,
                m.best_value,
                best.join(" "),
                final_discs(m.best_value, m.color)
            )
        } else {
            format!(
                "estimate by a {}-move search: {} ~{:+} with {}\n",
                m.depth,
                m.color,
                m.best_value,
                best.join(" ")
            )
        })
    }

    /// The closing lines of a game judged from its first move: the losses
    /// the search estimated, then the exact ones.
    fn summary(&self) -> Option<String> {
        let game = self.game.as_ref()?;
        let depth = game.midgame_depth?;
        let (early, exact): (Vec<&MoveAnalysis>, Vec<&MoveAnalysis>) =
            game.moves.iter().partition(|m| m.empties > self.empties);
        let moves = |n: u32| report::counted(u64::from(n), "move");
        let mut out = format!(
            "~ estimates by a {depth}-move search{}: black lost ~{} in {} of {MIDGAME_MISTAKE}+ \
             discs, white ~{} in {}{}\n",
            early
                .last()
                .map(|m| format!(" to move {}", m.index + 1))
                .unwrap_or_default(),
            game.black_midgame_loss,
            moves(game.black_midgame_mistakes),
            game.white_midgame_loss,
            moves(game.white_midgame_mistakes),
            game.first_midgame_mistake_move
                .map(|n| format!("; first: move {n}"))
                .unwrap_or_default()
        );
        match game.empties {
            None => out.push_str(&format!(
                "the game ended with more than {} empties\n",
                self.empties
            )),
            Some(empties) => out.push_str(&format!(
                "exact from {}: black lost {} in {}, white {} in {}{}\n",
                exact.first().map_or_else(
                    || format!("{empties} empties"),
                    |m| format!("move {} ({empties} empties)", m.index + 1)
                ),
                game.black_loss,
                moves(game.black_mistakes),
                game.white_loss,
                moves(game.white_mistakes),
                game.first_mistake_move
                    .map(|n| format!("; first mistake: move {n}"))
                    .unwrap_or_default()
            )),
        }
        Some(out)
    }
}

/// `black 36-28` style: Black's and White's discs for a value of `side`.
fn final_discs(value: i32, side: Color) -> String {
    let black = if side == Color::Black { value } else { -value };
    let b = (64 + black) / 2;
    format!("{b}-{}", 64 - b)
}

/// A value with its sign; an estimate with `~` before it.
fn signed(value: i32, exact: bool) -> String {
    if exact {
        format!("{value:+}")
    } else {
        format!("~{value:+}")
    }
}

/// ` — value +2, best +4 (g4 c1), loss 2 ?` for an analysed move; an
/// estimate ` — value ~+3, best ~+8 (c4), loss ~5 ?`, marked from a
/// midgame mistake up (as `kifu analyze` marks them).
fn move_value(m: &MoveAnalysis) -> String {
    let best: Vec<String> = m.best_moves.iter().map(ToString::to_string).collect();
    if m.loss == 0 {
        return format!(" — value {} (best)", signed(m.value, m.exact));
    }
    let mark = if !m.exact && m.loss < MIDGAME_MISTAKE {
        ""
    } else if m.best_value.signum() != m.value.signum() {
        " ??"
    } else {
        " ?"
    };
    format!(
        " — value {}, best {} ({}), loss {}{}{mark}",
        signed(m.value, m.exact),
        signed(m.best_value, m.exact),
        best.join(" "),
        if m.exact { "" } else { "~" },
        m.loss
    )
}

pub fn run(args: Args) -> Result<Outcome> {
    if let Some(out) = args.html.html.clone() {
        return html::run(args, &out);
    }
    if !args.html.filter.is_empty() {
        bail!("the filters choose the games of a page: give --html OUT.html");
    }
    // The game's file, when GAME names one, is never written over.
    let input: Vec<String> = match args.game.as_slice() {
        [one] if one == "-" || Path::new(one).exists() => vec![one.clone()],
        _ => Vec::new(),
    };
    if let Some(path) = &args.svg {
        output::refuse_inputs_as_outputs(&input, &[Target::File(path)])?;
    }
    let loaded = load(&args)?;
    let mut pictures = Vec::new();
    let record = &loaded.record;
    let style = style(&args);
    let (report, steps, opening) = steps(record);
    let error = report.error.clone();
    let analysis = match args.analyze {
        Some(empties) => {
            let solver = crate::cli::solver::analysis_solver(kifu::jobs::DEFAULT_HASH_MB, empties);
            let searcher = (args.depth > 0).then(|| {
                crate::cli::solver::searcher(
                    kifu::jobs::DEFAULT_HASH_MB,
                    kifu::search::Selectivity::default(),
                )
            });
            let judging = Judging {
                empties,
                depth: args.depth,
                best_moves: true,
            };
            // Never interrupted: Ctrl-C ends the process.
            let game = analyze_game(&solver, searcher.as_ref(), record, &judging).ok();
            Analysis {
                game,
                solver: Some(solver),
                empties,
            }
        }
        None => Analysis {
            game: None,
            solver: None,
            empties: 0,
        },
    };
    if let Some(n) = args.ply {
        if n > record.moves.len() {
            bail!(
                "--ply {n}: the record has only {} move{}",
                record.moves.len(),
                if record.moves.len() == 1 { "" } else { "s" }
            );
        }
    }

    let color = args.color.enabled();
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let block = |position: &Position, last: Option<&Step>| {
        let style = TextStyle {
            last_move: last_square(last),
            ..style
        };
        let board = if color {
            diagram_painted(position, &style, &paint)
        } else {
            diagram(position, &style)
        };
        board + &describe(position, last, &style, &analysis)
    };
    let svg_options = |last: Option<&Step>| SvgOptions {
        last_move: last_square(last),
        legal_moves: true,
    };
    out.write_all(heading(record, opening).as_bytes())?;
    if args.each {
        out.write_all(block(&record.start, None).as_bytes())?;
        if let Some(dir) = &args.svg_dir {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
            pictures.push(picture(
                &dir.join("000.svg"),
                &position_svg(&record.start, &svg_options(None)),
                &input,
            )?);
        }
        for step in &steps {
            out.write_all(b"\n")?;
            out.write_all(block(&step.position, Some(step)).as_bytes())?;
            if let Some(dir) = &args.svg_dir {
                pictures.push(picture(
                    &dir.join(format!("{:03}.svg", step.number)),
                    &position_svg(&step.position, &svg_options(Some(step))),
                    &input,
                )?);
            }
        }
    } else {
        let shown = match args.ply {
            Some(n) => steps.iter().rposition(|step| step.number <= n),
            None => steps.len().checked_sub(1),
        };
        let last = shown.and_then(|i| steps.get(i));
        let position = last.map_or(record.start, |step| step.position);
        if args.sheet {
            let played: Vec<(kifu::Square, Color)> = steps[..shown.map_or(0, |i| i + 1)]
                .iter()
                .filter_map(|step| match step.turn.token {
                    Token::Move(Move::Play(sq)) => Some((sq, step.turn.color)),
                    _ => None,
                })
                .collect();
            let sheet_data = Sheet::new(record.start, &played);
            out.write_all(sheet(&sheet_data, &style).as_bytes())?;
            out.write_all(describe(&position, last, &style, &analysis).as_bytes())?;
            if let Some(path) = &args.svg {
                pictures.push(picture(path, &sheet_svg(&sheet_data), &input)?);
            }
        } else {
            out.write_all(block(&position, last).as_bytes())?;
            if let Some(path) = &args.svg {
                pictures.push(picture(
                    path,
                    &position_svg(&position, &svg_options(last)),
                    &input,
                )?);
            }
        }
        let scored = kifu::formats::obf::scored_moves(record);
        if !scored.is_empty() && shown.is_none() {
            let list: Vec<String> = scored
                .iter()
                .map(|m| match m.score {
                    Some(score) => format!("{} {score:+}", m.mv),
                    None => m.mv.to_string(),
                })
                .collect();
            writeln!(out, "scored moves: {}", list.join(", "))?;
            if let Some(solver) = &analysis.solver {
                if record.start.board().empty().count() <= analysis.empties {
                    let solved = solver
                        .solve_moves(&record.start)
                        .map_err(|e| anyhow::anyhow!("{e}"))?;
                    let list: Vec<String> = solved
                        .moves
                        .iter()
                        .map(|m| format!("{} {:+}", m.mv, m.value))
                        .collect();
                    writeln!(out, "solved moves: {}", list.join(", "))?;
                    let differ: Vec<String> = scored
                        .iter()
                        .filter_map(|m| {
                            let listed = m.score?;
                            let solved = solved.moves.iter().find(|s| s.mv == m.mv)?.value;
                            (listed != solved)
                                .then(|| format!("{} listed {listed:+}, solved {solved:+}", m.mv))
                        })
                        .collect();
                    if differ.is_empty() {
                        writeln!(out, "every listed score agrees")?;
                    } else {
                        writeln!(out, "listed scores that differ: {}", differ.join(", "))?;
                    }
                }
            }
        }
        if let Some(result) = &record.result {
            if args.ply.is_none_or(|n| n >= record.moves.len()) {
                writeln!(out, "recorded result: {result}")?;
            }
        }
    }
    // The whole game's losses, under its last position.
    if args.ply.is_none_or(|n| n >= record.moves.len()) {
        if let Some(summary) = analysis.summary() {
            out.write_all(summary.as_bytes())?;
        }
    }
    out.flush()?;
    for file in pictures {
        file.commit()?;
    }
    match error {
        Some(error)
            if args
                .ply
                .is_none_or(|n| n >= error.move_number().unwrap_or(0)) =>
        {
            let color = anstream::AutoStream::choice(&io::stderr()) != anstream::ColorChoice::Never;
            eprint!(
                "{}",
                diagnostic::render(&loaded.name, record, &error, color)
            );
            Ok(Outcome::Invalid)
        }
        _ => Ok(Outcome::Valid),
    }
}
