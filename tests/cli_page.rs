//! `kifu show --html` (SPEC section 11): one self-contained page with the
//! games the filters keep, as kifu read and replayed them, and with
//! `--analyze N` each analysed move's exact values.

use crate::support::{corpus, kifu, scratch};

/// The data object of a game page.
fn data_of(html: &str) -> serde_json::Value {
    let open = "id=\"kifu-data\">";
    let start = html.find(open).expect("the data") + open.len();
    let end = start + html[start..].find("</script>").expect("its end");
    serde_json::from_str(&html[start..end]).expect("JSON")
}

fn jsonl(args: &[&str]) -> Vec<serde_json::Value> {
    let out = kifu()
        .args(["convert", "--to", "jsonl", "--quiet"])
        .args(args)
        .output()
        .unwrap();
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn the_page_holds_the_games_the_filters_keep() {
    let Some(corpus) = corpus() else { return };
    let file = corpus.join("wthor/WTH_2004.wtb").display().to_string();
    let dir = scratch("page-filters");
    let out = dir.join("tastet.html");
    let run = kifu()
        .args(["show", &file, "--player", "tastet", "--html"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0));
    let stderr = String::from_utf8(run.stderr).unwrap();
    assert!(stderr.contains("9113 games read, "), "{stderr}");
    let html = std::fs::read_to_string(&out).unwrap();
    assert!(html.contains("<title>WTH_2004.wtb: "), "the default title");
    let data = data_of(&html);
    let expected = jsonl(&[&file, "--player", "tastet"]);
    let games = data["games"].as_array().unwrap();
    assert_eq!(games.len(), expected.len());
    assert!(games.len() > 20);
    let names = data["names"].as_array().unwrap();
    let name = |g: &serde_json::Value, key: &str| {
        g.get(key)
            .map(|n| names[n.as_u64().unwrap() as usize].clone())
    };
    for (g, e) in games.iter().zip(&expected) {
        assert_eq!(g["m"], e["moves"]);
        assert_eq!(name(g, "b"), Some(e["black_player"].clone()));
        assert_eq!(name(g, "w"), Some(e["white_player"].clone()));
        assert_eq!(name(g, "o"), Some(e["opening"].clone()));
        assert_eq!(g["d"], e["date"]);
        assert_eq!(
            g["r"].as_str().unwrap(),
            format!("{}-{}", e["black_score"], e["white_score"])
        );
        assert_eq!(g["s"], "c");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn invalid_and_unfinished_games_keep_their_tokens_and_errors() {
    let dir = scratch("page-invalid");
    let out = dir.join("example.html");
    let run = kifu()
        .args(["show", "fixtures/transcripts/example.txt", "--html"])
        .arg(&out)
        .args(["--title", "Six <games>"])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1), "an invalid game among them");
    let html = std::fs::read_to_string(&out).unwrap();
    assert!(html.contains("<title>Six &lt;games&gt;</title>"));
    let data = data_of(&html);
    let games = data["games"].as_array().unwrap();
    let expected = jsonl(&["fixtures/transcripts/example.txt"]);
    for (g, e) in games.iter().zip(&expected) {
        let status = e["status"].as_str().unwrap();
        let code = match status {
            "complete" => "c",
            "incomplete" => "i",
            _ => "x",
        };
        assert_eq!(g["s"], code);
        if status == "invalid" {
            // The legal tokens, then the error.
            assert_eq!(g["n"].as_u64(), e["error_move"].as_u64().map(|n| n - 1));
            assert!(g["x"]
                .as_str()
                .unwrap()
                .ends_with(e["error"].as_str().unwrap()));
        } else {
            assert_eq!(g.get("n"), None);
        }
    }
    assert!(games.iter().any(|g| g["s"] == "x"));
    assert!(games.iter().any(|g| g["s"] == "i"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn an_analysis_gives_each_move_its_exact_values() {
    let dir = scratch("page-analysis");
    let out = dir.join("analysed.html");
    let run = kifu()
        .args(["show", "fixtures/transcripts/example.txt", "--html"])
        .arg(&out)
        .args(["--analyze", "12", "--depth", "0", "--hash", "16"])
        .output()
        .unwrap();
    assert!(run.status.code() == Some(1), "{run:?}");
    let data = data_of(&std::fs::read_to_string(&out).unwrap());
    let mut moves = 0;
    for g in data["games"].as_array().unwrap() {
        let Some(a) = g.get("a") else {
            panic!("every game analysed: {g}")
        };
        let analysed = a["m"].as_array().unwrap();
        for w in analysed.windows(2) {
            let (index, _best, value) = (
                w[0][0].as_u64().unwrap(),
                w[0][1].as_i64().unwrap(),
                w[0][2].as_i64().unwrap(),
            );
            let (next, next_best) = (w[1][0].as_u64().unwrap(), w[1][1].as_i64().unwrap());
            if next == index + 1 {
                // The next position's value is this move's, from the other
                // side (or the same side when the other had to pass).
                assert!(next_best == -value || next_best == value, "{w:?}");
            }
        }
        for m in analysed {
            let (best, value) = (m[1].as_i64().unwrap(), m[2].as_i64().unwrap());
            assert!(best >= value && best % 2 == 0 && value % 2 == 0, "{m}");
            assert!(!m[3].as_str().unwrap().is_empty());
            moves += 1;
        }
    }
    assert!(moves > 20, "{moves}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_page_is_never_written_over_its_input_and_filters_need_a_page() {
    let dir = scratch("page-refused");
    let input = dir.join("games.txt");
    std::fs::write(&input, "f5d6c3\n").unwrap();
    let run = kifu()
        .arg("show")
        .arg(&input)
        .arg("--html")
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&input).unwrap(), "f5d6c3\n");
    let run = kifu()
        .args(["show", "fixtures/transcripts/example.txt", "--player", "x"])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    assert!(String::from_utf8(run.stderr)
        .unwrap()
        .contains("the filters choose the games of a page: give --html OUT.html"));
    // Moves typed on the command line make a page of one game.
    let out = dir.join("one.html");
    let run = kifu()
        .args(["show", "f5d6c3d3c4", "--html"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0));
    let data = data_of(&std::fs::read_to_string(&out).unwrap());
    assert_eq!(data["games"][0]["m"], "f5d6c3d3c4");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_whole_game_analysis_marks_each_estimate_in_the_page_data() {
    let dir = scratch("page-depth");
    let file = "fixtures/transcripts/example.txt";
    let page = |depth: &str| {
        let out = dir.join(format!("depth-{depth}.html"));
        let run = kifu()
            .args(["show", file, "--html"])
            .arg(&out)
            .args(["--analyze", "20", "--depth", depth, "--hash", "16"])
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(1), "an invalid game: {run:?}");
        data_of(&std::fs::read_to_string(&out).unwrap())["games"]
            .as_array()
            .unwrap()
            .clone()
    };
    let (judged, exact) = (page("4"), page("0"));
    // Which moves `analyze` estimates and which it solves (the flags do
    // not depend on the search's order; the exact values neither).
    let out = kifu()
        .args(["analyze", file, "--empties", "20", "--depth", "4"])
        .args(["--moves", "--format", "csv", "-q"])
        .output()
        .unwrap();
    let mut reader = csv::Reader::from_reader(&out.stdout[..]);
    let header = reader.headers().unwrap().clone();
    let field = |r: &csv::StringRecord, name: &str| -> String {
        r[header.iter().position(|h| h == name).unwrap()].to_owned()
    };
    let mut checked = (0, 0);
    for row in reader.records() {
        let row = row.unwrap();
        let game: usize = field(&row, "game").parse().unwrap();
        let index = field(&row, "move").parse::<u64>().unwrap() - 1;
        let a = &judged[game - 1]["a"];
        let m = a["m"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m[0].as_u64() == Some(index))
            .expect("every analysed move on the page");
        assert_eq!(m.as_array().unwrap().len(), 5, "{m}");
        if field(&row, "exact") == "true" {
            assert_eq!(m[4], 0, "an exact value: {m}");
            assert_eq!(m[1].to_string(), field(&row, "best_value"));
            assert_eq!(m[2].to_string(), field(&row, "value"));
            // The same entry as on the page without the search.
            let same = exact[game - 1]["a"]["m"]
                .as_array()
                .unwrap()
                .iter()
                .find(|e| e[0] == m[0]);
            assert_eq!(same, Some(m));
            checked.0 += 1;
        } else {
            assert_eq!(m[4].to_string(), field(&row, "depth"), "{m}");
            assert_eq!(m[4], 4);
            checked.1 += 1;
        }
        assert_eq!(a["d"], 4);
        assert!(a["t"].as_i64().is_some_and(|t| t > 0), "{a}");
    }
    assert!(checked.0 > 30 && checked.1 > 100, "{checked:?}");
    let entries: usize = judged
        .iter()
        .map(|g| g["a"]["m"].as_array().unwrap().len())
        .sum();
    assert_eq!(entries, checked.0 + checked.1, "no other entry");
    // Without the search: no depth, no threshold, every value exact.
    for g in &exact {
        let a = &g["a"];
        assert_eq!((a.get("d"), a.get("t")), (None, None), "{a}");
        assert!(a["m"].as_array().unwrap().iter().all(|m| m[4] == 0));
    }
    let _ = std::fs::remove_dir_all(dir);
}
