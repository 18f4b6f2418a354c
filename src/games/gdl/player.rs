//! `ladder ggp-player`: any of ladder's GDL bots as a General Game Playing
//! player over HTTP, for any GGP game manager: ggp-base's server, the
//! competitions' servers, and ladder itself (`protocol = "ggp"`, which also
//! plays the five native games through their twins, so `mcts` can meet
//! the native bots of each game).
//!
//! One message per request, as docs/GDL.md describes the protocol:
//! `(INFO)` is answered `available`; `(START id role (description...)
//! startclock playclock)` `ready` once the description is loaded; `(PLAY id
//! moves)` a move, searched within half the play clock; `(STOP id moves)`
//! `done`; `(ABORT id)` `aborted`. One match at a time: a START replaces the
//! match before. The bot is seeded from the match id and its role, so a
//! manager that numbers its matches as ladder does (`ladder.GAME.SEAT`)
//! gets the same games again while the bot's playout budget, not the
//! clock, ends its searches.
//!
//! Connections are read on threads of their own (a limited number, and
//! fewer from one address), so a silent one holds up no message; the
//! messages are answered one at a time, on the thread that serves.

use std::{
    io::{BufRead, BufReader, ErrorKind, Read, Write},
    net::{IpAddr, TcpListener, TcpStream},
    sync::{mpsc, Arc},
    time::{Duration, Instant},
};

use super::{
    kif::{self, Sexp},
    Gdl, GdlMove, Rules,
};
use crate::{
    core::{
        bot::{Bot, BotFactory},
        clock::TimeLeft,
        seat::{BySeat, Seat},
        shares::{Share, Shares},
        text::harmless,
    },
    external::line::shorten,
};

/// The longest request the player reads (a description is one request).
const MAX_REQUEST: usize = 16 << 20;
/// The longest head (request line and headers) the player reads.
const MAX_HEAD: usize = 64 * 1024;
/// How long a connection may take to send its whole request.
const READ_TIMEOUT: Duration = Duration::from_secs(30);
/// The longest play clock a START may give, in seconds: a day, as a
/// season's `time_control`.
const MAX_PLAY_CLOCK: u64 = 86_400;
/// The most connections read at once; beyond it one is answered 503.
const MAX_READING: usize = 64;
/// The most connections from one address read at once (a browser opens
/// six to a host; a manager one at a time).
const MAX_READING_PER_ADDRESS: usize = 16;
/// What the player keeps of the play clock for the answer's way back.
const TRANSIT: Duration = Duration::from_millis(200);

/// A symbol's text, if `e` is one.
fn symbol(e: &Sexp) -> Option<&str> {
    match e {
        Sexp::Symbol(s, _) => Some(s),
        _ => None,
    }
}

/// The match being played.
struct Match {
    id: String,
    game: Gdl,
    me: usize,
    bot: Box<dyn Bot<Gdl>>,
    play_clock: Duration,
}

/// A GGP player around one of ladder's GDL bots.
pub struct Player {
    make: BotFactory<Gdl>,
    current: Option<Match>,
    managers: Managers,
}

/// Whom the player takes messages from. GGP has no token: opened to a
/// network, the player can only know its manager by its address.
#[derive(Clone, Debug, Default)]
pub enum Managers {
    /// Any address (the default, for a player that listens on loopback).
    #[default]
    Anyone,
    /// These addresses only; another's connection is answered 403.
    Only(Vec<IpAddr>),
}

impl Managers {
    fn take(&self, ip: IpAddr) -> bool {
        match self {
            Managers::Anyone => true,
            // an IPv4 peer of a socket bound to `::` comes as `::ffff:a.b.c.d`
            Managers::Only(these) => these.iter().any(|m| m.to_canonical() == ip.to_canonical()),
        }
    }
}

/// A seed from a match id and a role: FNV-1a over both.
fn seed_of(id: &str, role: usize) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in id.bytes().chain([b'/', role as u8]) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

impl Player {
    pub fn new(make: BotFactory<Gdl>) -> Player {
        Player {
            make,
            current: None,
            managers: Managers::Anyone,
        }
    }

    /// The player, taking messages only from `managers` when it serves.
    pub fn from_managers(self, managers: Managers) -> Player {
        Player { managers, ..self }
    }

    /// The answer to one message; errors are answered too, after `error:`,
    /// which no GGP manager takes for `ready` or a move.
    pub fn answer(&mut self, message: &str) -> String {
        match self.handle(message) {
            Ok(answer) => answer,
            Err(why) => {
                eprintln!("ggp-player: {}", harmless(&why));
                format!("error: {why}")
            }
        }
    }

