//! How many connections the arena's server holds, and for how long.
//!
//! The server runs in the process that plays the arena (`arena run
//! --listen`), and every connection it holds is one of that process's file
//! descriptors. A server that took every connection let any client that
//! reaches the port (an attacker anywhere, on a server with a token) stop
//! the arena by opening a few hundred idle ones: its next bot or lock file
//! failed with "Too many open files". So the server takes:
//!
//! - at most [`Limits::connections`] at once, a quarter of the process's
//!   descriptor limit (between 16 and 1,024); beyond them, a connection
//!   waits in the kernel's queue, holding none of ladder's descriptors,
//!   until one closes;
//! - at most [`Limits::per_client`] from one address; one more is answered
//!   `503` and closed, so that one client cannot take every place. Loopback
//!   addresses go without a share: all of a reverse proxy's clients come
//!   from there (the proxy limits each client), and a local user can stop
//!   the arena anyway;
//! - none that sends and receives nothing for [`Limits::idle`] (a minute):
//!   it is closed, as a server closes an idle keep-alive connection (a
//!   page's event stream reconnects by itself).

use std::{
    future::Future,
    io,
    net::SocketAddr,
    pin::Pin,
    sync::Arc,
    task::{Context, Poll},
    time::Duration,
};

use tokio::{
    io::{AsyncRead, AsyncWrite, ReadBuf},
    net::{TcpListener, TcpStream},
    sync::{OwnedSemaphorePermit, Semaphore},
    time::{Instant, Sleep},
};

use crate::core::shares::{Share, Shares};

/// What the server holds at most.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub connections: usize,
    pub per_client: usize,
    /// Whether loopback addresses go without the share of `per_client`.
    pub loopback_unshared: bool,
    pub idle: Duration,
}

impl Limits {
    /// The limits for this process: its descriptors' soft limit decides
    /// how many connections it may hold.
    pub fn of_this_process() -> Limits {
        let files = rustix::process::getrlimit(rustix::process::Resource::Nofile)
            .current
            .unwrap_or(u64::MAX);
        Limits::for_files(files)
    }

    /// The limits for a process that may hold `files` descriptors.
    pub fn for_files(files: u64) -> Limits {
        let connections = usize::try_from(files / 4)
            .unwrap_or(usize::MAX)
            .clamp(16, 1024);
        Limits {
            connections,
            per_client: (connections / 2).min(32),
            loopback_unshared: true,
            idle: Duration::from_secs(60),
        }
    }
}

/// A listener that holds its connections within [`Limits`].
pub struct Limited {
    listener: TcpListener,
    limits: Limits,
    places: Arc<Semaphore>,
    clients: Shares,
}

impl Limited {
    pub fn new(listener: TcpListener, limits: Limits) -> Limited {
        Limited {
            listener,
            places: Arc::new(Semaphore::new(limits.connections)),
            limits,
            clients: Shares::default(),
        }
    }
}

/// The answer to a connection beyond its client's share.
const BUSY: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
content-length: 58\r\nconnection: close\r\n\r\n\
{\"error\":\"too many connections from this address at once\"}";

impl axum::serve::Listener for Limited {
    type Io = Connection;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Connection, SocketAddr) {
        loop {
            let place = Arc::clone(&self.places)
                .acquire_owned()
                .await
                .expect("the semaphore is never closed");
            let (stream, addr) = axum::serve::Listener::accept(&mut self.listener).await;
            let client = if self.limits.loopback_unshared && addr.ip().is_loopback() {
                None
            } else {
                let Some(client) =
                    self.clients
                        .enter(addr.ip(), self.limits.per_client, usize::MAX)
                else {
                    // a fresh socket's buffer takes the short answer at
                    // once; a client that cannot take it gets the close alone
                    let _ = stream.try_write(BUSY);
                    continue;
                };
                Some(client)
            };
            let connection = Connection {
                stream,
                idle: self.limits.idle,
                quiet: Box::pin(tokio::time::sleep(self.limits.idle)),
                _place: place,
                _client: client,
            };
            return (connection, addr);
        }
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }
}

/// An accepted connection: the stream, closed with an error once nothing
/// has moved either way for `idle`, and its places, given back with it.
pub struct Connection {
    stream: TcpStream,
    idle: Duration,
    quiet: Pin<Box<Sleep>>,
    _place: OwnedSemaphorePermit,
    _client: Option<Share>,
}

impl Connection {
    /// Something moved: the quiet time starts again.
    fn moved(&mut self) {
        let idle = self.idle;
        self.quiet.as_mut().reset(Instant::now() + idle);
    }

    /// Waiting on the stream: an error once it has been quiet too long.
    fn waiting<T>(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<T>> {
        match self.quiet.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the connection was idle too long",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }

    /// A read's or write's outcome: when bytes `moved`, the quiet time
    /// starts again; one that waits waits no longer than the quiet time.
    fn settled<T>(
        &mut self,
        cx: &mut Context<'_>,
        polled: Poll<io::Result<T>>,
        moved: bool,
    ) -> Poll<io::Result<T>> {
        if moved {
            self.moved();
        }
        match polled {
            Poll::Ready(result) => Poll::Ready(result),
            Poll::Pending => self.waiting(cx),
        }
    }

    /// [`Connection::settled`] for a write, which moved what it wrote.
    fn wrote(
        &mut self,
        cx: &mut Context<'_>,
        polled: Poll<io::Result<usize>>,
    ) -> Poll<io::Result<usize>> {
        let moved = matches!(polled, Poll::Ready(Ok(n)) if n > 0);
        self.settled(cx, polled, moved)
    }
}

impl AsyncRead for Connection {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.stream).poll_read(cx, buf);
        let moved = buf.filled().len() > before;
        self.settled(cx, polled, moved)
    }
}

