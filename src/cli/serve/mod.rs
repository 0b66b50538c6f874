//! `kifu serve`: the database browser, a local web page over the games of
//! the files given (SPEC section 11).
//!
//! The games are read once at start-up into a [`kifu::db::Database`]; the
//! page (`/`) and the game viewer (`/view`) are the front-end of `web/`,
//! embedded in the binary; their data comes from the JSON API
//! ([`api`]). Nothing a request says reaches the file system: the files
//! read are those named on the command line (and `--index`), read before
//! the first request, and nothing is written while serving. With
//! `--save-index` it only builds the position index, saves it and exits.

mod api;
mod app;
mod error;
mod hosts;
mod net;
mod pages;
mod params;

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use axum::routing::get;
use axum::Router;
use kifu::batch::Seen;
use kifu::db::{Database, Prepared};

use self::app::App;
use self::pages::guarded;
use super::io::InputArgs;
use super::run::{run_inputs, Out, Replayed};
use super::status::Outcome;
use super::{output, report};

/// Browse games by position in a web page: each next move's games and
/// results on its square, the games that reached the position, a click to
/// open one.
///
/// Reads the files once (any format; the filters choose the games) and
/// serves a local page and a JSON API (docs/serve.md documents it) until
/// Ctrl-C. It listens on 127.0.0.1 only, unless --bind says otherwise;
/// it answers only requests that name it by localhost, an address or a
/// name of --allow-host; it writes no file and reads no other file than
/// those given. Slow or too many clients are cut off by the limits
/// below (a 503 with a JSON error when over them).
///
/// Examples:
///   kifu serve WTH_*.wtb
///   kifu serve big.wtb --save-index big.kidx && kifu serve big.wtb --index big.kidx
///   kifu serve WTH_*.wtb --port 8080 --year 2000..2025
///   kifu serve games.pgn --bind 0.0.0.0 --allow-host games.example.org
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

    /// A host name clients reach the server by (their requests' Host),
    /// besides localhost and addresses; repeat it, or separate names by
    /// commas. Requests naming anything else are refused (403), so that a
    /// page of another site cannot make its own name lead here (DNS
    /// rebinding). Behind a reverse proxy that passes the Host on: the
    /// site's name.
    #[arg(
        long = "allow-host",
        value_name = "NAME",
        value_delimiter = ',',
        value_parser = hosts::host_name
    )]
    allow_host: Vec<String>,

    /// Name the files in the API as given on the command line, folders
    /// included (default: by file name only, so that the answers do not
    /// show this machine's folders).
    #[arg(long)]
    show_paths: bool,

    /// Connections open at once; one more is answered 503 at once.
    #[arg(long, value_name = "N", default_value_t = 512,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    max_connections: u32,

    /// Seconds a client has to send a whole request head, from its
    /// connection or from the previous answer on it (a connection kept
    /// open in between is closed then).
    #[arg(long, value_name = "SECS", default_value = "10", value_parser = seconds)]
    header_timeout: Duration,

    /// Seconds an answer may wait for the client to read it before the
    /// connection is closed.
    #[arg(long, value_name = "SECS", default_value = "30", value_parser = seconds)]
    idle_timeout: Duration,

    /// Seconds a request may take to be answered; past them the answer is
    /// a 503 (the lookup goes on, and is kept for the next request).
    #[arg(long, value_name = "SECS", default_value = "30", value_parser = seconds)]
    request_timeout: Duration,

    /// Load each game once: leave out games whose moves repeat an earlier
    /// game's, turned or mirrored or not.
    #[arg(long)]
    unique: bool,

    /// Read the position index from FILE, saved by --save-index over the
    /// same files and filters, instead of building it: over 1.5 million
    /// games the server starts in about a second rather than several. An
    /// index of other games (a file changed, other filters) or a damaged
    /// one is left aside with a warning, and the index is built.
    #[arg(long, value_name = "FILE", conflicts_with = "save_index")]
    index: Option<PathBuf>,

    /// Read the files, build the position index, save it to FILE for
    /// --index, and exit without serving. FILE is written under a
    /// temporary name and renamed; it may not be one of the inputs.
    #[arg(long, value_name = "FILE")]
    save_index: Option<PathBuf>,

    #[command(flatten)]
    input: InputArgs,
}

