//! The pages and their files (the front-end of `web/`, embedded in the
//! binary), the answer for any other path, and what every response
//! carries.

use std::sync::Arc;

use axum::extract::{Path, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::api::ApiError;
use super::App;

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

/// Whether `host` (a `Host` header) names this machine by a loopback
/// name or address.
fn loopback_host(host: &str) -> bool {
    let name = match host.strip_prefix('[') {
        // An IPv6 address, `[::1]:8064`.
        Some(rest) => rest.split(']').next().unwrap_or(""),
        None => host.rsplit_once(':').map_or(host, |(name, _)| name),
    };
    name.eq_ignore_ascii_case("localhost")
        || name
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// Before every request: on a loopback address, only requests that name
/// this machine (no page of another site reaches the API through a name
/// that leads here); after: headers that keep the pages to themselves.
pub async fn guard(State(app): State<Arc<App>>, request: Request, next: Next) -> Response {
    if app.loopback_only {
        let host = request
            .headers()
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .unwrap_or("");
        if !loopback_host(host) {
            return ApiError::status(
                StatusCode::FORBIDDEN,
                None,
                format!("this server answers requests for 127.0.0.1 or localhost, not {host:?}"),
            )
            .into_response();
        }
    }
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; img-src 'self' data:; frame-ancestors 'self'; form-action 'self'",
        ),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    response
}

#[cfg(test)]
mod tests {
    use super::loopback_host;

    #[test]
    fn loopback_hosts_are_this_machine_by_name_or_address() {
        for host in [
            "127.0.0.1:8064",
            "localhost:1",
            "LOCALHOST",
            "[::1]:8064",
            "127.1.2.3",
        ] {
            assert!(loopback_host(host), "{host}");
        }
        for host in [
            "example.com",
            "evil.localhost.example:80",
            "10.0.0.1:8064",
            "",
            "[::2]:1",
        ] {
            assert!(!loopback_host(host), "{host}");
        }
    }
}
