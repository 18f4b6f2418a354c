//! The arena in the browser (`ladder arena run DIR --listen`): a web server
//! inside ladder that serves the arena's pages and their JSON API
//! (docs/ARENA.md) from the binary itself, with nothing to fetch.
//!
//! The server reads the arena's database ([`crate::arena::store`]) for
//! every request, so it shows what any process did to the arena (an
//! `arena add` from a terminal appears at once); a page learns that
//! something changed from the event stream (`/api/stream`: server-sent
//! events whenever the arena's last event or game count moves) and fetches
//! its data again.
//!
//! - [`api`]: the JSON of each endpoint, built from the store;
//! - [`filter`]: the games a query keeps;
//! - [`log`]: the event log, a page at a time;
//! - [`pages`]: the HTML of each page and its script and style;
//! - [`upload`]: a bot uploaded from a page, unpacked and checked;
//! - [`replays`]: a season's games as replay pages that need no server;
//! - [`access`]: whether a request may be answered or act;
//! - [`connections`]: how many connections it holds, and how long;
//! - this module: the routes, and the guard of every action: loopback by
//!   default, a token on any other address, no cross-site requests.
//!
//! It is built on axum (tokio's HTTP stack) in a thread of its own: the
//! arena's play loop stays the plain threads it is.

pub mod access;
pub mod api;
pub mod connections;
pub mod filter;
pub mod history;
pub mod log;
pub mod pages;
pub mod replays;
pub mod upload;

use std::{
    net::{SocketAddr, TcpListener},
    path::{Path, PathBuf},
    sync::Arc,
    time::Duration,
};

use axum::{
    body::Body,
    extract::{Path as UrlPath, Query, Request, State},
    http::{header, HeaderValue, Method, StatusCode},
    middleware::{self, Next},
    response::{IntoResponse, Response},
    routing::{get, post},
    Json, Router,
};
use serde_json::{json, Value};

use self::connections::{Limited, Limits};
use crate::{
    arena::{self, Joining},
    core::{
        error::{Error, Result},
        record::Record,
    },
    journal::replay::{plies, Ply},
    plan::Roster,
    show::Show,
};

/// The address `--listen` takes without one: loopback, port 8080.
pub const DEFAULT_LISTEN: &str = "127.0.0.1:8080";
/// The environment variable that may hold the token instead of `--token`.
pub const TOKEN_VAR: &str = "LADDER_TOKEN";
/// The largest upload taken, in bytes (a bot's program or archive).
pub const UPLOAD_LIMIT: usize = 8 * 1024 * 1024;
/// How often the event stream looks at the arena for changes.
const POLL: Duration = Duration::from_millis(250);
/// How often the event stream says it is still there while nothing moves.
const STILL_HERE: Duration = Duration::from_secs(20);

/// How the server is reached and guarded.
#[derive(Clone, Debug)]
pub struct Options {
    pub listen: SocketAddr,
    /// Required for every action when set; a non-loopback address needs one.
    pub token: Option<String>,
    pub upload_limit: usize,
}

/// What the server needs of the arena's game, whose type only the
/// catalogue knows: its replays and a new bot's joining.
pub trait GameOf: Send + Sync {
    /// Every position of a finished game.
    fn plies(&self, record: &Record) -> Result<Vec<Ply>>;
    /// Adds a bot as [`arena::add`] does.
    fn add(
        &self,
        name: &str,
        table: &toml::Table,
        from: &Path,
        joining: Joining,
    ) -> Result<arena::Joined>;
    /// Whether both seats move every turn (the rounds of Troops).
    fn simultaneous(&self) -> bool;
}

struct Typed<G: Show> {
    dir: PathBuf,
    roster: Roster<G>,
    params: G::Params,
    simultaneous: bool,
}

impl<G: Show> GameOf for Typed<G> {
    fn plies(&self, record: &Record) -> Result<Vec<Ply>> {
        plies::<G>(&self.params, record)
    }
    fn add(
        &self,
        name: &str,
        table: &toml::Table,
        from: &Path,
        joining: Joining,
    ) -> Result<arena::Joined> {
        arena::add(&self.dir, &self.roster, name, table, from, joining)
    }
    fn simultaneous(&self) -> bool {
        self.simultaneous
    }
}