/// A number of seconds: more than 0, at most a day; decimals allowed.
fn seconds(text: &str) -> Result<Duration, String> {
    let value: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("{text:?} is not a number of seconds"))?;
    if !(value > 0.0 && value <= 86_400.0) {
        return Err(format!(
            "{text}: give more than 0 and at most 86400 seconds"
        ));
    }
    Ok(Duration::from_secs_f64(value))
}

/// How each input is named in the API: as given with `--show-paths`,
/// else by its file name, with as many of its folders as tell it apart
/// from another input of the same file name.
fn shown_names(files: &[String], show_paths: bool) -> HashMap<String, String> {
    let parts = |file: &str| -> Vec<String> {
        Path::new(file)
            .components()
            .filter_map(|c| match c {
                std::path::Component::Normal(part) => Some(part.to_string_lossy().into_owned()),
                _ => None,
            })
            .collect()
    };
    let mut distinct: Vec<&String> = files.iter().collect();
    distinct.sort();
    distinct.dedup();
    let all: Vec<Vec<String>> = distinct.iter().map(|f| parts(f)).collect();
    let tail = |p: &[String], n: usize| p[p.len().saturating_sub(n)..].join("/");
    let mut names = HashMap::new();
    for (file, mine) in distinct.iter().zip(&all) {
        let name = if show_paths || mine.is_empty() {
            (*file).clone()
        } else {
            let mut n = 1;
            while n < mine.len()
                && all
                    .iter()
                    .any(|other| other != mine && tail(other, n) == tail(mine, n))
            {
                n += 1;
            }
            tail(mine, n)
        };
        names.insert((*file).clone(), name);
    }
    names
}

/// Readies the database for lookups: with the index of `--index` when
/// it is that of these games (then `true`), else building it.
fn finish(db: &mut Database, args: &Args) -> bool {
    let Some(path) = &args.index else {
        db.finish();
        return false;
    };
    let read = std::fs::File::open(path)
        .map_err(kifu::db::SavedIndexError::from)
        .and_then(|file| db.finish_from(file));
    if let Err(e) = read {
        eprintln!(
            "kifu: warning: {}: {e}; building the index (remake the file with --save-index)",
            path.display()
        );
        db.finish();
        return false;
    }
    true
}

/// `--save-index`: the index of the games loaded, saved.
fn save_index(db: &Database, args: &Args, target: &Path) -> Result<Outcome> {
    let mut out = output::AtomicFile::create(target)?;
    db.save_index(&mut out)
        .with_context(|| format!("cannot write {}", target.display()))?;
    out.commit()?;
    if !args.input.quiet {
        eprintln!(
            "kifu: the position index of {} games saved to {shown} (serve them with --index {shown})",
            db.len(),
            shown = target.display()
        );
    }
    Ok(Outcome::Valid)
}

/// Reads every input into a database.
fn load(args: &Args) -> Result<(Database, super::run::Totals, bool)> {
    let selection = args.input.selection(true)?;
    let names = shown_names(&args.input.files(), args.show_paths);
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
                source = db.add_source(names.get(&name).unwrap_or(&name));
            }
            current = Some((name, index));
            db.push(source, game);
            Ok(())
        },
    };
    let totals = run_inputs(&args.input, job)?;
    let indexed = finish(&mut db, args);
    Ok((db, totals, indexed))
}