    fn handle(&mut self, message: &str) -> Result<String, String> {
        // KIF as descriptions are read: symbols in lower case, nesting bounded
        let msg = kif::parse_one(message).map_err(|e| format!("unreadable message: {e}"))?;
        let items = match &msg {
            Sexp::List(items, _) if !items.is_empty() => items,
            _ => return Err("a message is a list: (INFO), (START ...), (PLAY ...)".into()),
        };
        match (symbol(&items[0]).unwrap_or(""), items.len()) {
            ("info", _) => Ok("available".into()),
            ("start", 6) => self.start(&items[1..]),
            ("play", 3) => self.play(&items[1], &items[2]),
            ("stop", 3) => {
                self.finish(&items[1])?;
                Ok("done".into())
            }
            ("abort", 2) => {
                self.finish(&items[1])?;
                Ok("aborted".into())
            }
            _ => Err(format!("unknown message {}", shorten(&msg.to_string()))),
        }
    }

    fn start(&mut self, args: &[Sexp]) -> Result<String, String> {
        let (id, role, rules, _start_clock, play_clock) =
            (&args[0], &args[1], &args[2], &args[3], &args[4]);
        let id = id.to_string();
        let Sexp::List(rules, _) = rules else {
            return Err("START's description is not a list".into());
        };
        let text: Vec<String> = rules.iter().map(Sexp::to_string).collect();
        let rules = Rules::new(&id, &text.join("\n")).map_err(|e| e.to_string())?;
        let role = role.to_string();
        let me = rules
            .roles
            .iter()
            .position(|r| *r == role)
            .ok_or_else(|| format!("role `{role}` is not a role of the description"))?;
        let seconds: u64 = symbol(play_clock)
            .and_then(|s| s.parse().ok())
            .filter(|s| (1..=MAX_PLAY_CLOCK).contains(s))
            .ok_or_else(|| {
                format!("START's play clock is not a whole number of seconds from 1 to {MAX_PLAY_CLOCK}")
            })?;
        let game = Gdl::start(Arc::new(rules));
        let mut bot = (self.make)();
        let seat = Seat::ALL[me];
        bot.new_game(&game, seat, seed_of(&id, me))
            .map_err(|e| e.to_string())?;
        self.current = Some(Match {
            id,
            game,
            me,
            bot,
            play_clock: Duration::from_secs(seconds),
        });
        Ok("ready".into())
    }

    /// The match `id` names, if it is the current one.
    fn current(&mut self, id: &Sexp) -> Result<&mut Match, String> {
        let id = id.to_string();
        match &mut self.current {
            Some(m) if m.id == id => Ok(m),
            _ => Err(format!("no match `{id}` is being played")),
        }
    }

    fn play(&mut self, id: &Sexp, moves: &Sexp) -> Result<String, String> {
        let m = self.current(id)?;
        if let Sexp::List(moves, _) = moves {
            let [a, b] = <&[Sexp; 2]>::try_from(moves.as_slice())
                .map_err(|_| "PLAY carries a move per role".to_string())?;
            let mut chosen = [0; 2];
            let mut played = [None, None];
            for (r, mv) in [a, b].into_iter().enumerate() {
                let text = mv.to_string();
                chosen[r] = m
                    .game
                    .legal_named(r, &text)
                    .ok_or_else(|| format!("`{text}` is not a legal move of role {r}"))?;
                played[r] = Some(GdlMove(text));
            }
            m.game.advance(&chosen);
            let [first, second] = played;
            m.bot
                .observe(&m.game, &BySeat::new(first, second))
                .map_err(|e| e.to_string())?;
        }
        if m.game.over() {
            return Err("PLAY after the game's end".into());
        }
        let legal = m.game.legal_indices(m.me);
        if let [only] = legal[..] {
            return Ok(m.game.move_of(m.me, only).0);
        }
        let time = TimeLeft::new(m.play_clock.saturating_sub(TRANSIT), Duration::ZERO);
        let answer = m
            .bot
            .choose(&m.game, Seat::ALL[m.me], time)
            .map_err(|e| e.to_string())?;
        Ok(answer.mv.0)
    }

    fn finish(&mut self, id: &Sexp) -> Result<(), String> {
        self.current(id)?;
        self.current = None;
        Ok(())
    }