/// The arena's game as the server needs it (its parameters from the
/// arena's settings).
pub fn game_of<G: Show>(dir: &Path, roster: &Roster<G>) -> Result<Arc<dyn GameOf>> {
    let store = arena::store::Store::open(dir)?;
    let season = arena::config::Settings::stored(&store)?.season;
    let plan = arena::config::base_plan(dir, &season, &[], roster)?;
    let acting = plan.start.to_act();
    Ok(Arc::new(Typed::<G> {
        dir: dir.to_path_buf(),
        roster: Roster {
            game: roster.game,
            builtins: roster.builtins,
            protocols: roster.protocols,
            elsewhere: roster.elsewhere,
        },
        params: plan.params,
        simultaneous: acting.first && acting.second,
    }))
}

/// What every handler shares.
#[derive(Clone)]
struct Web {
    dir: Arc<PathBuf>,
    game: Arc<dyn GameOf>,
    options: Arc<Options>,
    /// The league and the leaderboard, kept up to date a batch at a time
    /// (every endpoint that needs the league alone reads it from here).
    board: Arc<std::sync::Mutex<api::Board>>,
    /// Where the arena stands (events, games), looked at by one task for
    /// every client of the event stream ([`watch_progress`]).
    progress: Arc<Progress>,
}

/// The arena's progress as the event stream sends it: the last event's
/// number and the games finished; `None` until first looked at.
type Progress = tokio::sync::watch::Sender<Option<(u64, u64)>>;

/// A running server: the address it listens on (the port the system
/// chose for port 0).
pub struct Server {
    pub addr: SocketAddr,
}

/// The fewest characters a token may have: a shorter one is guessed over
/// the network (the server answers every try).
pub const MIN_TOKEN: usize = 16;

/// Checks `options`: an address other than loopback needs a token, and a
/// token must be one a client can send (printable ASCII, no blank) and
/// not easily guessed.
pub fn check(options: &Options) -> Result<()> {
    if !options.listen.ip().is_loopback() && options.token.as_deref().is_none_or(str::is_empty) {
        return Err(Error::Usage(format!(
            "--listen {}: an address other than loopback needs a token for actions \
             (--token, or the environment variable {TOKEN_VAR})",
            options.listen
        )));
    }
    let Some(token) = options.token.as_deref() else {
        return Ok(());
    };
    let advice = "e.g. `openssl rand -hex 16`";
    if !token.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(Error::Usage(format!(
            "the token (--token or {TOKEN_VAR}) may hold only printable ASCII characters \
             without blanks, which every client can send in a header ({advice})"
        )));
    }
    if token.len() < MIN_TOKEN {
        return Err(Error::Usage(format!(
            "the token (--token or {TOKEN_VAR}) has {} characters, which is guessed over the \
             network: give at least {MIN_TOKEN} ({advice})",
            token.len()
        )));
    }
    Ok(())
}

