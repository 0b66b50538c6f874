//! The JSON API (SPEC section 11): `/api/explore`, `/api/games`,
//! `/api/game` and `/api/info`. Each lookup replays the games the
//! database's position index names (all of them at most), on the blocking
//! pool, a bounded number at a time.

use std::sync::Arc;

use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use kifu::record::select::FILTER_NAMES;

use crate::cli::serve::app::{App, CACHED, LOOKUPS, QUEUED};
use crate::cli::serve::error::{json_headers, ApiError};
use crate::cli::serve::params::Params;

/// A JSON body, as a line.
fn json(text: String) -> Response {
    (StatusCode::OK, json_headers(), text).into_response()
}

/// A lookup let in ([`admit`]): it may wait for a slot. The permit is
/// only held, until the lookup ends.
pub struct Admitted(#[allow(dead_code)] tokio::sync::OwnedSemaphorePermit);

/// Lets a lookup in, or answers 503 at once when [`LOOKUPS`] run
/// and [`QUEUED`] wait already: the work waiting stays bounded,
/// and a client is told at once rather than left waiting.
fn admit(app: &Arc<App>) -> Result<Admitted, ApiError> {
    Arc::clone(&app.admitted)
        .try_acquire_owned()
        .map(Admitted)
        .map_err(|_| {
            ApiError::status(
                StatusCode::SERVICE_UNAVAILABLE,
                None,
                format!(
                    "busy: {} lookups under way and {} waiting; try again in a moment",
                    LOOKUPS, QUEUED
                ),
            )
        })
}

/// Runs a lookup on the blocking pool once a slot is free. The slot is
/// held until the work ends, even when the request that asked for it
/// gave up (its time limit): the work under way stays bounded.
async fn lookup<T, F>(app: &Arc<App>, admitted: Admitted, work: F) -> Result<T, ApiError>
where
    T: Send + 'static,
    F: FnOnce(&App) -> T + Send + 'static,
{
    let slot = Arc::clone(&app.lookups)
        .acquire_owned()
        .await
        .map_err(|_| ApiError::status(StatusCode::SERVICE_UNAVAILABLE, None, "stopping".into()))?;
    let app = Arc::clone(app);
    tokio::task::spawn_blocking(move || {
        let answer = work(&app);
        drop((slot, admitted));
        answer
    })
    .await
    .map_err(|_| {
        ApiError::status(
            StatusCode::INTERNAL_SERVER_ERROR,
            None,
            "the lookup failed".into(),
        )
    })
}

/// The games that reached the asked position under the asked filters,
/// found once for `/api/explore` and `/api/games` alike (a page asks
/// both at once) and kept for the next requests: the last few lookups are
/// kept ([`CACHED`]), and two requests for the same one share its
/// lookup.
async fn cached(
    app: &Arc<App>,
    params: &Params,
    query: kifu::PositionQuery,
    filter: kifu::record::select::Filter,
) -> Result<Arc<kifu::db::Lookup>, ApiError> {
    let key = format!(
        "{}|{}",
        query.target(),
        params.key(&["moves", "board", "offset", "limit"])
    );
    let cell = {
        let mut cache = app.cache.lock().unwrap_or_else(|p| p.into_inner());
        let found = cache.iter().position(|(k, _)| *k == key);
        match found.and_then(|at| cache.remove(at)) {
            Some(entry) => {
                let cell = Arc::clone(&entry.1);
                cache.push_back(entry);
                cell
            }
            None => {
                let cell = Arc::new(tokio::sync::OnceCell::new());
                cache.push_back((key, Arc::clone(&cell)));
                while cache.len() > CACHED {
                    cache.pop_front();
                }
                cell
            }
        }
    };
    if let Some(found) = cell.get() {
        return Ok(Arc::clone(found));
    }
    let admitted = admit(app)?;
    // On a task of its own: a request that gives up (its time limit)
    // leaves the lookup to finish into the cache, for the next one.
    let app = Arc::clone(app);
    let work = async move {
        cell.get_or_try_init(|| {
            lookup(&app, admitted, move |app| {
                Arc::new(app.db.lookup(&query, &filter))
            })
        })
        .await
        .cloned()
    };
    tokio::spawn(work).await.unwrap_or_else(|_| {
        Err(ApiError::status(
            StatusCode::INTERNAL_SERVER_ERROR,
            None,
            "the lookup failed".into(),
        ))
    })
}

fn known(extra: &[&'static str]) -> Vec<&'static str> {
    let mut names = vec!["moves", "board"];
    names.extend_from_slice(&FILTER_NAMES);
    names.extend_from_slice(extra);
    names
}

/// `GET /api/explore?moves=…|board=…&filters`: what `kifu explore
/// --format json` prints for the same files and query.
pub async fn explore(State(app): State<Arc<App>>, RawQuery(raw): RawQuery) -> Response {
    let run = async {
        let params = Params::parse(raw.as_deref(), &known(&[]))?;
        let query = params.position()?;
        let filter = params.filter()?;
        // A position many games reach: counted at start, no replay.
        let answer = match app.db.popular_explore(&query, &filter) {
            Some(answer) => answer,
            None => cached(&app, &params, query, filter)
                .await?
                .explored(&app.db),
        };
        let text = serde_json::to_string(&answer).unwrap_or_default() + "\n";
        Ok::<_, ApiError>(json(text))
    };
    run.await.unwrap_or_else(IntoResponse::into_response)
}

/// `GET /api/games?moves=…&offset=0&limit=50&filters`: the games that
/// reached the position, in input order, with the total.
pub async fn games(State(app): State<Arc<App>>, RawQuery(raw): RawQuery) -> Response {
    let run = async {
        let params = Params::parse(raw.as_deref(), &known(&["offset", "limit"]))?;
        let query = params.position()?;
        let filter = params.filter()?;
        let (offset, limit) = params.page()?;
        let mut page = None;
        if app.db.popular_explore(&query, &filter).is_some() {
            // A position many games reach: the page from the games in
            // input order, replayed until it is full, and the total from
            // the counts; no lookup of all its games to keep.
            let admitted = admit(&app)?;
            let (query, filter) = (query.clone(), filter.clone());
            page = lookup(&app, admitted, move |app| {
                app.db.popular_games(&query, &filter, offset, limit)
            })
            .await?;
        }
        let page = match page {
            Some(page) => page,
            None => cached(&app, &params, query, filter)
                .await?
                .page(&app.db, offset, limit),
        };
        #[derive(Serialize)]
        struct Body {
            total: u64,
            offset: u64,
            limit: usize,
            games: Vec<kifu::db::explore::Listing>,
        }
        let body = Body {
            total: page.total,
            offset,
            limit,
            games: page.games,
        };
        Ok::<_, ApiError>(json(
            serde_json::to_string(&body).unwrap_or_default() + "\n",
        ))
    };
    run.await.unwrap_or_else(IntoResponse::into_response)
}

/// `GET /api/game?source=…&index=N`: one game as its JSON Lines object.
pub async fn game(State(app): State<Arc<App>>, RawQuery(raw): RawQuery) -> Response {
    let run = async {
        let params = Params::parse(raw.as_deref(), &["source", "index"])?;
        let source = params.required("source")?.to_owned();
        params.required("index")?;
        let index = params.number("index", 0, u64::MAX)?;
        if !app.db.has_source(&source) {
            return Err(ApiError::bad(
                "source",
                format!("{source:?} is not one of the loaded files"),
            ));
        }
        let admitted = admit(&app)?;
        let line = lookup(&app, admitted, move |app| {
            app.db.game_json(&source, index).map(|l| (l, source))
        })
        .await?;
        match line {
            Some((text, _)) => Ok(json(text + "\n")),
            None => Err(ApiError::status(
                StatusCode::NOT_FOUND,
                Some("index"),
                format!("no game {index} in this file (among the games loaded)"),
            )),
        }
    };
    run.await.unwrap_or_else(IntoResponse::into_response)
}

/// `GET /api/info`: the files loaded and how many games.
pub async fn info(State(app): State<Arc<App>>, RawQuery(raw): RawQuery) -> Response {
    if let Err(err) = Params::parse(raw.as_deref(), &[]) {
        return err.into_response();
    }
    #[derive(Serialize)]
    struct Body<'a> {
        games: usize,
        sources: &'a [String],
        version: &'static str,
    }
    let body = Body {
        games: app.db.len(),
        sources: app.db.sources(),
        version: env!("CARGO_PKG_VERSION"),
    };
    json(serde_json::to_string(&body).unwrap_or_default() + "\n")
}