impl AsyncWrite for Connection {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.stream).poll_write(cx, buf);
        self.wrote(cx, polled)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.stream).poll_write_vectored(cx, bufs);
        self.wrote(cx, polled)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::serve::Listener;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
    }

    async fn limited(limits: Limits) -> (Limited, SocketAddr) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        (Limited::new(listener, limits), addr)
    }

    /// `n` connections from 127.0.0.1, each with its accepted end.
    async fn hold(
        server: &mut Limited,
        addr: SocketAddr,
        n: usize,
    ) -> Vec<(TcpStream, Connection)> {
        let mut held = Vec::new();
        for _ in 0..n {
            let client = TcpStream::connect(addr).await.unwrap();
            held.push((client, server.accept().await.0));
        }
        held
    }

    const LIMITS: Limits = Limits {
        connections: 4,
        per_client: 2,
        loopback_unshared: false,
        idle: Duration::from_millis(1000),
    };

    #[test]
    fn the_limits_follow_the_files_a_process_may_hold() {
        let at = |files| {
            let l = Limits::for_files(files);
            (l.connections, l.per_client)
        };
        assert_eq!(at(0), (16, 8));
        assert_eq!(at(128), (32, 16));
        assert_eq!(at(1024), (256, 32));
        assert_eq!(at(u64::MAX), (1024, 32));
    }

    #[test]
    fn a_client_beyond_its_share_is_answered_busy_and_others_still_come_in() {
        runtime().block_on(async {
            let (mut server, addr) = limited(LIMITS).await;
            let mut held = hold(&mut server, addr, 2).await;
            // the third from 127.0.0.1 is answered and closed, unaccepted
            let mut third = TcpStream::connect(addr).await.unwrap();
            let from_two = async {
                let socket = tokio::net::TcpSocket::new_v4().unwrap();
                socket.bind("127.0.0.2:0".parse().unwrap()).unwrap();
                socket.connect(addr).await.unwrap()
            };
            let (other, (accepted, from)) = tokio::join!(from_two, server.accept());
            assert_eq!(from.ip(), "127.0.0.2".parse::<std::net::IpAddr>().unwrap());
            let mut answer = String::new();
            third.read_to_string(&mut answer).await.unwrap();
            assert!(answer.starts_with("HTTP/1.1 503 "), "{answer}");
            assert!(answer.ends_with("at once\"}"), "{answer}");
            let body = answer.split("\r\n\r\n").nth(1).unwrap();
            assert!(answer.contains(&format!("content-length: {}\r\n", body.len())));
            // a share given back is free again
            held.pop();
            let _again = TcpStream::connect(addr).await.unwrap();
            let (_, from) = server.accept().await;
            assert_eq!(from.ip(), "127.0.0.1".parse::<std::net::IpAddr>().unwrap());
            drop((other, accepted));
        });
    }

    #[test]
    fn loopback_goes_without_a_share_but_not_beyond_the_limit() {
        runtime().block_on(async {
            let limits = Limits {
                loopback_unshared: true,
                ..LIMITS
            };
            let (mut server, addr) = limited(limits).await;
            let _held = hold(&mut server, addr, 4).await;
            let _waiting = TcpStream::connect(addr).await.unwrap();
            let next = tokio::time::timeout(Duration::from_millis(200), server.accept()).await;
            assert!(next.is_err(), "a fifth connection was taken");
        });
    }

    #[test]
    fn beyond_the_limit_a_connection_waits_until_one_closes() {
        runtime().block_on(async {
            let limits = Limits {
                connections: 2,
                per_client: 2,
                ..LIMITS
            };
            let (mut server, addr) = limited(limits).await;
            let mut held = hold(&mut server, addr, 2).await;
            let _waiting = TcpStream::connect(addr).await.unwrap();
            let next = tokio::time::timeout(Duration::from_millis(200), server.accept()).await;
            assert!(next.is_err(), "a third connection was taken");
            held.pop();
            tokio::time::timeout(Duration::from_secs(60), server.accept())
                .await
                .expect("the waiting connection is taken once a place is free");
        });
    }

    #[test]
    fn a_quiet_connection_is_closed_and_a_talking_one_is_not() {
        runtime().block_on(async {
            let (mut server, addr) = limited(LIMITS).await;
            let mut quiet_client = TcpStream::connect(addr).await.unwrap();
            let mut quiet = server.accept().await.0;
            let mut talking_client = TcpStream::connect(addr).await.unwrap();
            let mut talking = server.accept().await.0;
            // the talking one sends a byte every 100 ms for four seconds,
            // four times the quiet time, and each is read
            let talk = async {
                for _ in 0..40 {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    talking_client.write_all(b"x").await.unwrap();
                    let mut byte = [0u8];
                    talking.read_exact(&mut byte).await.unwrap();
                }
            };
            let mut buf = [0u8; 8];
            let (read, ()) = tokio::join!(quiet.read(&mut buf), talk);
            assert_eq!(read.unwrap_err().kind(), io::ErrorKind::TimedOut);
            drop(quiet);
            assert_eq!(quiet_client.read(&mut buf).await.unwrap(), 0, "closed");
        });
    }
}