/// Starts serving the arena in `dir` in a thread of its own; it serves
/// until the process ends.
pub fn serve(dir: &Path, game: Arc<dyn GameOf>, options: Options) -> Result<Server> {
    check(&options)?;
    let listener = TcpListener::bind(options.listen)
        .map_err(|e| Error::Usage(format!("--listen {}: {e}", options.listen)))?;
    listener
        .set_nonblocking(true)
        .map_err(|e| Error::Usage(format!("--listen {}: {e}", options.listen)))?;
    let addr = listener
        .local_addr()
        .map_err(|e| Error::Usage(format!("--listen {}: {e}", options.listen)))?;
    let web = Web {
        dir: Arc::new(dir.to_path_buf()),
        game,
        options: Arc::new(options),
        board: Arc::default(),
        progress: Arc::new(Progress::new(None)),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("ladder-web")
        .on_thread_start(behind_the_arena)
        .enable_all()
        .build()
        .map_err(|e| Error::Usage(format!("starting the web server: {e}")))?;
    std::thread::Builder::new()
        .name("ladder-web".into())
        .spawn(move || {
            behind_the_arena();
            runtime.block_on(async move {
                let listener = match tokio::net::TcpListener::from_std(listener) {
                    Ok(l) => l,
                    Err(e) => return eprintln!("ladder: the web server stopped: {e}"),
                };
                tokio::spawn(watch_progress(
                    Arc::clone(&web.dir),
                    Arc::clone(&web.progress),
                ));
                let listener = Limited::new(listener, Limits::of_this_process());
                if let Err(e) = axum::serve(listener, router(web)).await {
                    eprintln!("ladder: the web server stopped: {e}");
                }
            })
        })
        .map_err(|e| Error::Usage(format!("starting the web server: {e}")))?;
    Ok(Server { addr })
}

/// How much lower the server's threads run than the arena's play: a
/// scan of every game (a filtered page) costs up to a second of a core on
/// a large arena, and visitors who ask for many at once take the CPU from
/// the arena's games only where the games leave it.
pub const NICER: i32 = 10;

/// Sets the calling thread's priority [`NICER`] below the process's main
/// thread's, or to the lowest (Linux's nice value is per thread, and a
/// thread starts with its creator's, so it is counted from the main
/// thread's rather than its own); where it cannot, the thread runs as it
/// was.
fn behind_the_arena() {
    use rustix::process::{getpid, getpriority_process, setpriority_process};
    if let Ok(arena) = getpriority_process(Some(getpid())) {
        let _ = setpriority_process(None, (arena + NICER).min(19));
    }
}

fn router(web: Web) -> Router {
    Router::new()
        .route("/", get(pages::leaderboard))
        .route("/bots/{bot}", get(pages::bot))
        .route("/games", get(pages::games))
        .route("/games/{number}", get(pages::replay))
        .route("/candidates", get(pages::candidates))
        .route("/upload", get(pages::upload))
        .route("/assets/{file}", get(pages::asset))
        .route("/api/arena", get(arena_info))
        .route("/api/leaderboard", get(leaderboard))
        .route("/api/bots", get(bots).post(upload_bot))
        .route("/api/bots/{bot}", get(bot))
        .route("/api/bots/{bot}/{action}", post(act))
        .route("/api/games", get(games))
        .route("/api/games/{number}", get(game))
        .route("/api/candidates", get(candidates))
        .route("/api/seasons", get(seasons))
        .route("/api/seasons/{number}", get(season))
        .route("/api/events", get(events))
        .route("/api/stream", get(stream))
        .fallback(not_found)
        .layer(middleware::from_fn_with_state(web.clone(), guard))
        .with_state(web)
}

/// An error as every endpoint gives it: a status and `{"error": "..."}`.
#[derive(Debug)]
pub struct Failure(pub StatusCode, pub String);

impl Failure {
    /// The arena's store holds what it cannot read (a record, say): the
    /// server's failure, not the request's.
    pub fn damaged(e: String) -> Failure {
        Failure(StatusCode::INTERNAL_SERVER_ERROR, e)
    }
}

impl IntoResponse for Failure {
    fn into_response(self) -> Response {
        (self.0, Json(json!({ "error": self.1 }))).into_response()
    }
}

impl From<Error> for Failure {
    fn from(e: Error) -> Failure {
        let status = match &e {
            Error::Usage(_) | Error::Config(_) => StatusCode::BAD_REQUEST,
            _ => StatusCode::INTERNAL_SERVER_ERROR,
        };
        Failure(status, e.to_string())
    }
}

type Answer = std::result::Result<Json<Value>, Failure>;

/// Runs `work` (which reads the store: blocking) off the async threads.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> std::result::Result<T, Failure> + Send + 'static,
) -> std::result::Result<T, Failure> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| Failure(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?
}

async fn not_found() -> Failure {
    Failure(StatusCode::NOT_FOUND, "no such page".into())
}

/// Every request that changes the arena (any method but GET and HEAD)
/// must come from the arena's own pages or a tool: never from another
/// site (its `Origin` or `Sec-Fetch-Site` says so), always with the header
/// `X-Ladder: 1` (which a cross-site form cannot send), and with the token
/// when the server has one (`Authorization: Bearer TOKEN`).
async fn guard(State(web): State<Web>, request: Request, next: Next) -> Response {
    // without a token the server is loopback's alone: a page of another
    // site whose name was made to point at 127.0.0.1 (DNS rebinding) asks
    // under that name, and is answered nothing
    let host = request
        .headers()
        .get(header::HOST)
        .map(HeaderValue::as_bytes);
    if web.options.token.is_none() && host.is_some_and(|h| !access::loopback_host(h)) {
        let why = "this server answers only requests for its loopback address \
                   (127.0.0.1, [::1], localhost); give it a token to serve it under another name";
        return Failure(StatusCode::FORBIDDEN, why.into()).into_response();
    }
    let reads = matches!(*request.method(), Method::GET | Method::HEAD);
    if !reads {
        if let Err(why) = access::allowed(request.headers(), web.options.token.as_deref()) {
            return Failure(StatusCode::FORBIDDEN, why).into_response();
        }
    }
    let api = request.uri().path().starts_with("/api/");
    let mut response = next.run(request).await;
    if api {
        response = json_error(response).await;
    }
    // the pages run only their own script, and no other site may frame them
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; script-src 'self'; style-src 'self'; object-src 'none'; \
             frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
        ),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    response
}

