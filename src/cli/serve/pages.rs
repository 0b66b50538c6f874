//! The pages and their files (the front-end of `web/`, embedded in the
//! binary), the answer for any other path, and what every response
//! carries.

use std::sync::Arc;

use axum::extract::{Path, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::cli::serve::error::ApiError;
use axum::Router;

use crate::cli::serve::app::App;

fn html(text: &'static str) -> Response {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], text).into_response()
}

/// `/`: the database browser.
pub async fn browser() -> Response {
    html(kifu::web::BROWSER_PAGE)
}

/// `/view`: the game viewer, for one game of the API
/// (`/view#source=…&index=N&move=M`).
pub async fn viewer() -> Response {
    html(kifu::web::VIEWER_PAGE)
}

/// `/assets/NAME`: a file of the front-end, by name only: the names are
/// those embedded, never a path.
pub async fn asset(Path(name): Path<String>) -> Response {
    match kifu::web::asset(&name) {
        Some(asset) => ([(header::CONTENT_TYPE, asset.content_type)], asset.text).into_response(),
        None => ApiError::status(
            StatusCode::NOT_FOUND,
            None,
            format!("no such file: /assets/{name}"),
        )
        .into_response(),
    }
}

/// Any other path.
pub async fn not_found(request: Request) -> Response {
    ApiError::status(
        StatusCode::NOT_FOUND,
        None,
        format!("no such page: {}", request.uri().path()),
    )
    .into_response()
}

/// Any other method than GET or HEAD on a page's path.
pub async fn method_not_allowed(request: Request) -> Response {
    let mut response = ApiError::status(
        StatusCode::METHOD_NOT_ALLOWED,
        None,
        format!(
            "{}: this server answers GET and HEAD only",
            request.method()
        ),
    )
    .into_response();
    response
        .headers_mut()
        .insert(header::ALLOW, HeaderValue::from_static("GET,HEAD"));
    response
}

/// The headers every answer carries, those of [`super::net`]'s included:
/// the pages keep to themselves (their own scripts, styles and frames).
pub const SECURITY_HEADERS: [(&str, &str); 3] = [
    ("x-content-type-options", "nosniff"),
    (
        "content-security-policy",
        "default-src 'self'; img-src 'self' data:; frame-ancestors 'self'; form-action 'self'",
    ),
    ("referrer-policy", "no-referrer"),
];

/// Around every request: the `Host` check ([`Hosts`]), the time limit,
/// and after, headers that keep the pages to themselves.
pub async fn guard(State(app): State<Arc<App>>, request: Request, next: Next) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .map(|h| String::from_utf8_lossy(h.as_bytes()).into_owned())
        .unwrap_or_default();
    let mut response = if !app.hosts.allow(&host) {
        ApiError::status(
            StatusCode::FORBIDDEN,
            None,
            format!(
                "this server answers requests for {} (--allow-host), not {host:?}",
                app.hosts.described()
            ),
        )
        .into_response()
    } else {
        match tokio::time::timeout(app.request_timeout, next.run(request)).await {
            Ok(response) => response,
            Err(_) => ApiError::status(
                StatusCode::SERVICE_UNAVAILABLE,
                None,
                format!(
                    "no answer within {} s (--request-timeout); try again in a moment",
                    app.request_timeout.as_secs_f64()
                ),
            )
            .into_response(),
        }
    };
    let headers = response.headers_mut();
    for (name, value) in SECURITY_HEADERS {
        headers.insert(name, HeaderValue::from_static(value));
    }
    response
}

/// `routes` with what every request goes through: a JSON 404 and 405,
/// the `Host` check, the time limit and the security headers
/// ([`guard`]).
pub fn guarded(routes: Router<Arc<App>>, app: Arc<App>) -> Router {
    routes
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(axum::middleware::from_fn_with_state(
            Arc::clone(&app),
            guard,
        ))
        .with_state(app)
}
