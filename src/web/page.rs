//! The game page: one self-contained HTML file (`kifu show --html`) with
//! the viewer's modules inline and the games as data, replayed in the
//! page as they are opened.
//!
//! The data is one JSON object, `{"names": [...], "games": [...]}`, in a
//! `<script type="application/json">` element. Names, events and openings
//! are numbers into `names` (each text once); each game is an object with
//! short keys, those without a value left out:
//!
//! | key | what |
//! |---|---|
//! | `b`, `w`, `e`, `o` | Black, White, the event, the opening (numbers into `names`) |
//! | `d` | the date as kifu writes it (ISO 8601) |
//! | `r` | the result: `33-31`, the recorded result of an unfinished game, `invalid` |
//! | `m` | the move tokens, two characters each: a square, `--` for a pass, `??` for text that is no move |
//! | `u` | the texts of the `??` tokens: `[[index, text]]` |
//! | `n` | the legal tokens, when the record breaks the rules after them |
//! | `s` | the status: `c` complete, `i` incomplete, `x` invalid |
//! | `x` | why the game is invalid (`move 23 (black) d8: flips nothing`) |
//! | `p` | the start position, when it is not the standard one (64 squares and the side to move) |
//! | `a` | the analysis: `{"e": N, "d": D, "t": T, "m": [[index, best, value, "best moves", depth]]}`, each analysed move token's position value before it and its own value, from the mover's side; `depth` 0 for exact values, else the depth of the search that estimated them (the moves before the first position with at most N empties, when the game was judged from move 1: `d`, the search's depth, and `t`, the estimated loss from which a move counts as a mistake, are then given) |
//!
//! A 10,000-game file is about 2 MB; the page parses it once and replays
//! a game only when it is opened.
//!
//! ```
//! use kifu::formats::Format;
//! use kifu::web::page::GamePage;
//! let record = Format::Transcript.reader(&b"f5d6c3d3c4\n"[..]).next().unwrap()?;
//! let mut page = GamePage::new();
//! page.add(&record, &record.replay(), None, None);
//! let html = page.render("Two moves");
//! assert!(html.contains("\"m\":\"f5d6c3d3c4\""));
//! assert!(!html.contains("<script src"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::HashMap;

use serde::Serialize;

use crate::record::analysis::{GameAnalysis, MIDGAME_MISTAKE};
use crate::record::row::Game;
use crate::record::GameError;
use crate::{GameRecord, Move, Opening, Report, Status, Token};

/// One game of the page's data (see the module for the keys).
#[derive(Serialize, Debug, Default)]
struct PageGame {
    #[serde(skip_serializing_if = "Option::is_none")]
    b: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    w: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    e: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    d: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    o: Option<u32>,
    r: String,
    m: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    u: Vec<(usize, String)>,
    #[serde(skip_serializing_if = "Option::is_none")]
    n: Option<usize>,
    s: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    x: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    p: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    a: Option<PageAnalysis>,
}

#[derive(Serialize, Debug)]
struct PageAnalysis {
    e: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    d: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    t: Option<i32>,
    m: Vec<(usize, i32, i32, String, u32)>,
}

/// The games of a game page, gathered one by one; [`GamePage::render`]
/// writes the page.
#[derive(Debug, Default)]
pub struct GamePage {
    names: Vec<String>,
    numbers: HashMap<String, u32>,
    games: Vec<PageGame>,
}

#[derive(Serialize)]
struct Data<'a> {
    names: &'a [String],
    games: &'a [PageGame],
}

impl GamePage {
    /// A page with no games yet.
    #[must_use]
    pub fn new() -> GamePage {
        GamePage::default()
    }

    /// Games on the page.
    #[must_use]
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Whether the page has no game.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    fn name(&mut self, text: Option<&str>) -> Option<u32> {
        let text = text?;
        if let Some(&n) = self.numbers.get(text) {
            return Some(n);
        }
        let n = self.names.len() as u32;
        self.names.push(text.to_owned());
        self.numbers.insert(text.to_owned(), n);
        Some(n)
    }

