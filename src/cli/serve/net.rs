//! The connections under `kifu serve`: HTTP/1.1 by hyper, with the limits
//! that keep slow or hostile clients from holding the server (SPEC
//! section 13).
//!
//! - At most [`Limits::max_connections`] are open; a connection over that
//!   is answered 503 at once and closed ([`answer_and_close`]).
//! - Each request head is read whole and checked here before hyper sees
//!   it ([`Gate`]): its size, its target's length, its header count, that
//!   it has no body. What fails is answered here, as JSON (400, 405, 413,
//!   414, 431): hyper's own answers to these have no body.
//! - A head must come whole within [`Limits::header_timeout`] of the
//!   connection's opening or of the previous answer (hyper's header read
//!   timeout, one deadline for the whole head: a client sending a byte
//!   every few seconds gains nothing), else the connection is closed, with
//!   a 408 when part of a head came.
//! - An answer the client leaves unread for [`Limits::idle_timeout`] is
//!   given up and the connection closed.
//! - When the server stops, connections with no request under way close
//!   at once; the others have [`GRACE`] to finish their answers.

use std::convert::Infallible;
use std::future::{poll_fn, Future};
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{ready, Context, Poll};
use std::time::Duration;

use axum::body::Body;
use axum::http::{self, StatusCode};
use axum::Router;
use hyper::body::{Bytes, Frame, Incoming, SizeHint};
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, OwnedSemaphorePermit, Semaphore};
use tokio::task::JoinSet;
use tokio::time::Sleep;

use crate::cli::serve::error::ApiError;
use crate::cli::serve::pages::SECURITY_HEADERS;

/// What a client may take of the server.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Connections open at once.
    pub max_connections: usize,
    /// The time to send a request's head.
    pub header_timeout: Duration,
    /// The time an answer may wait for the client to read it.
    pub idle_timeout: Duration,
}

/// How long answers under way may take to finish once the server stops.
pub const GRACE: Duration = Duration::from_secs(3);

/// Connections over the limit being answered 503 at once; more are closed
/// without an answer.
const REFUSING: usize = 64;

/// The longest request head taken (browsers send a few hundred bytes;
/// cookies of other local sites can add some kilobytes).
pub const MAX_HEAD: usize = 32 * 1024;

/// The longest request target (path and query) taken: the API's longest
/// query is 4 KiB ([`super::params`] says so in a 400 below this).
pub const MAX_TARGET: usize = 8 * 1024;

/// The most header fields a head may have (hyper's own limit).
const MAX_HEADERS: usize = 100;

/// Accepts connections until `stop` turns true, then gives those under
/// way [`GRACE`] to finish.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: Limits,
    mut stop: watch::Receiver<bool>,
) {
    let open = Arc::new(Semaphore::new(limits.max_connections));
    let refusing = Arc::new(Semaphore::new(REFUSING));
    let mut connections = JoinSet::new();
    loop {
        tokio::select! {
            () = stopping(&mut stop) => break,
            accepted = listener.accept() => {
                let Ok((stream, _)) = accepted else {
                    // Out of file descriptors, or a connection reset before
                    // it was taken: the connections that end free some.
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                };
                if let Ok(permit) = Arc::clone(&open).try_acquire_owned() {
                    connections.spawn(connection(stream, router.clone(), limits, stop.clone(), permit));
                } else if let Ok(permit) = Arc::clone(&refusing).try_acquire_owned() {
                    let busy = busy(limits.max_connections);
                    connections.spawn(async move {
                        answer_and_close(stream, &busy).await;
                        drop(permit);
                    });
                }
                // Else the stream is dropped: closed without an answer.
            }
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
        }
    }
    drop(listener);
    let _ = tokio::time::timeout(GRACE, async {
        while connections.join_next().await.is_some() {}
    })
    .await;
    // Dropping the set ends the connections still open.
}

/// Done when the server stops (or can no longer be told to).
async fn stopping(stop: &mut watch::Receiver<bool>) {
    let _ = stop.wait_for(|stop| *stop).await;
}