pub fn run(args: Args) -> Result<Outcome> {
    let started = Instant::now();
    if let Some(target) = &args.save_index {
        output::refuse_inputs_as_outputs(&args.input.files(), &[output::Target::File(target)])?;
    }
    let (db, totals, indexed) = load(&args)?;
    eprintln!("kifu: {}", report::tally_line(&totals));
    if totals.failed {
        anyhow::bail!("not serving: an input could not be read");
    }
    if let Some(target) = &args.save_index {
        return save_index(&db, &args, target);
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
    let loopback = args.bind.is_loopback();
    if !loopback {
        eprintln!(
            "kifu: warning: listening on {bound}, not on a loopback address: \
             anyone who can reach this machine can read the games"
        );
        if args.allow_host.is_empty() {
            eprintln!(
                "kifu: note: requests are answered when they name this machine by \
                 an address; a host name must be given by --allow-host NAME"
            );
        }
    }
    let wanted = args.max_connections as usize;
    let (max_connections, files) = net::connections_allowed(wanted);
    if max_connections < wanted {
        eprintln!(
            "kifu: warning: at most {max_connections} connections at once, not {wanted}: \
             {} files may be open (ulimit -n)",
            files.unwrap_or(0)
        );
    }
    let limits = net::Limits {
        max_connections,
        header_timeout: args.header_timeout,
        idle_timeout: args.idle_timeout,
    };
    let games = db.len();
    let heap = db.heap_bytes();
    let hosts = hosts::Hosts {
        loopback,
        names: args.allow_host.clone(),
    };
    let app = App::new(db, hosts, args.request_timeout);
    let routes = Router::new()
        .route("/", get(pages::browser))
        .route("/view", get(pages::viewer))
        .route("/assets/{name}", get(pages::asset))
        .route("/api/explore", get(api::explore))
        .route("/api/games", get(api::games))
        .route("/api/game", get(api::game))
        .route("/api/info", get(api::info));
    let router = guarded(routes, app);
    let (stop, stopped) = tokio::sync::watch::channel(false);
    {
        let count = std::sync::atomic::AtomicU32::new(0);
        output::on_interrupt(move || {
            if count.fetch_add(1, std::sync::atomic::Ordering::SeqCst) > 0 {
                // A second Ctrl-C while answers finish: stop now.
                std::process::exit(130);
            }
            stop.send_replace(true);
        });
    }
    let index = match (&args.index, indexed) {
        (Some(path), true) => format!(", the index read from {}", path.display()),
        _ => String::new(),
    };
    eprintln!(
        "kifu: {games} games loaded in {:.2} s (about {} MiB{index}); serving http://{bound}/ (Ctrl-C stops)",
        loaded.as_secs_f64(),
        heap.div_ceil(1 << 20)
    );
    runtime.block_on(net::serve(listener, router, limits, stopped));
    // Lookups still running on the blocking pool are left to the exit.
    runtime.shutdown_background();
    eprintln!("kifu: stopped");
    Ok(Outcome::Valid)
}

#[cfg(test)]
mod tests {
    use super::{seconds, shown_names};

    #[test]
    fn inputs_are_shown_by_file_name_unless_paths_are_asked() {
        let files: Vec<String> = [
            "../corpus/wthor/WTH_2004.wtb",
            "/home/me/games/a.pgn",
            "backup/games/a.pgn",
            "b.txt",
            "-",
        ]
        .map(String::from)
        .to_vec();
        let names = shown_names(&files, false);
        let name = |f: &str| names[f].as_str();
        assert_eq!(name("../corpus/wthor/WTH_2004.wtb"), "WTH_2004.wtb");
        assert_eq!(name("/home/me/games/a.pgn"), "me/games/a.pgn");
        assert_eq!(name("backup/games/a.pgn"), "backup/games/a.pgn");
        assert_eq!(name("b.txt"), "b.txt");
        assert_eq!(name("-"), "-");
        let paths = shown_names(&files, true);
        assert!(files.iter().all(|f| paths[f] == *f));
    }

    #[test]
    fn timeouts_are_seconds_over_zero() {
        assert_eq!(seconds("2.5").unwrap().as_millis(), 2500);
        for bad in ["0", "-1", "ten", "NaN", "inf", "100000"] {
            assert!(seconds(bad).is_err(), "{bad}");
        }
    }
}