    /// Adds `record`, replayed into `report`, with its opening and, when
    /// it was analysed, its analysis.
    pub fn add(
        &mut self,
        record: &GameRecord,
        report: &Report,
        opening: Option<&Opening>,
        analysis: Option<&GameAnalysis>,
    ) {
        let game = Game::new("", record, report);
        let tags = &record.tags;
        let mut m = String::with_capacity(record.moves.len() * 2);
        let mut u = Vec::new();
        for (i, mv) in record.moves.iter().enumerate() {
            match mv.token {
                Token::Move(Move::Play(square)) => m.push_str(&square.to_string()),
                Token::Move(Move::Pass) => m.push_str("--"),
                Token::Unreadable => {
                    m.push_str("??");
                    u.push((i, record.token_text(i)));
                }
            }
        }
        let legal = if record.other_board.is_some() {
            0
        } else {
            report
                .error
                .as_ref()
                .and_then(GameError::move_number)
                .map_or(record.moves.len(), |n| n - 1)
        };
        let status = report.status();
        let result = match status {
            Status::Complete => game
                .scores()
                .map(|(b, w)| format!("{b}-{w}"))
                .unwrap_or_default(),
            Status::Incomplete => record
                .result
                .map_or_else(|| "unfinished".to_owned(), |r| r.to_string()),
            Status::Invalid => "invalid".to_owned(),
        };
        let error = report.error.as_ref().map(|e| match e {
            GameError::Replay(e) => e.to_string(),
            GameError::Parse(p) => p.message.clone(),
        });
        let page_game = PageGame {
            b: self.name(tags.black.as_deref()),
            w: self.name(tags.white.as_deref()),
            e: self.name(tags.event.as_deref()),
            d: game.date().map(|d| d.into_owned()),
            o: self.name(opening.map(Opening::name)),
            r: result,
            m,
            u,
            n: (legal < record.moves.len()).then_some(legal),
            s: match status {
                Status::Complete => "c",
                Status::Incomplete => "i",
                Status::Invalid => "x",
            },
            x: error,
            p: game.start(),
            a: analysis.map(|a| PageAnalysis {
                e: a.empties,
                d: a.midgame_depth,
                t: a.midgame_depth.map(|_| MIDGAME_MISTAKE),
                m: a.moves
                    .iter()
                    .map(|mv| {
                        let best: Vec<String> = mv.best_moves.iter().map(Move::to_string).collect();
                        let depth = if mv.exact { 0 } else { mv.depth.max(1) };
                        (mv.index, mv.best_value, mv.value, best.join(" "), depth)
                    })
                    .collect(),
            }),
        };
        self.games.push(page_game);
    }

    /// The page: the template of `web/game.html` with the stylesheet, the
    /// viewer's modules ([`super::bundle`]) and the data inline.
    #[must_use]
    pub fn render(&self, title: &str) -> String {
        let data = serde_json::to_string(&Data {
            names: &self.names,
            games: &self.games,
        })
        .unwrap_or_default();
        // Inside a script element, `<` could close it (`</script>`) or
        // open a comment: in JSON it only appears in strings, where
        // `\u003c` reads the same.
        let data = data.replace('<', "\\u003c");
        let style = super::asset("style.css").map_or("", |a| a.text);
        let mut out = String::with_capacity(data.len() + 80_000);
        // The template's own text, with each `{{name}}` filled in once.
        let mut rest = super::GAME_PAGE;
        while let Some(at) = rest.find("{{") {
            out.push_str(&rest[..at]);
            let Some(end) = rest[at..].find("}}") else {
                break;
            };
            match &rest[at + 2..at + end] {
                "title" => out.push_str(&escape_html(title)),
                "version" => out.push_str(env!("CARGO_PKG_VERSION")),
                "style" => out.push_str(style),
                "data" => out.push_str(&data),
                "script" => out.push_str(&super::bundle()),
                other => {
                    out.push_str("{{");
                    out.push_str(other);
                    out.push_str("}}");
                }
            }
            rest = &rest[at + end + 2..];
        }
        out.push_str(rest);
        out
    }
}