/// The answer to a connection over the limit.
fn busy(max: usize) -> ApiError {
    ApiError::status(
        StatusCode::SERVICE_UNAVAILABLE,
        None,
        format!("busy: {max} connections are open (--max-connections); try again in a moment"),
    )
}

/// One connection: hyper's HTTP/1 over a [`Gate`], until the client or
/// the server ends it.
async fn connection(
    stream: TcpStream,
    router: Router,
    limits: Limits,
    mut stop: watch::Receiver<bool>,
    _open: OwnedSemaphorePermit,
) {
    let _ = stream.set_nodelay(true);
    let under_way = Arc::new(AtomicUsize::new(0));
    let service = Counting {
        router: TowerToHyperService::new(router),
        under_way: Arc::clone(&under_way),
    };
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        // A client that closes its side after its request still gets the
        // answer, and a request refused after one under way ends the
        // connection only once that one is answered.
        .half_close(true);
    let mut conn = builder.serve_connection(
        TokioIo::new(Gate::new(stream, limits.idle_timeout)),
        service,
    );
    let ended = tokio::select! {
        ended = poll_fn(|cx| conn.poll_without_shutdown(cx)) => ended,
        () = stopping(&mut stop) => {
            if under_way.load(Ordering::SeqCst) == 0 {
                return;
            }
            Pin::new(&mut conn).graceful_shutdown();
            poll_fn(|cx| conn.poll_without_shutdown(cx)).await
        }
    };
    let mut gate = conn.into_parts().io.into_inner();
    let answer = match gate.refusal.take() {
        Some(refusal) => Some(refusal),
        None if ended.as_ref().is_err_and(hyper::Error::is_timeout) && !gate.buffer.is_empty() => {
            Some(ApiError::status(
                StatusCode::REQUEST_TIMEOUT,
                None,
                format!(
                    "the request's head did not come whole within {} s (--header-timeout)",
                    limits.header_timeout.as_secs_f64()
                ),
            ))
        }
        None => None,
    };
    if let Some(answer) = answer {
        answer_and_close(gate.stream, &answer).await;
    }
}

/// Writes `answer` as a whole HTTP response and closes the connection,
/// reading what the client still sends for a moment first: closing with
/// unread bytes would reset the connection, and the client could lose the
/// answer.
async fn answer_and_close(mut stream: TcpStream, answer: &ApiError) {
    let bytes = response_bytes(answer);
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        stream.write_all(&bytes).await?;
        stream.shutdown().await?;
        let mut sink = [0; 4096];
        let mut left = 1usize << 20;
        while left > 0 {
            let n = stream.read(&mut sink).await?;
            if n == 0 {
                break;
            }
            left = left.saturating_sub(n);
        }
        Ok::<_, io::Error>(())
    })
    .await;
}