    /// Answers requests on `listener` until accepting fails. Each
    /// connection is read on a thread of its own, so one that sends
    /// nothing (a browser's spare connection, a port scan) holds no other
    /// for its read's 30 s; the messages are answered here, one at a time,
    /// in the order their reads end.
    pub fn serve(&mut self, listener: &TcpListener) -> std::io::Result<()> {
        let (requests, inbox) = mpsc::channel::<Request>();
        std::thread::scope(|scope| {
            let managers = self.managers.clone();
            let acceptor = scope.spawn(move || accept(listener, &managers, &requests));
            for (body, reply) in inbox {
                let _ = reply.send(self.answer(&body));
            }
            acceptor
                .join()
                .unwrap_or_else(|_| Err(std::io::Error::other("the acceptor panicked")))
        })
    }
}

/// A request's body, and where its answer goes.
type Request = (String, mpsc::Sender<String>);

/// Accepts connections on `listener` from `managers`, each read on a
/// thread of its own (at most [`MAX_READING`] at once,
/// [`MAX_READING_PER_ADDRESS`] from one address; one more, or one from
/// another address, is closed at once, [`refuse`]), until accepting fails.
fn accept(
    listener: &TcpListener,
    managers: &Managers,
    requests: &mpsc::Sender<Request>,
) -> std::io::Result<()> {
    let reading = Shares::default();
    loop {
        let (stream, peer) = match listener.accept() {
            Ok(accepted) => accepted,
            // a peer that gave up before its connection was taken
            Err(e) if e.kind() == ErrorKind::ConnectionAborted => continue,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if !managers.take(peer.ip()) {
            eprintln!(
                "ggp-player: a connection from {} closed: not a manager (--manager)",
                peer.ip()
            );
            refuse(
                stream,
                "403 Forbidden",
                "error: this player takes messages from its managers only",
            );
            continue;
        }
        let Some(entered) = reading.enter(peer.ip(), MAX_READING_PER_ADDRESS, MAX_READING) else {
            eprintln!(
                "ggp-player: {} connections being read at once; one from {} closed",
                reading.total(),
                peer.ip()
            );
            refuse(
                stream,
                "503 Service Unavailable",
                "error: too many connections at once",
            );
            continue;
        };
        let requests = requests.clone();
        let reader = std::thread::Builder::new().name("ggp-player-read".into());
        // without a thread the connection is closed (its stream dropped)
        if let Err(e) = reader.spawn(move || read_and_answer(stream, &requests, entered)) {
            eprintln!("ggp-player: a connection from {} closed: {e}", peer.ip());
        }
    }
}

/// Closes a connection the player does not read at once: `status` and
/// `why` if the socket takes them without waiting, the request that has
/// arrived read away so that the close does not reset the answer (one
/// still on its way does).
fn refuse(mut stream: TcpStream, status: &str, why: &str) {
    if stream.set_nonblocking(true).is_err() {
        return;
    }
    let _ = write_answer(&mut stream, status, why);
    let _ = stream.shutdown(std::net::Shutdown::Write);
    let mut waste = [0; 4096];
    for _ in 0..16 {
        if !matches!(stream.read(&mut waste), Ok(n) if n > 0) {
            break;
        }
    }
}

/// Reads one request from `stream`, hands it to the player and writes its
/// answer back.
fn read_and_answer(mut stream: TcpStream, requests: &mpsc::Sender<Request>, _entered: Share) {
    let until = Instant::now() + READ_TIMEOUT;
    match read_request(&mut BufReader::new(Deadline::new(&stream, until))) {
        Ok(body) => {
            let (reply, answer) = mpsc::channel();
            let answer = requests
                .send((body, reply))
                .ok()
                .and_then(|()| answer.recv().ok());
            if let Some(answer) = answer {
                // a peer that reads nothing holds only this thread, for a while
                let _ = stream.set_write_timeout(Some(READ_TIMEOUT));
                let _ = write_answer(&mut stream, "200 OK", &answer);
            }
        }
        // what a peer sent is written out, not sent to the terminal
        Err(why) => eprintln!("ggp-player: a request was not read: {}", harmless(&why)),
    }
}

/// Reads from a connection until a deadline for all its reads together,
/// so a peer that sends a byte now and then cannot hold the player.
struct Deadline<'a> {
    stream: &'a TcpStream,
    until: Instant,
}