/// Text for HTML: `&`, `<`, `>` and quotes escaped.
fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::transcript;

    fn data_of(html: &str) -> serde_json::Value {
        let start = html.find("id=\"kifu-data\">").unwrap() + "id=\"kifu-data\">".len();
        let end = start + html[start..].find("</script>").unwrap();
        serde_json::from_str(&html[start..end]).unwrap()
    }

    #[test]
    fn games_are_kept_compactly_with_names_once() {
        let mut page = GamePage::new();
        let mut a = transcript("f5d6c3d3c4f4f6f3e6e7");
        a.tags.black = Some("Tastet Marc".into());
        a.tags.white = Some("</script><b>".into());
        a.tags.date = Some("2004.05.12".into());
        let mut b = transcript("f5 pass d6");
        b.tags.black = Some("Tastet Marc".into());
        for g in [&a, &b] {
            page.add(g, &g.replay(), None, None);
        }
        let html = page.render("Open <2004>");
        assert!(html.contains("<title>Open &lt;2004&gt;</title>"));
        assert_eq!(
            html.matches("</script>").count(),
            2,
            "the data closes no script"
        );
        let data = data_of(&html);
        assert_eq!(
            data["names"],
            serde_json::json!(["Tastet Marc", "</script><b>"])
        );
        let games = data["games"].as_array().unwrap();
        assert_eq!(games[0]["m"], "f5d6c3d3c4f4f6f3e6e7");
        assert_eq!(games[0]["d"], "2004-05-12");
        assert_eq!(
            (games[0]["b"].as_u64(), games[0]["w"].as_u64()),
            (Some(0), Some(1))
        );
        assert_eq!(games[0]["s"], "i");
        assert_eq!(games[0]["r"], "unfinished");
        assert_eq!(games[0].get("n"), None);
        // An illegal pass: one legal token, the error said.
        assert_eq!(games[1]["m"], "f5--d6");
        assert_eq!(games[1]["n"], 1);
        assert_eq!(games[1]["s"], "x");
        assert_eq!(
            games[1]["x"],
            "move 2 (white) pass: pass not allowed: White has moves"
        );
    }

    #[test]
    fn estimates_carry_their_depth_and_exact_values_zero() {
        use crate::record::analysis::MoveAnalysis;
        use crate::{Color, Square};
        let record = transcript("f5d6c3");
        let played = |index: usize, square: &str, exact: bool| MoveAnalysis {
            index,
            color: if index.is_multiple_of(2) {
                Color::Black
            } else {
                Color::White
            },
            mv: Move::Play(square.parse::<Square>().unwrap()),
            empties: 60 - index as u32,
            best_value: 2,
            best_moves: vec![Move::Play("d3".parse().unwrap())],
            value: -4,
            loss: 6,
            exact,
            depth: if exact { 60 - index as u32 } else { 8 },
        };
        let judged = GameAnalysis {
            empties: Some(58),
            midgame_depth: Some(8),
            moves: vec![
                played(0, "f5", false),
                played(1, "d6", false),
                played(2, "c3", true),
            ],
            ..GameAnalysis::default()
        };
        let solved = GameAnalysis {
            midgame_depth: None,
            moves: vec![played(2, "c3", true)],
            ..judged.clone()
        };
        let mut page = GamePage::new();
        page.add(&record, &record.replay(), None, Some(&judged));
        page.add(&record, &record.replay(), None, Some(&solved));
        let data = data_of(&page.render("judged"));
        let a = &data["games"][0]["a"];
        assert_eq!(a["d"], 8);
        assert_eq!(a["t"], MIDGAME_MISTAKE);
        assert_eq!(
            a["m"],
            serde_json::json!([
                [0, 2, -4, "d3", 8],
                [1, 2, -4, "d3", 8],
                [2, 2, -4, "d3", 0]
            ])
        );
        let a = &data["games"][1]["a"];
        assert_eq!((a.get("d"), a.get("t")), (None, None));
        assert_eq!(a["m"], serde_json::json!([[2, 2, -4, "d3", 0]]));
    }

    #[test]
    fn the_page_carries_everything_it_needs() {
        let page = GamePage::new();
        let html = page.render("none");
        for needle in [
            "<script src",
            "<link rel=\"stylesheet",
            "src=\"http",
            "href=\"http",
            "@import",
            "url(",
        ] {
            assert!(!html.contains(needle), "{needle}");
        }
        // The one link: an empty icon, so the browser asks for none.
        assert_eq!(html.matches("<link").count(), 1);
        assert!(html.contains("<link rel=\"icon\" href=\"data:,\">"));
        assert!(html.contains("const module_viewer = (() => {"));
        assert!(!html.contains("{{"));
    }
}
