//! `kifu serve`: the database browser, a local web page over the games of
//! the files given (SPEC section 11).
//!
//! The games are read once at start-up into a [`kifu::db::Database`]; the
//! page (`/`) and the game viewer (`/view`) are the front-end of `web/`,
//! embedded in the binary; their data comes from the JSON API
//! ([`api`]). Nothing a request says reaches the file system: the files
//! read are those named on the command line, read before the first
//! request, and nothing is ever written.

mod api;
mod pages;
mod params;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, Result};
use axum::routing::get;
use axum::Router;
use kifu::batch::Seen;
use kifu::db::{Database, Prepared};

use super::io::InputArgs;
use super::run::{run_inputs, Out, Replayed};
use super::status::Outcome;
use super::{output, report};

/// Browse games by position in a web page: each next move's games and
/// results on its square, the games that reached the position, a click to
/// open one.
///
/// Reads the files once (any format; the filters choose the games) and
/// serves a local page and a JSON API (the README documents it) until
/// Ctrl-C. It listens on 127.0.0.1 only, unless --bind says otherwise; it
/// never writes a file and reads no other file than those given.
///
/// Examples:
///   kifu serve WTH_*.wtb
///   kifu serve WTH_*.wtb --port 8080 --year 2000..2025
///   kifu serve games.pgn --bind 0.0.0.0
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// The port to listen on (0: any free port; the address is printed).
    #[arg(long, value_name = "P", default_value_t = 8064)]
    port: u16,

    /// The address to listen on. Anything but a loopback address lets
    /// other machines read the games.
    #[arg(long, value_name = "ADDR", default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    bind: IpAddr,

    /// Load each game once: leave out games whose moves repeat an earlier
    /// game's, turned or mirrored or not.
    #[arg(long)]
    unique: bool,

    #[command(flatten)]
    input: InputArgs,
}

/// What every request shares: the games, and the slots for lookups.
pub struct App {
    db: Database,
    /// Lookups running at once; more wait for a slot.
    lookups: tokio::sync::Semaphore,
    /// Whether requests must name this machine (a loopback address) in
    /// their `Host`: a page of another site cannot then reach the API
    /// through a name that leads here.
    loopback_only: bool,
    /// The last lookups, most recent last ([`api`]'s `cached`).
    cache: std::sync::Mutex<std::collections::VecDeque<(String, CachedLookup)>>,
}

/// A lookup being made or made.
type CachedLookup = Arc<tokio::sync::OnceCell<Arc<kifu::db::Lookup>>>;

/// Lookups kept: 8 bytes a game that reached the position, so at most
/// 8 × 12 MB over 1.5 million games at the start.
const CACHED: usize = 8;

/// Lookups that may run at once: each one's work is bounded, and so is
/// the memory of those that wait.
const LOOKUPS: usize = 16;

/// Reads every input into a database.
fn load(args: &Args) -> Result<(Database, super::run::Totals)> {
    let selection = args.input.selection(true)?;
    let mut db = Database::new();
    let mut current: Option<(String, u64)> = None;
    let mut source = 0;
    let job = &mut Replayed {
        options: args.input.options().counting(),
        selection: &selection,
        unique: args.unique.then(Seen::default),
        work: |g: &super::run::Replay<'_>| Out {
            item: Some((
                g.source.to_owned(),
                Prepared::new(g.record, g.report, g.found.opening),
            )),
            notes: Vec::new(),
        },
        sink: |(name, game): (String, Prepared)| {
            let index = game.index();
            // A new input, or the same file named twice: its own source.
            let same = matches!(&current, Some((n, last)) if *n == name && *last < index);
            if !same {
                source = db.add_source(&name);
            }
            current = Some((name, index));
            db.push(source, game);
            Ok(())
        },
    };
    let totals = run_inputs(&args.input, job)?;
    db.finish();
    Ok((db, totals))
}

pub fn run(args: Args) -> Result<Outcome> {
    let started = Instant::now();
    let (db, totals) = load(&args)?;
    eprintln!("kifu: {}", report::tally_line(&totals));
    if totals.failed {
        anyhow::bail!("not serving: an input could not be read");
    }
    let loaded = started.elapsed();
    let address = SocketAddr::new(args.bind, args.port);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the server's threads")?;
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind(address))
        .with_context(|| format!("cannot listen on {address} (another port: --port)"))?;
    let bound = listener.local_addr().unwrap_or(address);
    if !args.bind.is_loopback() {
        eprintln!(
            "kifu: warning: listening on {bound}, not on a loopback address: \
             anyone who can reach this machine can read the games"
        );
    }
    let games = db.len();
    let heap = db.heap_bytes();
    let app = Arc::new(App {
        db,
        lookups: tokio::sync::Semaphore::new(LOOKUPS),
        loopback_only: args.bind.is_loopback(),
        cache: std::sync::Mutex::new(std::collections::VecDeque::new()),
    });
    let router = Router::new()
        .route("/", get(pages::browser))
        .route("/view", get(pages::viewer))
        .route("/assets/{name}", get(pages::asset))
        .route("/api/explore", get(api::explore))
        .route("/api/games", get(api::games))
        .route("/api/game", get(api::game))
        .route("/api/info", get(api::info))
        .fallback(pages::not_found)
        .layer(axum::middleware::from_fn_with_state(
            Arc::clone(&app),
            pages::guard,
        ))
        .with_state(app);
    let stop = Arc::new(tokio::sync::Notify::new());
    {
        let stop = Arc::clone(&stop);
        let count = std::sync::atomic::AtomicU32::new(0);
        output::on_interrupt(move || {
            if count.fetch_add(1, std::sync::atomic::Ordering::SeqCst) > 0 {
                // A second Ctrl-C while requests finish: stop now.
                std::process::exit(130);
            }
            stop.notify_one();
        });
    }
    eprintln!(
        "kifu: {games} games loaded in {:.2} s (about {} MiB); serving http://{bound}/ (Ctrl-C stops)",
        loaded.as_secs_f64(),
        heap.div_ceil(1 << 20)
    );
    runtime.block_on(async move {
        axum::serve(listener, router)
            .with_graceful_shutdown(async move { stop.notified().await })
            .await
    })?;
    eprintln!("kifu: stopped");
    Ok(Outcome::Valid)
}
