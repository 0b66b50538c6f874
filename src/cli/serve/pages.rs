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

/// The names requests may give this server in their `Host`: a page of
/// another site that makes its own name lead here (DNS rebinding) is
/// refused, since it names itself.
#[derive(Debug)]
pub struct Hosts {
    /// Listening on a loopback address: only loopback addresses, besides
    /// the names.
    pub loopback: bool,
    /// `localhost` and the names of `--allow-host`, lowercase.
    pub names: Vec<String>,
}

impl Hosts {
    /// Whether `host` (a `Host` header) is one of them, port aside. Any
    /// address is one unless the server is on a loopback address: a page
    /// at an address is the server itself, so no rebinding goes through
    /// one.
    pub fn allow(&self, host: &str) -> bool {
        let name = match host.strip_prefix('[') {
            // An IPv6 address, `[::1]:8064`.
            Some(rest) => rest.split(']').next().unwrap_or(""),
            None => host.rsplit_once(':').map_or(host, |(name, _)| name),
        };
        let name = name.strip_suffix('.').unwrap_or(name);
        if let Ok(ip) = name.parse::<std::net::IpAddr>() {
            return ip.is_loopback() || !self.loopback;
        }
        name.eq_ignore_ascii_case("localhost")
            || self.names.iter().any(|n| n.eq_ignore_ascii_case(name))
    }

    /// What [`Hosts::allow`] takes, for the refusal.
    fn described(&self) -> String {
        let mut names = vec!["localhost".to_owned()];
        names.extend(self.names.iter().cloned());
        names.push(if self.loopback {
            "a loopback address".to_owned()
        } else {
            "an address".to_owned()
        });
        names.join(", ")
    }
}

/// A value of `--allow-host`: a host name or an address, without a port.
pub fn host_name(text: &str) -> Result<String, String> {
    let bare = text.strip_prefix('[').and_then(|t| t.strip_suffix(']'));
    if bare.unwrap_or(text).parse::<std::net::IpAddr>().is_ok() {
        return Ok(bare.unwrap_or(text).to_ascii_lowercase());
    }
    let name = text.strip_suffix('.').unwrap_or(text);
    let label_ok = |label: &str| {
        !label.is_empty()
            && label.len() <= 63
            && label
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-')
    };
    if name.len() <= 253 && name.split('.').all(label_ok) {
        return Ok(name.to_ascii_lowercase());
    }
    Err(format!(
        "{text:?} is not a host name (letters, digits, '-' and '.') or an address; \
         give it without a scheme, port or path, e.g. games.example.org"
    ))
}

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

#[cfg(test)]
mod tests {
    use super::{host_name, Hosts};

    #[test]
    fn loopback_hosts_are_this_machine_by_name_or_address() {
        let hosts = Hosts {
            loopback: true,
            names: Vec::new(),
        };
        for host in [
            "127.0.0.1:8064",
            "localhost:1",
            "LOCALHOST",
            "localhost.",
            "[::1]:8064",
            "127.1.2.3",
        ] {
            assert!(hosts.allow(host), "{host}");
        }
        for host in [
            "example.com",
            "evil.localhost.example:80",
            "10.0.0.1:8064",
            "",
            "[::2]:1",
        ] {
            assert!(!hosts.allow(host), "{host}");
        }
    }

    #[test]
    fn elsewhere_the_names_given_and_any_address() {
        let hosts = Hosts {
            loopback: false,
            names: vec!["games.example.org".into()],
        };
        for host in [
            "games.example.org",
            "Games.Example.Org:8064",
            "10.0.0.1:8064",
            "[fe80::1]:80",
            "localhost:8064",
        ] {
            assert!(hosts.allow(host), "{host}");
        }
        for host in ["example.org", "evil.example", "games.example.org.evil", ""] {
            assert!(!hosts.allow(host), "{host}");
        }
    }

    #[test]
    fn allowed_hosts_are_names_or_addresses_without_ports() {
        assert_eq!(host_name("Games.Example.org").unwrap(), "games.example.org");
        assert_eq!(host_name("[::1]").unwrap(), "::1");
        assert_eq!(host_name("192.168.1.2").unwrap(), "192.168.1.2");
        for bad in [
            "",
            "games.example.org:80",
            "http://x",
            "a b",
            "*.example.org",
            "a..b",
        ] {
            assert!(host_name(bad).is_err(), "{bad}");
        }
    }
}
