//! `kifu serve` over HTTP on 127.0.0.1 (SPEC sections 11 and 13): the
//! API's answers against the command line's (`explore --format json`,
//! `explore --games`, `convert --to jsonl`), every bad parameter a 400
//! naming it, 8 clients at once, malformed requests, the host check,
//! Ctrl-C; and hostile clients: a flood of slow ones, more connections
//! than allowed, Ctrl-C with slow clients connected, every refusal a JSON
//! body with the security headers.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::{corpus, kifu, scratch};

/// A running `kifu serve`, stopped when dropped.
struct Server {
    child: Child,
    address: String,
    log: std::sync::Mutex<std::sync::mpsc::Receiver<String>>,
    /// What it said until it listened.
    started: Vec<String>,
}

impl Server {
    fn start(args: &[&str]) -> Server {
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("kifu"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .arg("serve")
            .args(args)
            .args(["--port", "0", "--quiet"])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("kifu serve starts");
        let stderr = child.stderr.take().expect("its standard error");
        let (send, log) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        let mut address = None;
        let mut started = Vec::new();
        while address.is_none() {
            let line = log
                .recv_timeout(Duration::from_secs(120))
                .expect("the server says where it listens");
            if let Some(rest) = line.split("serving http://").nth(1) {
                address = Some(rest.split('/').next().unwrap().to_owned());
            }
            started.push(line);
        }
        Server {
            child,
            address: address.unwrap(),
            log: std::sync::Mutex::new(log),
            started,
        }
    }

    /// Sends `request` as it is and reads the whole answer.
    fn raw(&self, request: &[u8]) -> (u16, String, String) {
        let mut stream = TcpStream::connect(&self.address).expect("connects");
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        stream.write_all(request).unwrap();
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
        let text = String::from_utf8_lossy(&answer).into_owned();
        let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
        let status = head
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        let body = if head
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked")
        {
            dechunk(body)
        } else {
            body.to_owned()
        };
        (status, head.to_owned(), body)
    }

    /// `GET path`: the status and the body.
    fn get(&self, path: &str) -> (u16, String) {
        let host = self.address.clone();
        self.get_as(path, &host)
    }

    fn get_as(&self, path: &str, host: &str) -> (u16, String) {
        let request = format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n");
        let (status, _, body) = self.raw(request.as_bytes());
        (status, body)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&rest[..n]);
        body = rest[n..].trim_start_matches("\r\n");
    }
    out
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// `%`-encodes a query value.
fn encode(text: &str) -> String {
    form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

fn explore_cli(files: &[String], args: &[&str]) -> String {
    let out = kifu()
        .arg("explore")
        .args(files)
        .args(args)
        .args(["--format", "json", "--quiet"])
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap()
}

fn wthor(years: &[&str]) -> Option<Vec<String>> {
    let dir = corpus()?.join("wthor");
    Some(
        years
            .iter()
            .map(|y| dir.join(format!("WTH_{y}.wtb")).display().to_string())
            .collect(),
    )
}

#[test]
fn explore_and_games_answer_as_the_command_line() {
    let Some(files) = wthor(&["1980", "2004", "2019"]) else {
        return;
    };
    let mut args: Vec<&str> = files.iter().map(String::as_str).collect();
    args.push("--show-paths");
    let server = Server::start(&args);
    let cases: [(&str, &[&str]); 8] = [
        ("", &[]),
        ("moves=f5d6c3d3c4", &["--moves", "f5d6c3d3c4"]),
        ("moves=c4e3f6e6f5", &["--moves", "c4e3f6e6f5"]),
        ("moves=F5+d6%2C+c3", &["--moves", "F5 d6, c3"]),
        ("moves=f5d6c3&player=tastet", &["--moves", "f5d6c3", "--player", "tastet"]),
        (
            "moves=f5f6&year=2004..2019&winner=white&status=complete",
            &["--moves", "f5f6", "--year", "2004..2019", "--winner", "white", "--status", "complete"],
        ),
        ("opening=tiger&event=open", &["--opening", "tiger", "--event", "open"]),
        (
            "board=---------------------------OX------XO---------------------------+X&position=f5d6",
            &[
                "--board",
                "---------------------------OX------XO--------------------------- X",
                "--position",
                "f5d6",
            ],
        ),
    ];
    for (query, args) in cases {
        let (status, body) = server.get(&format!("/api/explore?{query}"));
        assert_eq!(status, 200, "{query}: {body}");
        assert_eq!(body, explore_cli(&files, args), "{query}");
        // The games: all of them listed by the command line, a page of
        // them here, with the total.
        let mut listed = args.to_vec();
        listed.extend(["--games", "100000"]);
        let all = json(&explore_cli(&files, &listed));
        let expected = all.get("listed").cloned().unwrap_or(serde_json::json!([]));
        let expected = expected.as_array().unwrap();
        let (status, body) = server.get(&format!("/api/games?{query}&offset=3&limit=7"));
        assert_eq!(status, 200, "{query}: {body}");
        let page = json(&body);
        assert_eq!(page["total"], all["games"], "{query}");
        let shown = page["games"].as_array().unwrap();
        let end = expected.len().min(10);
        assert_eq!(shown.as_slice(), &expected[3.min(end)..end], "{query}");
    }
    let (_, body) = server.get("/api/info");
    let info = json(&body);
    assert_eq!(info["sources"], serde_json::json!(files));
    assert_eq!(info["games"], json(&explore_cli(&files, &[]))["games"]);
}

#[test]
fn a_game_is_its_json_lines_object() {
    let files = [
        "fixtures/transcripts/example.txt",
        "fixtures/transcripts/variants.txt",
        "fixtures/ggf/variants.ggf",
        "fixtures/sgf/collection.sgf",
        "fixtures/pgn/thor-style.pgn",
        "fixtures/pgn/variants.pgn",
        "fixtures/sheet/tagged.sheet",
        "fixtures/obf/positions.obf",
        "fixtures/wthor/SAMPLE.wtb",
    ];
    let server = Server::start(&[&files[..], &["--show-paths"]].concat());
    let mut checked = 0;
    for file in files {
        let out = kifu()
            .args(["convert", file, "--to", "jsonl", "--quiet"])
            .output()
            .unwrap();
        let lines = String::from_utf8(out.stdout).unwrap();
        for line in lines.lines() {
            let index = json(line)["index"].as_u64().unwrap();
            let (status, body) =
                server.get(&format!("/api/game?source={}&index={index}", encode(file)));
            assert_eq!(status, 200, "{file} {index}: {body}");
            assert_eq!(body.trim_end(), line, "{file} game {index}");
            checked += 1;
        }
    }
    assert!(checked > 30, "{checked} games");
}

#[test]
fn every_bad_parameter_is_a_400_naming_it() {
    let server = Server::start(&["fixtures/transcripts/example.txt"]);
    let long = "x".repeat(5000);
    let cases = [
        (
            "/api/explore?moves=f5z9",
            "moves",
            "move 2 (white) z9: not a square",
        ),
        ("/api/explore?moves=f5f5", "moves", "square occupied"),
        ("/api/explore?board=XO", "board", "squares, not 64"),
        ("/api/explore?moves=f5&board=x", "board", "not both"),
        ("/api/explore?year=20x4", "year", "not a year"),
        ("/api/explore?year=2010..2000", "year", "runs backwards"),
        (
            "/api/explore?status=done",
            "status",
            "\\\"done\\\" is not complete",
        ),
        (
            "/api/explore?winner=blue",
            "winner",
            "not black, white or draw",
        ),
        ("/api/explore?position=f5f5", "position", "square occupied"),
        (
            "/api/explore?player=a&player=b",
            "player",
            "given more than once",
        ),
        ("/api/explore?path=/etc/passwd", "path", "unknown parameter"),
        ("/api/games?limit=0", "limit", "ask for 1 to 1000"),
        ("/api/games?limit=1001", "limit", "over the limit of 1000"),
        ("/api/games?limit=ten", "limit", "not a whole number"),
        ("/api/games?offset=-1", "offset", "not a whole number"),
        ("/api/game?index=1", "source", "missing"),
        (
            "/api/game?source=fixtures/transcripts/example.txt",
            "index",
            "missing",
        ),
        (
            "/api/game?source=/etc/passwd&index=1",
            "source",
            "not one of the loaded files",
        ),
        (
            "/api/game?source=fixtures/transcripts/example.txt&index=x",
            "index",
            "not a whole number",
        ),
        ("/api/info?x=1", "x", "unknown parameter"),
    ];
    for (path, parameter, says) in cases {
        let (status, body) = server.get(path);
        assert_eq!(status, 400, "{path}: {body}");
        let error = json(&body);
        assert_eq!(error["parameter"], parameter, "{path}: {body}");
        assert!(body.contains(says), "{path}: {body}");
    }
    let (status, body) = server.get(&format!("/api/explore?player={long}"));
    assert_eq!(
        (status, json(&body)["parameter"].as_str()),
        (400, Some("query"))
    );
    let (status, body) = server.get(&format!("/api/explore?player={}", &long[..300]));
    assert_eq!(
        (status, json(&body)["parameter"].as_str()),
        (400, Some("player"))
    );
    // Not found: a game past the end, a page, a file that is no asset.
    let (status, body) = server.get("/api/game?source=example.txt&index=7");
    assert_eq!(
        (status, json(&body)["parameter"].as_str()),
        (404, Some("index"))
    );
    for path in [
        "/nothing",
        "/assets/../Cargo.toml",
        "/assets/%2e%2e%2fCargo.toml",
        "/assets/secret.js",
    ] {
        let (status, body) = server.get(path);
        assert_eq!(status, 404, "{path}: {body}");
        assert!(
            json(&body)["error"]
                .as_str()
                .unwrap()
                .starts_with("no such"),
            "{body}"
        );
    }
    // Only GET.
    let (status, _, _) = server.raw(
        format!(
            "POST /api/explore HTTP/1.1\r\nHost: {}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
            server.address
        )
        .as_bytes(),
    );
    assert_eq!(status, 405);
}

#[test]
fn it_answers_only_requests_for_this_machine_and_serves_its_pages() {
    let server = Server::start(&["fixtures/transcripts/example.txt"]);
    assert!(
        server.address.starts_with("127.0.0.1:"),
        "{}",
        server.address
    );
    let port = server.address.split(':').nth(1).unwrap().to_owned();
    for host in ["evil.example", "192.168.1.2:80", "127.0.0.1.evil.example"] {
        let (status, body) = server.get_as("/api/info", host);
        assert_eq!(status, 403, "{host}: {body}");
    }
    for host in [format!("localhost:{port}"), format!("[::1]:{port}")] {
        assert_eq!(server.get_as("/api/info", &host).0, 200, "{host}");
    }
    let (status, head, page) = server.raw(
        format!(
            "GET / HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            server.address
        )
        .as_bytes(),
    );
    assert_eq!(status, 200);
    assert!(head
        .to_ascii_lowercase()
        .contains("content-security-policy: default-src 'self'"));
    assert!(page.contains("/assets/browser.js"));
    for asset in kifu::web::ASSETS {
        let (status, body) = server.get(&format!("/assets/{}", asset.name));
        assert_eq!((status, body.as_str()), (200, asset.text), "{}", asset.name);
    }
    assert!(server.get("/view").1.contains("/assets/view.js"));
}

#[test]
fn eight_clients_at_once_and_malformed_requests_leave_it_answering() {
    let Some(files) = wthor(&["2004", "2019"]) else {
        return;
    };
    let server = Server::start(&files.iter().map(String::as_str).collect::<Vec<_>>());
    let queries = [
        "moves=f5d6c3d3c4",
        "moves=f5f6e6f4",
        "moves=f5d6c5",
        "moves=f5f4e3",
        "moves=f5d6c3d3c4f4c5b3c2",
        "player=tastet",
        "moves=f5f4e3&year=2019",
        "moves=f5d6c4",
    ];
    let alone: Vec<String> = queries
        .iter()
        .map(|q| server.get(&format!("/api/explore?{q}")).1)
        .collect();
    let server = &server;
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..8)
            .map(|client| {
                let alone = &alone;
                scope.spawn(move || {
                    for round in 0..6 {
                        let i = (client + round) % queries.len();
                        let (status, body) = server.get(&format!("/api/explore?{}", queries[i]));
                        assert_eq!(status, 200, "client {client}");
                        assert_eq!(&body, &alone[i], "client {client}");
                        // Garbage between the lookups, on other connections.
                        let junk: &[&[u8]] = &[
                            b"GARBAGE\r\n\r\n",
                            b"GET /api/explore?moves=f5 HTTP/9.9\r\n\r\n",
                            b"GET /api/explore?moves=%zz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
                            b"\x00\x01\x02\xff\xfe\r\n\r\n",
                            b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: nope\r\nConnection: close\r\n\r\n",
                        ];
                        let _ = server.raw(junk[(client + round) % junk.len()]);
                        // A client that goes away mid-request.
                        if let Ok(mut s) = TcpStream::connect(&server.address) {
                            let _ = s.write_all(b"GET /api/explore?moves=f5d6 HTT");
                        }
                    }
                })
            })
            .collect();
        for w in workers {
            w.join().expect("a client");
        }
    });
    let (status, body) = server.get("/api/explore?moves=f5d6c3d3c4");
    assert_eq!((status, &body), (200, &alone[0]));
}