/// `answer` as the bytes of an HTTP/1.1 response that closes the
/// connection, with the headers every answer carries.
fn response_bytes(answer: &ApiError) -> Vec<u8> {
    let status = answer.status_code();
    let body = answer.body();
    let mut head = format!(
        "HTTP/1.1 {} {}\r\ncontent-type: application/json; charset=utf-8\r\n\
         cache-control: no-store\r\nconnection: close\r\ncontent-length: {}\r\n",
        status.as_u16(),
        status.canonical_reason().unwrap_or(""),
        body.len()
    );
    for (name, value) in SECURITY_HEADERS {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    if status == StatusCode::METHOD_NOT_ALLOWED {
        head.push_str("allow: GET,HEAD\r\n");
    }
    if status == StatusCode::SERVICE_UNAVAILABLE {
        head.push_str("retry-after: 1\r\n");
    }
    head.push_str("\r\n");
    let mut bytes = head.into_bytes();
    bytes.extend_from_slice(body.as_bytes());
    bytes
}

/// The router as hyper's service, counting the requests under way (from
/// the call until hyper has written the answer's body).
struct Counting {
    router: TowerToHyperService<Router>,
    under_way: Arc<AtomicUsize>,
}

impl hyper::service::Service<http::Request<Incoming>> for Counting {
    type Response = http::Response<Counted>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Infallible>> + Send>>;

    fn call(&self, request: http::Request<Incoming>) -> Self::Future {
        let under_way = UnderWay::enter(&self.under_way);
        let answer = self.router.call(request);
        Box::pin(async move {
            let response = answer.await?;
            Ok(response.map(|body| Counted {
                body,
                _under_way: under_way,
            }))
        })
    }
}

/// One request under way, until dropped.
struct UnderWay(Arc<AtomicUsize>);

impl UnderWay {
    fn enter(count: &Arc<AtomicUsize>) -> UnderWay {
        count.fetch_add(1, Ordering::SeqCst);
        UnderWay(Arc::clone(count))
    }
}

impl Drop for UnderWay {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// An answer's body, its request under way until hyper drops it.
struct Counted {
    body: Body,
    _under_way: UnderWay,
}

impl hyper::body::Body for Counted {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// The connection's stream as hyper reads and writes it: a request head
/// reaches hyper only once it came whole and passed [`check_head`]; a
/// head that fails ends what hyper reads (it answers what came before)
/// and is kept as [`Gate::refusal`] for the connection to answer. A write
/// the client leaves unread for `idle` fails.
pub struct Gate {
    stream: TcpStream,
    /// What came and hyper has not read: `checked` bytes of checked heads,
    /// then the start of the next head.
    buffer: Vec<u8>,
    checked: usize,
    /// How far the next head was searched for its end.
    scanned: usize,
    eof: bool,
    refusal: Option<ApiError>,
    idle: Duration,
    stalled: Option<Pin<Box<Sleep>>>,
}

impl Gate {
    pub fn new(stream: TcpStream, idle: Duration) -> Gate {
        Gate {
            stream,
            buffer: Vec::new(),
            checked: 0,
            scanned: 0,
            eof: false,
            refusal: None,
            idle,
            stalled: None,
        }
    }

    /// Checks the head at the start of the buffer once it ended (or grew
    /// too long): `Some(Ok(length))` when it passes.
    fn check_next(&mut self) -> Option<Result<usize, ApiError>> {
        let from = self.scanned.saturating_sub(2);
        self.scanned = self.buffer.len();
        let ended = head_ends(&self.buffer[from..]);
        if !ended && self.buffer.len() <= MAX_HEAD {
            return None;
        }
        check_head(&self.buffer)
    }
}

/// Whether `bytes` hold the empty line that ends a head.
fn head_ends(bytes: &[u8]) -> bool {
    memchr::memmem::find(bytes, b"\n\r\n").is_some()
        || memchr::memmem::find(bytes, b"\n\n").is_some()
}

/// Checks the request head at the start of `bytes`: `None` while it has
/// not ended, `Some(Ok(length))` when it passes, else the answer.
pub fn check_head(bytes: &[u8]) -> Option<Result<usize, ApiError>> {
    let refuse = |status, message: String| Some(Err(ApiError::status(status, None, message)));
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut request = httparse::Request::new(&mut headers);
    let length = match request.parse(bytes) {
        Ok(httparse::Status::Complete(length)) => length,
        Ok(httparse::Status::Partial) if bytes.len() <= MAX_HEAD => return None,
        Ok(httparse::Status::Partial) => {
            let line = bytes
                .iter()
                .skip_while(|b| matches!(b, b'\r' | b'\n'))
                .position(|&b| b == b'\n');
            return if line.is_none_or(|end| end > MAX_TARGET) {
                refuse(
                    StatusCode::URI_TOO_LONG,
                    format!("the request's target is over {MAX_TARGET} bytes"),
                )
            } else {
                refuse(
                    StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
                    format!("the request's head is over {MAX_HEAD} bytes"),
                )
            };
        }
        Err(httparse::Error::TooManyHeaders) => {
            return refuse(
                StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
                format!("the request has over {MAX_HEADERS} header fields"),
            )
        }
        Err(e) => {
            return refuse(
                StatusCode::BAD_REQUEST,
                format!("not an HTTP/1 request: {e}"),
            )
        }
    };
    if length > MAX_HEAD {
        return refuse(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            format!("the request's head is over {MAX_HEAD} bytes"),
        );
    }
    let target = request.path.unwrap_or("");
    if target.len() > MAX_TARGET {
        return refuse(
            StatusCode::URI_TOO_LONG,
            format!("the request's target is over {MAX_TARGET} bytes"),
        );
    }
    if http::Uri::try_from(target).is_err() {
        return refuse(
            StatusCode::BAD_REQUEST,
            format!(
                "not a request target: {:?}",
                target.chars().take(100).collect::<String>()
            ),
        );
    }
    let method = request.method.unwrap_or("");
    let mut body = false;
    for header in request.headers.iter() {
        if http::HeaderName::from_bytes(header.name.as_bytes()).is_err()
            || http::HeaderValue::from_bytes(header.value).is_err()
        {
            return refuse(
                StatusCode::BAD_REQUEST,
                format!("the header field {:?} is malformed", header.name),
            );
        }
        if header.name.eq_ignore_ascii_case("transfer-encoding")
            || (header.name.eq_ignore_ascii_case("content-length")
                && header.value.trim_ascii() != b"0")
        {
            body = true;
        }
    }
    if body {
        return if matches!(method, "GET" | "HEAD") {
            refuse(
                StatusCode::PAYLOAD_TOO_LARGE,
                "a request to this server has no body".to_owned(),
            )
        } else {
            refuse(
                StatusCode::METHOD_NOT_ALLOWED,
                format!("{method}: this server answers GET and HEAD only"),
            )
        };
    }
    Some(Ok(length))
}

impl AsyncRead for Gate {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        out: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        loop {
            if this.checked > 0 {
                let n = this.checked.min(out.remaining());
                out.put_slice(&this.buffer[..n]);
                this.buffer.drain(..n);
                this.checked -= n;
                this.scanned = this.scanned.saturating_sub(n);
                return Poll::Ready(Ok(()));
            }
            if this.refusal.is_some() || this.eof {
                // The end, for hyper.
                return Poll::Ready(Ok(()));
            }
            match this.check_next() {
                Some(Ok(length)) => {
                    this.checked = length;
                    this.scanned = length;
                    continue;
                }
                Some(Err(refusal)) => {
                    this.refusal = Some(refusal);
                    continue;
                }
                None => {}
            }
            let start = this.buffer.len();
            this.buffer.resize(start + 8192, 0);
            let mut read = ReadBuf::new(&mut this.buffer[start..]);
            let polled = Pin::new(&mut this.stream).poll_read(cx, &mut read);
            let got = read.filled().len();
            this.buffer.truncate(start + got);
            ready!(polled)?;
            if got == 0 {
                this.eof = true;
            }
        }
    }
}

impl Gate {
    /// Pending while the client reads nothing, until `idle` has passed.
    fn stall(&mut self, cx: &mut Context<'_>) -> Poll<io::Error> {
        let idle = self.idle;
        let timer = self
            .stalled
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(idle)));
        ready!(timer.as_mut().poll(cx));
        Poll::Ready(io::Error::new(
            io::ErrorKind::TimedOut,
            "the client read nothing for the idle timeout",
        ))
    }
}