impl<'a> Deadline<'a> {
    fn new(stream: &'a TcpStream, until: Instant) -> Deadline<'a> {
        Deadline { stream, until }
    }
}

impl Read for Deadline<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let late = || {
            std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                format!(
                    "the request was not sent within {} s",
                    READ_TIMEOUT.as_secs()
                ),
            )
        };
        let left = self.until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(late());
        }
        self.stream.set_read_timeout(Some(left))?;
        let mut stream = self.stream;
        // the socket's own timeout says `Resource temporarily unavailable`
        stream.read(buf).map_err(|e| match e.kind() {
            std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut => late(),
            _ => e,
        })
    }
}

/// The body of one HTTP request read from `reader`: a head of at most
/// [`MAX_HEAD`] bytes, then a body of at most [`MAX_REQUEST`].
fn read_request(reader: &mut impl BufRead) -> Result<String, String> {
    let mut length = 0usize;
    let mut head = 0usize;
    loop {
        let mut line = String::new();
        // a line is read no further than one byte past the head's limit
        let n = reader
            .by_ref()
            .take((MAX_HEAD + 1 - head) as u64)
            .read_line(&mut line)
            .map_err(|e| e.to_string())?;
        head += n;
        if n == 0 || head > MAX_HEAD {
            return Err("the request's head ended early or is too long".into());
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            if name.trim().eq_ignore_ascii_case("content-length") {
                length = value
                    .trim()
                    .parse()
                    .map_err(|_| format!("Content-Length `{}`", value.trim()))?;
            }
        }
    }
    if length > MAX_REQUEST {
        return Err(format!(
            "a request of {length} bytes (at most {MAX_REQUEST})"
        ));
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).map_err(|e| e.to_string())?;
    String::from_utf8(body).map_err(|_| "a request that is not UTF-8".into())
}

