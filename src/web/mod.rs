//! The pages people look at (SPEC section 11): the front-end of `web/`
//! (a few ES modules, one stylesheet, the pages' HTML), embedded in the
//! binary when it is built, and the game page of `kifu show --html`
//! ([`page`]).
//!
//! The same modules serve both pages: `dom.js` (elements and tables),
//! `othello.js` (the rules and a record's replay), `board.js`,
//! `movelist.js`, `graph.js`, `gamelist.js`, `viewer.js` (the game viewer)
//! and `browser.js` (the database browser).
//! `kifu serve` serves them as they are, under `/assets/`; the game page
//! carries them in one inline script ([`bundle`]), for it must open from a
//! file with nothing else beside it.

pub mod page;

/// One file of the front-end.
#[derive(Clone, Copy, Debug)]
pub struct Asset {
    /// Its name under `/assets/`.
    pub name: &'static str,
    /// Its media type.
    pub content_type: &'static str,
    /// Its text.
    pub text: &'static str,
}

const JS: &str = "text/javascript; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";

/// The files of `web/` as [`Asset`]s, each named once (`include_str!`
/// wants its path written out).
macro_rules! assets {
    ($($name:literal => $content_type:expr),* $(,)?) => {
        &[$(Asset {
            name: $name,
            content_type: $content_type,
            text: include_str!(concat!("../../web/", $name)),
        }),*]
    };
}

/// The files `kifu serve` serves under `/assets/`.
pub const ASSETS: &[Asset] = assets![
    "style.css" => CSS,
    "dom.js" => JS,
    "othello.js" => JS,
    "board.js" => JS,
    "movelist.js" => JS,
    "graph.js" => JS,
    "gamelist.js" => JS,
    "viewer.js" => JS,
    "browser.js" => JS,
    "view.js" => JS,
];

/// The database browser's page (`/`).
pub const BROWSER_PAGE: &str = include_str!("../../web/browse.html");
/// The game view of the server (`/view`).
pub const VIEWER_PAGE: &str = include_str!("../../web/view.html");
/// The game page's template: `{{title}}`, `{{version}}`, `{{style}}`,
/// `{{data}}` and `{{script}}` are filled in.
pub(crate) const GAME_PAGE: &str = include_str!("../../web/game.html");

/// The file of the front-end named `name`, if there is one.
#[must_use]
pub fn asset(name: &str) -> Option<&'static Asset> {
    ASSETS.iter().find(|a| a.name == name)
}

/// The modules of the game viewer, each before those that import it.
const VIEWER_MODULES: [&str; 7] = [
    "dom.js",
    "othello.js",
    "board.js",
    "movelist.js",
    "graph.js",
    "gamelist.js",
    "viewer.js",
];

/// The viewer's modules as one script, for a page that must carry
/// everything: each module becomes a function whose result holds its
/// exports, and each `import { a, b } from './m.js';` reads them from it.
///
/// The modules keep to what this needs: an import on one line, exports
/// as `export function`, `export class` or `export const` declarations.
#[must_use]
pub fn bundle() -> String {
    let mut out = String::new();
    for name in VIEWER_MODULES {
        let text = asset(name).map_or("", |a| a.text);
        let module = module_var(name);
        let mut exports = Vec::new();
        let mut body = String::new();
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("import ") {
                // `import { a, b } from './m.js';`
                let (names, from) = rest.split_once(" from ").unwrap_or((rest, "''"));
                let from = from.trim().trim_end_matches(';').trim_matches(['\'', '"']);
                let from = from.trim_start_matches("./");
                body.push_str(&format!("  const {names} = {};\n", module_var(from)));
                continue;
            }
            let line = match line.strip_prefix("export ") {
                Some(declaration) => {
                    let name = declaration
                        .split_whitespace()
                        .nth(1)
                        .unwrap_or("")
                        .split(['(', ' ', '='])
                        .next()
                        .unwrap_or("");
                    exports.push(name.to_owned());
                    declaration
                }
                None => line,
            };
            body.push_str("  ");
            body.push_str(line);
            body.push('\n');
        }
        out.push_str(&format!("// {name}\nconst {module} = (() => {{\n{body}"));
        out.push_str(&format!("  return {{ {} }};\n}})();\n", exports.join(", ")));
    }
    out.push_str(&format!(
        "const {{ startViewer, decodeGames }} = {};\n",
        module_var("viewer.js")
    ));
    out
}

/// The variable a bundled module's exports are in: `othello.js` →
/// `module_othello`.
fn module_var(name: &str) -> String {
    format!("module_{}", name.trim_end_matches(".js"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_the_pages_load_is_embedded() {
        for page in [BROWSER_PAGE, VIEWER_PAGE] {
            for part in page.split("/assets/").skip(1) {
                let name = part.split('"').next().unwrap();
                assert!(asset(name).is_some(), "{name}");
            }
        }
        for a in ASSETS {
            for line in a.text.lines().filter(|l| l.starts_with("import ")) {
                let from = line.split('\'').nth(1).unwrap().trim_start_matches("./");
                assert!(asset(from).is_some(), "{} imports {from}", a.name);
            }
        }
    }

    #[test]
    fn the_bundle_turns_imports_and_exports_into_variables() {
        let script = bundle();
        assert!(!script
            .lines()
            .any(|l| l.trim_start().starts_with("import ")));
        assert!(!script
            .lines()
            .any(|l| l.trim_start().starts_with("export ")));
        assert!(script.contains("const module_othello = (() => {"));
        assert!(script.contains("return { EMPTY, BLACK, WHITE,"));
        assert!(script.contains("  const { Board } = module_board;"));
        assert!(script.ends_with("const { startViewer, decodeGames } = module_viewer;\n"));
        // Each module before the first that imports it.
        let at = |m: &str| script.find(&format!("const module_{m} =")).unwrap();
        assert!(at("othello") < at("board") && at("gamelist") < at("viewer"));
    }
}