impl AsyncWrite for Gate {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        match Pin::new(&mut this.stream).poll_write(cx, data) {
            Poll::Ready(written) => {
                this.stalled = None;
                Poll::Ready(written)
            }
            Poll::Pending => this.stall(cx).map(Err),
        }
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        match Pin::new(&mut this.stream).poll_write_vectored(cx, data) {
            Poll::Ready(written) => {
                this.stalled = None;
                Poll::Ready(written)
            }
            Poll::Pending => this.stall(cx).map(Err),
        }
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}

/// The most connections the open-files limit leaves room for, raising
/// its soft limit to the hard one first (Linux; elsewhere `wanted`).
pub fn connections_allowed(wanted: usize) -> (usize, Option<u64>) {
    #[cfg(target_os = "linux")]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit and setrlimit read and write the struct given,
        // which lives on this stack for the calls.
        unsafe {
            if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
                return (wanted, None);
            }
            if limit.rlim_cur < limit.rlim_max {
                let raised = libc::rlimit {
                    rlim_cur: limit.rlim_max,
                    rlim_max: limit.rlim_max,
                };
                if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                    limit.rlim_cur = limit.rlim_max;
                }
            }
        }
        // rlim_t is u64 here, narrower on some targets.
        #[allow(clippy::useless_conversion)]
        let files = u64::from(limit.rlim_cur);
        // The inputs, the runtime, the connections being refused, the
        // standard streams: a margin beside the connections.
        let room = files.saturating_sub(REFUSING as u64 + 64);
        let allowed = usize::try_from(room)
            .unwrap_or(usize::MAX)
            .min(wanted)
            .max(1);
        (allowed, Some(files))
    }
    #[cfg(not(target_os = "linux"))]
    {
        (wanted, None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};
    use std::net::SocketAddr;

    use axum::routing::get;

    use crate::cli::serve::{app::App, hosts::Hosts, pages::guarded};

    /// A server on 127.0.0.1 with routes of its own (`/slow` answers after
    /// 800 ms, `/big` with 64 MiB), on a runtime of its own.
    struct TestServer {
        address: SocketAddr,
        stop: watch::Sender<bool>,
        done: std::thread::JoinHandle<()>,
    }

    fn test_server(limits: Limits, request_timeout: Duration) -> TestServer {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let listener = runtime.block_on(TcpListener::bind("127.0.0.1:0")).unwrap();
        let address = listener.local_addr().unwrap();
        let hosts = Hosts {
            loopback: true,
            names: Vec::new(),
        };
        let app = App::new(kifu::db::Database::new(), hosts, request_timeout);
        let routes = Router::new()
            .route(
                "/slow",
                get(|| async {
                    tokio::time::sleep(Duration::from_millis(800)).await;
                    "slept"
                }),
            )
            .route("/big", get(|| async { vec![b'x'; 64 << 20] }));
        let router = guarded(routes, app);
        let (stop, stopped) = watch::channel(false);
        let done = std::thread::spawn(move || {
            runtime.block_on(serve(listener, router, limits, stopped));
            runtime.shutdown_background();
        });
        TestServer {
            address,
            stop,
            done,
        }
    }

    const LIMITS: Limits = Limits {
        max_connections: 16,
        header_timeout: Duration::from_secs(10),
        idle_timeout: Duration::from_secs(10),
    };

    fn ask(address: SocketAddr, path: &str) -> std::net::TcpStream {
        let mut stream = std::net::TcpStream::connect(address).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        stream
    }

    fn read_all(stream: &mut std::net::TcpStream) -> Vec<u8> {
        let mut bytes = Vec::new();
        let mut chunk = [0; 65536];
        while let Ok(n) = stream.read(&mut chunk) {
            if n == 0 {
                break;
            }
            bytes.extend_from_slice(&chunk[..n]);
        }
        bytes
    }

    #[test]
    fn a_request_over_its_time_is_a_json_503() {
        let server = test_server(LIMITS, Duration::from_millis(100));
        let started = std::time::Instant::now();
        let mut stream = ask(server.address, "/slow");
        let mut head = vec![0; 1024];
        let n = stream.read(&mut head).unwrap();
        let text = String::from_utf8_lossy(&head[..n]).into_owned();
        assert!(
            started.elapsed() < Duration::from_millis(700),
            "{:?}",
            started.elapsed()
        );
        assert!(text.starts_with("HTTP/1.1 503"), "{text}");
        assert!(text.contains("retry-after: 1"), "{text}");
        assert!(text.contains("--request-timeout"), "{text}");
        server.stop.send_replace(true);
        server.done.join().unwrap();
    }

    #[test]
    fn an_answer_left_unread_is_given_up_after_the_idle_timeout() {
        let limits = Limits {
            idle_timeout: Duration::from_millis(300),
            ..LIMITS
        };
        let server = test_server(limits, Duration::from_secs(10));
        let mut stream = ask(server.address, "/big");
        std::thread::sleep(Duration::from_millis(1500));
        let bytes = read_all(&mut stream);
        assert!(bytes.starts_with(b"HTTP/1.1 200"));
        assert!(
            bytes.len() < 64 << 20,
            "{} bytes: the whole answer",
            bytes.len()
        );
        // A client that reads gets it whole.
        let mut stream = ask(server.address, "/big");
        let whole = read_all(&mut stream);
        assert!(whole.len() > 64 << 20, "{} bytes", whole.len());
        server.stop.send_replace(true);
        server.done.join().unwrap();
    }

    #[test]
    fn stopping_finishes_the_answers_under_way_and_closes_the_rest() {
        let server = test_server(LIMITS, Duration::from_secs(10));
        let mut idle = std::net::TcpStream::connect(server.address).unwrap();
        idle.set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        let mut slow = ask(server.address, "/slow");
        std::thread::sleep(Duration::from_millis(200));
        let started = std::time::Instant::now();
        server.stop.send_replace(true);
        let mut nothing = [0; 16];
        assert_eq!(idle.read(&mut nothing).unwrap_or(0), 0);
        assert!(
            started.elapsed() < Duration::from_millis(500),
            "{:?}",
            started.elapsed()
        );
        let answer = String::from_utf8(read_all(&mut slow)).unwrap();
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
        assert!(answer.ends_with("slept"), "{answer}");
        server.done.join().unwrap();
        assert!(started.elapsed() < GRACE, "{:?}", started.elapsed());
        assert!(std::net::TcpStream::connect(server.address).is_err());
    }

    fn status(head: &[u8]) -> Option<Result<usize, u16>> {
        check_head(head).map(|r| r.map_err(|e| e.status_code().as_u16()))
    }

    #[test]
    fn heads_are_checked_before_hyper_reads_them() {
        let get = b"GET /api/info HTTP/1.1\r\nHost: localhost\r\n\r\nGET /";
        assert_eq!(status(get), Some(Ok(get.len() - 5)));
        assert_eq!(status(b"GET /api/info HTTP/1.1\r\nHost: loc"), None);
        assert_eq!(status(b"GARBAGE\r\n\r\n"), Some(Err(400)));
        assert_eq!(status(b"GET / HTTP/9.9\r\n\r\n"), Some(Err(400)));
        assert_eq!(status(b"\x00\x01\x02\xff\r\n\r\n"), Some(Err(400)));
        let long = format!("GET /{} HTTP/1.1\r\n\r\n", "a".repeat(MAX_TARGET));
        assert_eq!(status(long.as_bytes()), Some(Err(414)));
        let endless = format!("GET /{}", "a".repeat(MAX_HEAD));
        assert_eq!(status(endless.as_bytes()), Some(Err(414)));
        let big = format!("GET / HTTP/1.1\r\nCookie: {}\r\n", "a".repeat(MAX_HEAD));
        assert_eq!(status(big.as_bytes()), Some(Err(431)));
        let many = format!(
            "GET / HTTP/1.1\r\n{}\r\n",
            "A: b\r\n".repeat(MAX_HEADERS + 1)
        );
        assert_eq!(status(many.as_bytes()), Some(Err(431)));
        let post = b"POST / HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc";
        assert_eq!(status(post), Some(Err(405)));
        let chunked = b"GET / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n";
        assert_eq!(status(chunked), Some(Err(413)));
        let empty = b"POST / HTTP/1.1\r\nContent-Length: 0\r\n\r\n";
        assert_eq!(status(empty), Some(Ok(empty.len())));
    }

    #[test]
    fn a_refusal_is_a_whole_json_response() {
        let bytes = response_bytes(&busy(3));
        let text = String::from_utf8(bytes).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").unwrap();
        assert!(
            head.starts_with("HTTP/1.1 503 Service Unavailable\r\n"),
            "{head}"
        );
        assert!(head.contains(&format!("content-length: {}\r\n", body.len())));
        assert!(head.contains("x-content-type-options: nosniff"));
        assert!(head.contains("retry-after: 1"));
        let json: serde_json::Value = serde_json::from_str(body).unwrap();
        assert!(json["error"]
            .as_str()
            .unwrap()
            .starts_with("busy: 3 connections"));
    }
}
