//! `kifu show --html`: the games of the files given in one web page
//! ([`kifu::web::page`]), with an exact analysis when asked.

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use kifu::record::analysis::{analyze_game, GameAnalysis, Judging};
use kifu::web::page::GamePage;
use kifu::{GameRecord, Opening, Report};
use rayon::prelude::*;

use crate::cli::io::InputArgs;
use crate::cli::output::{self, AtomicFile, Target};
use crate::cli::report;
use crate::cli::run::{run_inputs, Out, Replay, Replayed, Totals};
use crate::cli::show::args::Args;
use crate::cli::status::Outcome;

/// A game for the page: its record, replay and opening.
type Kept = (GameRecord, Report, Option<&'static Opening>);

/// Whether GAME names files (or standard input) rather than moves.
fn names_files(game: &[String]) -> bool {
    game.is_empty() || game.iter().all(|g| g == "-" || Path::new(g).exists())
}

/// Reads the games the filters keep, in input order.
fn read(args: &Args) -> Result<(Vec<Kept>, Totals, Vec<String>)> {
    let files = if args.game.is_empty() {
        vec!["-".to_owned()]
    } else {
        args.game.clone()
    };
    let input = InputArgs {
        files: files.clone(),
        source: args.source.clone(),
        jobs: 0,
        quiet: false,
        shard: None,
        filter: args.html.filter.clone(),
    };
    let selection = input.selection(true)?;
    let mut kept = Vec::new();
    let job = &mut Replayed {
        options: input.options(),
        selection: &selection,
        unique: None,
        work: |g: &Replay<'_>| Out {
            item: Some((g.record.clone(), g.report.clone(), g.found.opening)),
            notes: Vec::new(),
        },
        sink: |item: Kept| {
            kept.push(item);
            Ok(())
        },
    };
    let totals = run_inputs(&input, job)?;
    Ok((kept, totals, files))
}

/// Judges each game, in parallel: solved from `empties` on, one solver
/// (and its table) shared, and before that by a search `depth` moves deep
/// (none when 0), one searcher shared.
fn analyse(games: &[Kept], empties: u32, depth: u32, hash_mib: usize) -> Result<Vec<GameAnalysis>> {
    let started = Instant::now();
    let solver = crate::cli::solver::analysis_solver(hash_mib, empties);
    let searcher = (depth > 0)
        .then(|| crate::cli::solver::searcher(hash_mib, kifu::search::Selectivity::default()));
    let judging = Judging {
        empties,
        depth,
        best_moves: true,
    };
    let analyses: Vec<GameAnalysis> = games
        .par_iter()
        .map(|(record, _, _)| analyze_game(&solver, searcher.as_ref(), record, &judging))
        .collect::<Result<_, _>>()
        .context("the analysis was interrupted")?;
    let nodes: u64 = analyses.iter().map(|a| a.nodes).sum();
    let how = if depth > 0 {
        format!("by a {depth}-move search, exact from {empties} empties")
    } else {
        format!("from {empties} empties")
    };
    eprintln!(
        "kifu: {} analysed {how} in {:.1} s ({nodes} positions searched)",
        report::games(games.len() as u64),
        started.elapsed().as_secs_f64()
    );
    Ok(analyses)
}

pub fn run(args: Args, out: &Path) -> Result<Outcome> {
    let (games, totals, files) = if names_files(&args.game) {
        let files = if args.game.is_empty() {
            vec!["-".to_owned()]
        } else {
            args.game.clone()
        };
        output::refuse_inputs_as_outputs(&files, &[Target::File(out)])?;
        read(&args)?
    } else {
        // Moves typed on the command line: one game.
        let loaded = crate::cli::show::args::load(&args)?;
        let selection =
            kifu::record::select::Selection::new(kifu::record::select::Filter::default(), true);
        let (report, found) = selection.replay(&loaded.record);
        let mut totals = Totals {
            read: 1,
            ..Totals::default()
        };
        totals.tally.add(report.status());
        (
            vec![(loaded.record, report, found.opening)],
            totals,
            vec![loaded.name],
        )
    };
    if games.is_empty() {
        eprintln!("kifu: {}", report::tally_line(&totals));
        bail!("no game to put on the page");
    }
    let analyses = match args.analyze {
        Some(empties) => Some(analyse(&games, empties, args.depth, args.html.hash)?),
        None => None,
    };
    let mut page = GamePage::new();
    for (i, (record, report, opening)) in games.iter().enumerate() {
        let analysis = analyses.as_ref().map(|a| &a[i]);
        page.add(record, report, *opening, analysis);
    }
    let title = args.html.title.clone().unwrap_or_else(|| {
        let names: Vec<&str> = files
            .iter()
            .map(|f| {
                Path::new(f)
                    .file_name()
                    .and_then(|n| n.to_str())
                    .unwrap_or(f)
            })
            .collect();
        format!("{}: {}", names.join(", "), report::games(page.len() as u64))
    });
    let html = page.render(&title);
    let mut file = AtomicFile::create(out)?;
    file.write_all(html.as_bytes())
        .with_context(|| format!("cannot write {}", out.display()))?;
    file.commit()?;
    eprintln!(
        "kifu: {}; {} on the page {} ({} KiB)",
        report::tally_line(&totals),
        report::games(page.len() as u64),
        out.display(),
        html.len().div_ceil(1024)
    );
    Ok(totals.outcome())
}