fn write_answer(stream: &mut TcpStream, status: &str, answer: &str) -> std::io::Result<()> {
    write!(
        stream,
        "HTTP/1.0 {status}\r\nContent-Type: text/acl\r\nContent-Length: {}\r\nAccess-Control-Allow-Origin: *\r\nConnection: close\r\n\r\n{answer}",
        answer.len()
    )?;
    stream.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::bot::builtin_bot;

    fn player(params: &str) -> Player {
        let params: toml::Table = toml::from_str(params).unwrap();
        Player::new(builtin_bot("gdl", super::super::BOTS, "mcts", &params).unwrap())
    }

    fn start(p: &mut Player, id: &str, role: &str) -> String {
        let text = std::fs::read_to_string("games/gdl/tictactoe.kif").unwrap();
        p.answer(&format!("(START {id} {role} ({text}) 10 5)"))
    }

    #[test]
    fn a_match_is_started_played_and_stopped() {
        let mut p = player("playouts = 300");
        assert_eq!(p.answer("(info)"), "available");
        assert_eq!(start(&mut p, "m1", "xplayer"), "ready");
        let first = p.answer("(PLAY m1 nil)");
        assert!(first.starts_with("(mark "), "{first}");
        // o moves next: x's answer is its only move
        let second = p.answer(&format!("(PLAY m1 ({first} noop))"));
        assert_eq!(second, "noop");
        assert_eq!(p.answer("(STOP m1 nil)"), "done");
        assert!(p
            .answer("(PLAY m1 nil)")
            .starts_with("error: no match `m1`"));
    }

    #[test]
    fn the_same_match_id_and_role_give_the_same_moves() {
        let moves = |id: &str| {
            let mut p = player("playouts = 200");
            start(&mut p, id, "oplayer");
            let mut seen = Vec::new();
            let mut last = "nil".to_string();
            for x in ["(mark 1 1)", "(mark 3 3)"] {
                assert_eq!(p.answer(&format!("(PLAY {id} {last})")), "noop");
                let o = p.answer(&format!("(PLAY {id} ({x} noop))"));
                last = format!("(noop {o})");
                seen.push(o);
            }
            seen
        };
        assert_eq!(moves("ladder.4.2"), moves("ladder.4.2"));
    }

    #[test]
    fn bad_messages_are_answered_with_what_is_wrong() {
        let mut p = player("");
        assert!(p.answer("(PLAY").starts_with("error: unreadable message"));
        // nesting is bounded as in descriptions: an error, not a stack overflow
        let deep = format!("{}{}", "(".repeat(100_000), ")".repeat(100_000));
        assert!(p
            .answer(&deep)
            .contains("lists nest deeper than 200 levels"));
        assert!(p.answer("hello").starts_with("error: a message is a list"));
        assert!(p
            .answer("(DANCE m1)")
            .starts_with("error: unknown message (dance m1)"));
        assert!(start(&mut p, "m1", "nobody").contains("role `nobody` is not a role"));
        assert!(p
            .answer("(START m2 x ((role x) (role)) 10 5)")
            .starts_with("error: "));
        // a play clock beyond a day (2^64 s made the search's deadline panic)
        let text = std::fs::read_to_string("games/gdl/tictactoe.kif").unwrap();
        for clock in ["18446744073709551615", "0", "-1", "1.5", "86401"] {
            let e = p.answer(&format!("(START m1 xplayer ({text}) 10 {clock})"));
            assert!(
                e.contains("play clock is not a whole number of seconds from 1 to 86400"),
                "{clock}: {e}"
            );
        }
        assert_eq!(start(&mut p, "m1", "xplayer"), "ready");
        let illegal = p.answer("(PLAY m1 ((mark 9 9) noop))");
        assert!(
            illegal.contains("`(mark 9 9)` is not a legal move of role 0"),
            "{illegal}"
        );
        assert_eq!(p.answer("(ABORT m1)"), "aborted");
    }

    #[test]
    fn a_head_without_end_is_read_no_further_than_its_limit() {
        // an endless header line: the build before read it until memory ran out
        let e = read_request(&mut BufReader::new(std::io::repeat(b'a'))).unwrap_err();
        assert!(e.contains("too long"), "{e}");
        let mut many = b"POST / HTTP/1.0\r\n".to_vec();
        many.extend(b"X: y\r\n".repeat(MAX_HEAD / 6 + 1));
        let e = read_request(&mut &many[..]).unwrap_err();
        assert!(e.contains("too long"), "{e}");
        let e = read_request(&mut &b"POST / HTTP/1.0\r\nContent-Length: 99999999999\r\n\r\n"[..])
            .unwrap_err();
        assert!(e.contains("at most"), "{e}");
        let ok = b"POST / HTTP/1.0\r\nContent-Length: 6\r\n\r\n(INFO)";
        assert_eq!(read_request(&mut &ok[..]).unwrap(), "(INFO)");
    }

    #[test]
    fn a_peer_that_trickles_its_request_is_cut_off_at_the_deadline() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let at = listener.local_addr().unwrap();
        // a byte every 20 ms, forever: each read is quick, the request never ends
        let peer = std::thread::spawn(move || {
            let mut s = TcpStream::connect(at).unwrap();
            while s.write_all(b"a").is_ok() {
                std::thread::sleep(Duration::from_millis(20));
            }
        });
        let (stream, _) = listener.accept().unwrap();
        let until = Instant::now() + Duration::from_millis(300);
        let e = read_request(&mut BufReader::new(Deadline::new(&stream, until))).unwrap_err();
        assert!(e.contains("was not sent within"), "{e}");
        drop(stream);
        peer.join().unwrap();
        // a peer that sends nothing is told the same
        let _silent = TcpStream::connect(at).unwrap();
        let (stream, _) = listener.accept().unwrap();
        let until = Instant::now() + Duration::from_millis(100);
        let e = read_request(&mut BufReader::new(Deadline::new(&stream, until))).unwrap_err();
        assert!(e.contains("was not sent within"), "{e}");
    }

    /// A connection to `at` from `from` (any loopback address).
    fn connect_from(from: [u8; 4], at: std::net::SocketAddr) -> TcpStream {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let stream = runtime.block_on(async {
            let socket = tokio::net::TcpSocket::new_v4().unwrap();
            socket.bind((from, 0).into()).unwrap();
            socket.connect(at).await.unwrap()
        });
        let stream = stream.into_std().unwrap();
        stream.set_nonblocking(false).unwrap();
        stream
    }

    /// What the player writes back to `message` posted to `at` from
    /// `from`; a read that waits 20 s fails (a held-up player waited 30 s
    /// for each silent peer).
    fn post_from(
        from: [u8; 4],
        at: std::net::SocketAddr,
        message: &str,
    ) -> std::io::Result<String> {
        let mut s = connect_from(from, at);
        s.set_read_timeout(Some(Duration::from_secs(20)))?;
        write!(
            s,
            "POST / HTTP/1.0\r\nContent-Type: text/acl\r\nContent-Length: {}\r\n\r\n{message}",
            message.len()
        )?;
        let mut answer = String::new();
        s.read_to_string(&mut answer)?;
        Ok(answer)
    }

    /// A connection the player closed at once: answered `status` if the
    /// answer came before the close, or cut while the request was written.
    fn assert_refused(answer: std::io::Result<String>, status: &str) {
        match answer {
            Ok(refused) => assert!(
                refused.is_empty() || refused.starts_with(&format!("HTTP/1.0 {status} ")),
                "{refused}"
            ),
            Err(e) => assert!(
                matches!(e.kind(), ErrorKind::ConnectionReset | ErrorKind::BrokenPipe),
                "{e}"
            ),
        }
    }

    fn post(at: std::net::SocketAddr, message: &str) -> String {
        post_from([127, 0, 0, 1], at, message).expect("an answer within 20 s")
    }

    #[test]
    fn silent_connections_hold_up_no_message() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let at = listener.local_addr().unwrap();
        std::thread::spawn(move || player("playouts = 20").serve(&listener));
        // taken before the messages: each held the player for its read's 30 s
        let silent: Vec<TcpStream> = (0..3).map(|_| TcpStream::connect(at).unwrap()).collect();
        assert!(post(at, "(INFO)").ends_with("\r\n\r\navailable"));
        let text = std::fs::read_to_string("games/gdl/tictactoe.kif").unwrap();
        let ready = post(at, &format!("(START m1 xplayer ({text}) 10 5)"));
        assert!(ready.ends_with("\r\n\r\nready"), "{ready}");
        let first = post(at, "(PLAY m1 nil)");
        assert!(first.contains("\r\n\r\n(mark "), "{first}");
        drop(silent);
    }

    #[test]
    fn one_address_cannot_take_every_connection() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let at = listener.local_addr().unwrap();
        std::thread::spawn(move || player("").serve(&listener));
        let flood = [127, 0, 0, 3];
        let silent: Vec<TcpStream> = (0..MAX_READING * 2)
            .map(|_| connect_from(flood, at))
            .collect();
        // one more from there is closed at once (a 503, if the peer reads
        // it before the close), not read
        assert_refused(post_from(flood, at, "(INFO)"), "503");
        // and the rest of the world is served
        let answer = post_from([127, 0, 0, 2], at, "(INFO)").expect("an answer within 20 s");
        assert!(answer.ends_with("\r\n\r\navailable"), "{answer}");
        drop(silent);
    }

    #[test]
    fn only_the_named_managers_are_answered() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let at = listener.local_addr().unwrap();
        let manager = [127, 0, 0, 3];
        let only = Managers::Only(vec![IpAddr::from(manager)]);
        std::thread::spawn(move || player("").from_managers(only).serve(&listener));
        // another address is closed at once, its message never read (a
        // START would have replaced the match being played)
        let text = std::fs::read_to_string("games/gdl/tictactoe.kif").unwrap();
        let start = format!("(START m1 xplayer ({text}) 10 5)");
        assert_refused(post_from([127, 0, 0, 2], at, &start), "403");
        // the manager plays; a PLAY finds no match the other started
        let answer = post_from(manager, at, "(PLAY m1 nil)").expect("an answer within 20 s");
        assert!(
            answer.ends_with("\r\n\r\nerror: no match `m1` is being played"),
            "{answer}"
        );
        let ready = post_from(manager, at, &format!("(START m2 xplayer ({text}) 10 5)")).unwrap();
        assert!(ready.ends_with("\r\n\r\nready"), "{ready}");
    }

    #[test]
    fn a_manager_is_known_by_its_address_in_either_form() {
        let v4: IpAddr = "10.0.0.5".parse().unwrap();
        let mapped: IpAddr = "::ffff:10.0.0.5".parse().unwrap();
        let only = |m: IpAddr| Managers::Only(vec![m]);
        assert!(only(v4).take(mapped) && only(mapped).take(v4) && only(v4).take(v4));
        assert!(!only(v4).take("10.0.0.6".parse().unwrap()));
        assert!(Managers::Anyone.take(mapped));
    }

    #[test]
    fn the_player_answers_over_http() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let at = listener.local_addr().unwrap();
        std::thread::spawn(move || player("").serve(&listener));
        let body = "(INFO)";
        let mut s = TcpStream::connect(at).unwrap();
        write!(
            s,
            "POST / HTTP/1.0\r\nContent-Type: text/acl\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let mut answer = String::new();
        s.read_to_string(&mut answer).unwrap();
        assert!(answer.starts_with("HTTP/1.0 200 OK\r\n"), "{answer}");
        assert!(answer.ends_with("\r\n\r\navailable"), "{answer}");
    }
}
