//! The API's errors: a status, the parameter at fault and why, as a JSON
//! body (every refusal of the server is one).

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

/// A request that cannot be answered: its status, the parameter at fault
/// (if one is) and why.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    parameter: Option<String>,
    message: String,
}

impl ApiError {
    /// A 400 naming `parameter`.
    pub fn bad(parameter: &str, message: String) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            parameter: Some(parameter.to_owned()),
            message,
        }
    }

    /// Another status, with a message.
    pub fn status(status: StatusCode, parameter: Option<&str>, message: String) -> ApiError {
        ApiError {
            status,
            parameter: parameter.map(str::to_owned),
            message,
        }
    }
}

impl ApiError {
    /// Its status.
    pub fn status_code(&self) -> StatusCode {
        self.status
    }

    /// Its body: `{"error": …, "parameter": …}` and a line end.
    pub fn body(&self) -> String {
        #[derive(Serialize)]
        struct Body<'a> {
            error: String,
            #[serde(skip_serializing_if = "Option::is_none")]
            parameter: Option<&'a str>,
        }
        let body = Body {
            error: match &self.parameter {
                Some(p) => format!("{p}: {}", self.message),
                None => self.message.clone(),
            },
            parameter: self.parameter.as_deref(),
        };
        serde_json::to_string(&body).unwrap_or_default() + "\n"
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status, json_headers(), self.body()).into_response();
        if self.status == StatusCode::SERVICE_UNAVAILABLE {
            // Busy or slow for now: a client may try again.
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, header::HeaderValue::from_static("1"));
        }
        response
    }
}

pub fn json_headers() -> [(header::HeaderName, &'static str); 2] {
    [
        (header::CONTENT_TYPE, "application/json; charset=utf-8"),
        (header::CACHE_CONTROL, "no-store"),
    ]
}