#[test]
fn ctrl_c_stops_it_cleanly() {
    let mut server = Server::start(&["fixtures/transcripts/example.txt"]);
    assert_eq!(server.get("/api/info").0, 200);
    let pid = server.child.id().to_string();
    let sent = Command::new("kill").args(["-INT", &pid]).status().unwrap();
    assert!(sent.success());
    let status = server.child.wait().unwrap();
    assert_eq!(status.code(), Some(0));
    let said: Vec<String> = server.log.lock().unwrap().try_iter().collect();
    assert!(said.iter().any(|l| l == "kifu: stopped"), "{said:?}");
    assert!(
        TcpStream::connect(&server.address).is_err(),
        "no longer listening"
    );
}

#[test]
fn a_port_in_use_is_an_error_naming_it() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let out = kifu()
        .args([
            "serve",
            "fixtures/transcripts/example.txt",
            "--port",
            &port,
            "--quiet",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains(&format!("cannot listen on 127.0.0.1:{port}")),
        "{stderr}"
    );
}

/// Reads an answer's head and JSON body from `stream` until the server
/// closes it: `(status, head, body)`.
fn answer(stream: &mut TcpStream) -> (u16, String, serde_json::Value) {
    let mut bytes = Vec::new();
    let _ = stream.read_to_end(&mut bytes);
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let (head, body) = text
        .split_once("\r\n\r\n")
        .unwrap_or_else(|| panic!("no answer: {text:?}"));
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    (status, head.to_ascii_lowercase(), json(body))
}