/// An API error that did not come from a handler (a query or path the
/// router cannot take, a method the endpoint has not: axum's own answers,
/// in plain text or empty) as every endpoint gives errors: `{"error": ...}`.
async fn json_error(response: Response) -> Response {
    let status = response.status();
    let json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|t| t.as_bytes().starts_with(b"application/json"));
    if !(status.is_client_error() || status.is_server_error()) || json {
        return response;
    }
    let (parts, body) = response.into_parts();
    // axum's own messages are a line; a longer body is cut, never read whole
    let text = match axum::body::to_bytes(body, 64 << 10).await {
        Ok(bytes) if !bytes.is_empty() => String::from_utf8_lossy(&bytes).into_owned(),
        _ => status
            .canonical_reason()
            .unwrap_or("refused")
            .to_lowercase(),
    };
    let mut wrapped = Failure(status, text).into_response();
    // what the answer tells the client beyond its body (`Allow` on a 405) stays
    for (name, value) in &parts.headers {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            wrapped.headers_mut().append(name, value.clone());
        }
    }
    wrapped
}

async fn arena_info(State(web): State<Web>) -> Answer {
    blocking(move || Ok(Json(api::arena(&web.dir, &web.board)?))).await
}

async fn leaderboard(State(web): State<Web>, Query(q): Query<Vec<(String, String)>>) -> Answer {
    blocking(move || {
        if q.iter().all(|(_, value)| value.is_empty()) {
            return Ok(Json(api::leaderboard_kept(&web.dir, &web.board)?));
        }
        Ok(Json(api::leaderboard(&web.dir, &q, &web.board)?))
    })
    .await
}

async fn bots(State(web): State<Web>) -> Answer {
    blocking(move || Ok(Json(api::bots(&web.dir, &web.board)?))).await
}

async fn bot(State(web): State<Web>, UrlPath(bot): UrlPath<String>) -> Answer {
    blocking(move || Ok(Json(api::bot(&web.dir, &bot, &web.board)?))).await
}

async fn games(State(web): State<Web>, Query(q): Query<Vec<(String, String)>>) -> Answer {
    blocking(move || Ok(Json(api::games(&web.dir, &q, &web.board)?))).await
}

async fn game(State(web): State<Web>, UrlPath(number): UrlPath<String>) -> Answer {
    blocking(move || Ok(Json(api::game(&web.dir, &*web.game, &number)?))).await
}

