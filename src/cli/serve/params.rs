//! A request's query string read into typed values, each bad one named:
//! the parameter, and what is wrong with it.

use std::collections::BTreeMap;

use kifu::record::select::{Filter, FILTER_NAMES, TEXT_FILTERS};
use kifu::{Position, PositionQuery};

use crate::cli::serve::error::ApiError;

/// The longest query string taken (a board is 67 characters, the longest
/// transcript about 240).
const MAX_QUERY: usize = 4096;
/// The longest value of a text filter.
const MAX_TEXT: usize = 200;
/// The most games one page lists (SPEC section 11).
pub const MAX_LIMIT: usize = 1000;
/// Games a page lists when `limit` is not given.
const DEFAULT_LIMIT: usize = 50;

/// A query string's parameters, each given once.
pub struct Params(BTreeMap<String, String>);

impl Params {
    /// Reads `raw` (the part after `?`), taking only the parameters
    /// `known` names.
    pub fn parse(raw: Option<&str>, known: &[&str]) -> Result<Params, ApiError> {
        let raw = raw.unwrap_or("");
        if raw.len() > MAX_QUERY {
            return Err(ApiError::bad(
                "query",
                format!(
                    "the query string is {} bytes; at most {MAX_QUERY} are taken",
                    raw.len()
                ),
            ));
        }
        let mut map = BTreeMap::new();
        for (name, value) in form_urlencoded::parse(raw.as_bytes()) {
            if !known.contains(&name.as_ref()) {
                return Err(ApiError::bad(
                    &name,
                    format!("unknown parameter; this route takes {}", known.join(", ")),
                ));
            }
            if map.insert(name.to_string(), value.to_string()).is_some() {
                return Err(ApiError::bad(&name, "given more than once".to_owned()));
            }
        }
        Ok(Params(map))
    }

    /// The value of `name`, if given.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(String::as_str)
    }

    /// The parameters but those named in `except`, as one text (`a=1&b=2`,
    /// in order of name): what a lookup's answer depends on.
    pub fn key(&self, except: &[&str]) -> String {
        let mut out = form_urlencoded::Serializer::new(String::new());
        for (name, value) in &self.0 {
            if !except.contains(&name.as_str()) {
                out.append_pair(name, value);
            }
        }
        out.finish()
    }

    /// The value of `name`, which must be given.
    pub fn required(&self, name: &str) -> Result<&str, ApiError> {
        self.get(name)
            .ok_or_else(|| ApiError::bad(name, "missing".to_owned()))
    }

    /// The position asked about: `moves` from the start or a `board`
    /// (default: the start).
    pub fn position(&self) -> Result<PositionQuery, ApiError> {
        match (self.get("moves"), self.get("board")) {
            (Some(_), Some(_)) => Err(ApiError::bad(
                "board",
                "give the position as moves or as a board, not both".to_owned(),
            )),
            (Some(moves), None) => {
                PositionQuery::from_moves(moves).map_err(|e| ApiError::bad("moves", e.to_string()))
            }
            (None, Some(board)) => {
                PositionQuery::from_board(board).map_err(|e| ApiError::bad("board", e.to_string()))
            }
            (None, None) => Ok(PositionQuery::new(Position::start())),
        }
    }

    /// The filters, each checked as the command line checks its flag.
    pub fn filter(&self) -> Result<Filter, ApiError> {
        let mut b = Filter::builder();
        for name in FILTER_NAMES {
            if let Some(text) = self.get(name) {
                if TEXT_FILTERS.contains(&name) && text.chars().count() > MAX_TEXT {
                    return Err(ApiError::bad(
                        name,
                        format!("longer than {MAX_TEXT} characters"),
                    ));
                }
                b = b
                    .set(name, text)
                    .map_err(|e| ApiError::bad(name, e.reason))?;
            }
        }
        Ok(b.build())
    }

    /// A whole number no greater than `max`; `default` when not given.
    pub fn number(&self, name: &str, default: u64, max: u64) -> Result<u64, ApiError> {
        let Some(text) = self.get(name) else {
            return Ok(default);
        };
        let n: u64 = text
            .parse()
            .map_err(|_| ApiError::bad(name, format!("{text:?} is not a whole number")))?;
        if n > max {
            return Err(ApiError::bad(
                name,
                format!("{n} is over the limit of {max}"),
            ));
        }
        Ok(n)
    }

    /// `offset` and `limit` of a page of games.
    pub fn page(&self) -> Result<(u64, usize), ApiError> {
        let offset = self.number("offset", 0, u64::from(u32::MAX))?;
        let limit = self.number("limit", DEFAULT_LIMIT as u64, MAX_LIMIT as u64)?;
        if limit == 0 {
            return Err(ApiError::bad(
                "limit",
                "0 games: ask for 1 to 1000".to_owned(),
            ));
        }
        Ok((offset, limit as usize))
    }
}