/// Every answer carries these, the server's own refusals included.
fn assert_guarded(head: &str) {
    for header in [
        "content-type: application/json",
        "x-content-type-options: nosniff",
        "content-security-policy: default-src 'self'",
        "referrer-policy: no-referrer",
    ] {
        assert!(head.contains(header), "{header} missing: {head}");
    }
}

/// Opens `n` connections that each send the start of a request head and
/// nothing more.
fn slow_clients(address: &str, n: usize) -> Vec<TcpStream> {
    (0..n)
        .map(|_| {
            let mut s = TcpStream::connect(address).expect("a slow client connects");
            s.write_all(b"G").unwrap();
            s
        })
        .collect()
}

/// `GET /api/info` on a fresh connection: its status and how long the
/// answer took.
fn timed_info(server: &Server) -> (u16, Duration) {
    let started = Instant::now();
    let (status, _) = server.get("/api/info");
    (status, started.elapsed())
}

#[test]
fn a_flood_of_slow_clients_neither_holds_it_nor_stays_connected() {
    let server = Server::start(&["fixtures/transcripts/example.txt", "--header-timeout", "3"]);
    let mut slow = slow_clients(&server.address, 300);
    let flooded = Instant::now();
    // They dribble a byte every half second; a fresh client is answered
    // at once meanwhile.
    let mut answered = Vec::new();
    for round in 0..4 {
        for s in &mut slow {
            let _ = s.write_all(b"E");
        }
        let (status, took) = timed_info(&server);
        assert_eq!(status, 200, "round {round}");
        answered.push(took);
        std::thread::sleep(Duration::from_millis(500));
    }
    for (round, took) in answered.iter().enumerate() {
        assert!(
            *took < Duration::from_secs(1),
            "round {round}: a fresh client waited {took:?} among 300 slow ones"
        );
    }
    // Dribbling does not move the deadline: each slow client is closed
    // once its head took the header timeout, with a 408.
    for s in &mut slow {
        let left = Duration::from_secs(15).saturating_sub(flooded.elapsed());
        s.set_read_timeout(Some(left.max(Duration::from_millis(1))))
            .unwrap();
        let (status, head, body) = answer(s);
        assert_eq!(status, 408, "{body}");
        assert_guarded(&head);
        assert!(body["error"].as_str().unwrap().contains("--header-timeout"));
    }
    assert!(
        flooded.elapsed() < Duration::from_secs(15),
        "{:?}",
        flooded.elapsed()
    );
    // A connection that sends nothing is closed too, without an answer.
    let mut silent = TcpStream::connect(&server.address).unwrap();
    silent
        .set_read_timeout(Some(Duration::from_secs(15)))
        .unwrap();
    let mut bytes = Vec::new();
    let started = Instant::now();
    assert_eq!(silent.read_to_end(&mut bytes).ok(), Some(0));
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[test]
fn over_the_connection_limit_the_answer_is_503_at_once() {
    let server = Server::start(&["fixtures/transcripts/example.txt", "--max-connections", "4"]);
    let held = slow_clients(&server.address, 4);
    // Let the server take the four before the fifth comes.
    std::thread::sleep(Duration::from_millis(300));
    let started = Instant::now();
    let mut extra = TcpStream::connect(&server.address).unwrap();
    extra
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    extra
        .write_all(b"GET /api/info HTTP/1.1\r\nHost: localhost\r\n\r\n")
        .unwrap();
    let (status, head, body) = answer(&mut extra);
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(status, 503, "{body}");
    assert_guarded(&head);
    assert!(head.contains("retry-after: 1"), "{head}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .starts_with("busy: 4 connections are open"),
        "{body}"
    );
    // One of them gone, a new client is served again.
    drop(held);
    let deadline = Instant::now() + Duration::from_secs(10);
    while server.get("/api/info").0 != 200 {
        assert!(Instant::now() < deadline, "still refused");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn ctrl_c_stops_it_within_seconds_with_slow_clients_connected() {
    let mut server = Server::start(&["fixtures/transcripts/example.txt"]);
    let _slow = slow_clients(&server.address, 100);
    // And connections kept open after an answer.
    let mut kept: Vec<TcpStream> = (0..10)
        .map(|_| {
            let mut s = TcpStream::connect(&server.address).unwrap();
            s.write_all(b"GET /api/info HTTP/1.1\r\nHost: localhost\r\n\r\n")
                .unwrap();
            s
        })
        .collect();
    for s in &mut kept {
        let mut first = [0; 12];
        s.read_exact(&mut first).unwrap();
        assert_eq!(&first, b"HTTP/1.1 200");
    }
    let pid = server.child.id().to_string();
    let started = Instant::now();
    assert!(Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .unwrap()
        .success());
    let status = server.child.wait().unwrap();
    let took = started.elapsed();
    assert_eq!(status.code(), Some(0));
    // The header timeout is 10 s, the grace for answers under way 3 s:
    // none was under way, so it stops well before either.
    assert!(took < Duration::from_secs(3), "stopping took {took:?}");
}

#[test]
fn every_refusal_is_json_with_the_security_headers() {
    let server = Server::start(&["fixtures/transcripts/example.txt"]);
    let host = &server.address;
    let cases: Vec<(Vec<u8>, u16, &str)> = vec![
        (
            format!("POST /api/info HTTP/1.1\r\nHost: {host}\r\nContent-Length: 3\r\n\r\nabc").into_bytes(),
            405,
            "GET and HEAD only",
        ),
        (
            format!("DELETE / HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n").into_bytes(),
            405,
            "GET and HEAD only",
        ),
        (
            format!("GET /api/info?{} HTTP/1.1\r\nHost: {host}\r\n\r\n", "a".repeat(9000)).into_bytes(),
            414,
            "target is over 8192 bytes",
        ),
        (
            format!("GET /api/info HTTP/1.1\r\nHost: {host}\r\nCookie: {}\r\n\r\n", "a".repeat(40_000)).into_bytes(),
            431,
            "head is over 32768 bytes",
        ),
        (
            format!("GET /api/info HTTP/1.1\r\nHost: {host}\r\n{}\r\n", "X-A: b\r\n".repeat(101)).into_bytes(),
            431,
            "over 100 header fields",
        ),
        (
            format!("GET /api/info HTTP/1.1\r\nHost: {host}\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n").into_bytes(),
            413,
            "no body",
        ),
        (b"GARBAGE\r\n\r\n".to_vec(), 400, "not an HTTP/1 request"),
        (
            b"GET /api/info HTTP/9.9\r\n\r\n".to_vec(),
            400,
            "not an HTTP/1 request",
        ),
        (
            b"GET /api/info HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n".to_vec(),
            403,
            "not \"evil.example\"",
        ),
        (
            format!("GET /nothing HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n").into_bytes(),
            404,
            "no such page",
        ),
    ];
    for (request, status, says) in cases {
        let mut stream = TcpStream::connect(&server.address).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        stream.write_all(&request).unwrap();
        let shown = String::from_utf8_lossy(&request[..request.len().min(40)]).into_owned();
        let (got, head, body) = answer(&mut stream);
        assert_eq!(got, status, "{shown}: {body}");
        assert_guarded(&head);
        assert!(
            body["error"].as_str().unwrap().contains(says),
            "{shown}: {body}"
        );
        if status == 405 {
            assert!(head.contains("allow: get,head"), "{head}");
        }
    }
    // Answers before a refused request on the same connection are whole.
    let mut stream = TcpStream::connect(&server.address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let info = format!("GET /api/info HTTP/1.1\r\nHost: {host}\r\n\r\n");
    stream
        .write_all(format!("{info}{info}GARBAGE\r\n\r\n").as_bytes())
        .unwrap();
    let mut all = String::new();
    let _ = stream.read_to_string(&mut all);
    assert_eq!(all.matches("HTTP/1.1 200 OK").count(), 2, "{all}");
    assert_eq!(all.matches("\"games\":6").count(), 2, "{all}");
    assert!(all.contains("HTTP/1.1 400 Bad Request"), "{all}");
}

#[test]
fn allowed_host_names_pass_the_host_check() {
    let server = Server::start(&[
        "fixtures/transcripts/example.txt",
        "--allow-host",
        "games.example.org,Kifu.Club",
        "--allow-host",
        "othello.local",
    ]);
    for host in [
        "games.example.org",
        "kifu.club:8064",
        "OTHELLO.local",
        "localhost",
    ] {
        assert_eq!(server.get_as("/api/info", host).0, 200, "{host}");
    }
    for host in ["example.org", "evil.games.example.org", "10.1.2.3"] {
        let (status, body) = server.get_as("/api/info", host);
        assert_eq!(status, 403, "{host}: {body}");
        assert!(
            body.contains("games.example.org, kifu.club, othello.local"),
            "{body}"
        );
    }
    for bad in [
        "games.example.org:80",
        "http://games.example.org",
        "*.example.org",
        "",
    ] {
        let out = kifu()
            .args([
                "serve",
                "fixtures/transcripts/example.txt",
                "--allow-host",
                bad,
            ])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("not a host name"), "{bad}: {stderr}");
    }
}

#[test]
fn files_are_named_by_file_name_unless_paths_are_asked() {
    let files = [
        "fixtures/transcripts/example.txt",
        "fixtures/wthor/SAMPLE.wtb",
    ];
    let server = Server::start(&files);
    let info = json(&server.get("/api/info").1);
    assert_eq!(
        info["sources"],
        serde_json::json!(["example.txt", "SAMPLE.wtb"])
    );
    let page = json(&server.get("/api/games?limit=1000").1);
    assert!(page["games"]
        .as_array()
        .unwrap()
        .iter()
        .all(|g| !g["source"].as_str().unwrap().contains('/')));
    let (status, body) = server.get("/api/game?source=SAMPLE.wtb&index=1");
    assert_eq!(status, 200, "{body}");
    assert!(!body.contains("fixtures/"), "{body}");
    let (status, _) = server.get("/api/game?source=fixtures%2Fwthor%2FSAMPLE.wtb&index=1");
    assert_eq!(status, 400);
    drop(server);
    let server = Server::start(&[&files[..], &["--show-paths"]].concat());
    let info = json(&server.get("/api/info").1);
    assert_eq!(info["sources"], serde_json::json!(files));
}

/// `--save-index` saves the position index and exits; `--index` reads it
/// back, with the same answers as a server that built it. An index of
/// other games (another file, other filters) or a damaged one is left
/// aside with a warning and the index is built; the index file may not
/// be an input.
#[test]
fn a_saved_index_starts_it_with_the_same_answers() {
    let Some(files) = wthor(&["1980", "2004"]) else {
        return;
    };
    let dir = scratch("serve-index");
    let index = dir.join("games.kidx");
    let index_arg = index.display().to_string();
    let mut args: Vec<&str> = files.iter().map(String::as_str).collect();
    let out = kifu()
        .args(["serve"])
        .args(&args)
        .args(["--save-index", &index_arg])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("saved to"), "{stderr}");
    assert!(std::fs::metadata(&index).unwrap().len() > 61 * 1_000);
    let leftovers: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(leftovers.len(), 1, "only the index: {leftovers:?}");

    let queries = [
        "/api/explore",
        "/api/explore?moves=f5d6c3d3c4",
        "/api/explore?moves=f5f6e6f4e3c5c4e3",
        "/api/explore?moves=c4e3f6e6f5c5c3&player=tastet",
        "/api/games?moves=f5d6c3d3c4f4f6&offset=2&limit=20",
        "/api/games?moves=e6f4e3f6d3",
    ];
    let built = Server::start(&args);
    let expected: Vec<(u16, String)> = queries.iter().map(|q| built.get(q)).collect();
    drop(built);
    args.extend(["--index", &index_arg]);
    let read = Server::start(&args);
    for (q, answer) in queries.iter().zip(&expected) {
        assert_eq!(&read.get(q), answer, "{q}");
    }
    assert!(
        !read.started.iter().any(|l| l.contains("warning"))
            && read
                .started
                .iter()
                .any(|l| l.contains("the index read from")),
        "{:?}",
        read.started
    );
    drop(read);

    // Another file, other filters, a damaged file: a warning, and the
    // same answers from an index built.
    let mut damaged = std::fs::read(&index).unwrap();
    let at = damaged.len() / 2;
    damaged[at] ^= 1;
    let damaged_path = dir.join("damaged.kidx");
    std::fs::write(&damaged_path, damaged).unwrap();
    let damaged_arg = damaged_path.display().to_string();
    let other = [
        (
            vec![files[0].as_str(), "--index", &index_arg],
            "made from other games",
        ),
        (
            vec![
                files[0].as_str(),
                files[1].as_str(),
                "--year",
                "2004",
                "--index",
                &index_arg,
            ],
            "made from other games",
        ),
        (
            vec![
                files[0].as_str(),
                files[1].as_str(),
                "--index",
                &damaged_arg,
            ],
            "damaged",
        ),
    ];
    for (args, why) in other {
        let server = Server::start(&args);
        let said = &server.started;
        assert!(
            said.iter()
                .any(|l| l.contains("warning") && l.contains(why)),
            "{args:?}: {said:?}"
        );
        let (status, body) = server.get("/api/explore?moves=f5d6c3");
        let filters: Vec<&str> = args[..args.len() - 2]
            .iter()
            .filter(|a| !a.ends_with(".wtb"))
            .copied()
            .collect();
        let names: Vec<String> = args
            .iter()
            .filter(|a| a.ends_with(".wtb"))
            .map(|a| a.to_string())
            .collect();
        let mut cli = vec!["--moves", "f5d6c3"];
        cli.extend(&filters);
        assert_eq!((status, body), (200, explore_cli(&names, &cli)), "{args:?}");
    }

    // The index may not be written over an input, nor served from an
    // unfinished run.
    let out = kifu()
        .args(["serve", &files[0], "--save-index", &files[0]])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is the input"));
    let out = kifu()
        .args([
            "serve",
            &files[0],
            "--save-index",
            &index_arg,
            "--index",
            &index_arg,
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}