async fn candidates(State(web): State<Web>) -> Answer {
    blocking(move || Ok(Json(api::candidates(&web.dir, &web.board)?))).await
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Limit {
    limit: Option<String>,
}

async fn seasons(State(web): State<Web>, Query(q): Query<Limit>) -> Answer {
    blocking(move || Ok(Json(api::seasons(&web.dir, q.limit.as_deref())?))).await
}

async fn season(State(web): State<Web>, UrlPath(number): UrlPath<String>) -> Answer {
    blocking(move || Ok(Json(api::season(&web.dir, &number)?))).await
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct After {
    #[serde(default)]
    after: u64,
}

async fn events(State(web): State<Web>, Query(q): Query<After>) -> Answer {
    blocking(move || Ok(Json(log::events(&web.dir, q.after)?))).await
}

/// `POST /api/bots/BOT/ACTION`: retire, promote or reject.
async fn act(State(web): State<Web>, UrlPath((bot, action)): UrlPath<(String, String)>) -> Answer {
    blocking(move || {
        let dir = &*web.dir;
        let done = match action.as_str() {
            "retire" => arena::retire(dir, &bot)?,
            "promote" | "reject" => {
                arena::decide(dir, &bot, action == "promote")?;
                vec![bot.clone()]
            }
            other => {
                return Err(Failure(
                    StatusCode::NOT_FOUND,
                    format!("no action `{other}` (retire, promote, reject)"),
                ))
            }
        };
        Ok(Json(json!({ "action": action, "bots": done })))
    })
    .await
}

/// `POST /api/bots?name=..&file=..&command=..`: the body is the bot's file
/// or archive ([`upload`]).
async fn upload_bot(
    State(web): State<Web>,
    Query(q): Query<upload::Upload>,
    body: Body,
) -> std::result::Result<(StatusCode, Json<Value>), Failure> {
    let limit = web.options.upload_limit;
    let bytes = axum::body::to_bytes(body, limit).await.map_err(|_| {
        Failure(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("an upload may hold at most {limit} bytes"),
        )
    })?;
    blocking(move || {
        let joined = upload::add(&web.dir, &*web.game, &q, &bytes, limit)?;
        let notes = upload::notes(&joined);
        Ok((
            StatusCode::CREATED,
            Json(json!({ "bot": joined.bot, "notes": notes })),
        ))
    })
    .await
}

/// `GET /api/stream`: server-sent events, one `progress` event
/// (`{"events": N, "games": M}`) at once (within a look, [`POLL`]) and
/// another whenever either moves, and a comment line every [`STILL_HERE`]
/// while nothing does. Every client hears the one task that looks ([`watch_progress`]); a
/// client that leaves drops its stream, and nothing of it is left.
async fn stream(State(web): State<Web>) -> Response {
    let mut changes = web.progress.subscribe();
    let now = *changes.borrow_and_update();
    let event = |(events, games): (u64, u64)| -> std::result::Result<String, std::io::Error> {
        let data = json!({ "events": events, "games": games });
        Ok(format!("event: progress\ndata: {data}\n\n"))
    };
    let later = futures_util::stream::unfold(changes, move |mut changes| async move {
        loop {
            // a comment while nothing moves, so that the connection is
            // never idle long enough to be closed ([`connections`])
            match tokio::time::timeout(STILL_HERE, changes.changed()).await {
                Err(_) => return Some((Ok(": still here\n\n".to_string()), changes)),
                Ok(changed) => changed.ok()?,
            }
            let now = *changes.borrow_and_update();
            if let Some(now) = now {
                return Some((event(now), changes));
            }
        }
    });
    let body = Body::from_stream(futures_util::StreamExt::chain(
        futures_util::stream::iter(now.map(event)),
        later,
    ));
    Response::builder()
        .header(header::CONTENT_TYPE, "text/event-stream")
        .header(header::CACHE_CONTROL, "no-cache")
        .body(body)
        .expect("a response")
}

/// Looks at the arena in `dir` every [`POLL`] while the event stream has a
/// client, and tells `progress` when it moved: one look for every client.
async fn watch_progress(dir: Arc<PathBuf>, progress: Arc<Progress>) {
    loop {
        if progress.receiver_count() > 0 {
            let dir = Arc::clone(&dir);
            let now = tokio::task::spawn_blocking(move || {
                arena::store::Store::open(&dir).and_then(|s| s.progress())
            })
            .await;
            if let Ok(Ok(now)) = now {
                progress.send_if_modified(|was| {
                    let moved = *was != Some(now);
                    *was = Some(now);
                    moved
                });
            }
        } else {
            // nobody hears: the next client waits for a fresh look
            progress.send_replace(None);
        }
        tokio::time::sleep(POLL).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_goes_without_a_token() {
        let at = |a: &str, token: Option<&str>| Options {
            listen: a.parse().unwrap(),
            token: token.map(String::from),
            upload_limit: UPLOAD_LIMIT,
        };
        assert!(check(&at("127.0.0.1:0", None)).is_ok());
        assert!(check(&at("[::1]:0", None)).is_ok());
        assert!(check(&at("0.0.0.0:0", None)).is_err());
        assert!(check(&at("0.0.0.0:0", Some(""))).is_err());
        let strong = "0123456789abcdef";
        assert!(check(&at("0.0.0.0:0", Some(strong))).is_ok());
        // a token guessed in a few tries, or one no client can send
        for weak in [
            "t",
            "s3cret",
            &strong[1..],
            "0123456789 abcdef",
            "0123456789abcdéf",
        ] {
            assert!(check(&at("0.0.0.0:0", Some(weak))).is_err(), "{weak}");
            assert!(check(&at("127.0.0.1:0", Some(weak))).is_err(), "{weak}");
        }
    }

    #[test]
    fn the_event_stream_speaks_well_within_the_idle_time_of_a_connection() {
        // a quiet arena's stream is kept open by its comments, twice or
        // more before a connection would be closed as idle
        for files in [64, 1024, 1 << 20] {
            let limits = connections::Limits::for_files(files);
            assert!(STILL_HERE * 2 < limits.idle, "{limits:?}");
        }
    }
}
