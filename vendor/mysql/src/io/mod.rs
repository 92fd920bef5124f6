// Copyright (c) 2020 rust-mysql-simple contributors
//
// Licensed under the Apache License, Version 2.0
// <LICENSE-APACHE or http://www.apache.org/licenses/LICENSE-2.0> or the MIT
// license <LICENSE-MIT or http://opensource.org/licenses/MIT>, at your
// option. All files in the project carrying such notice may not be copied,
// modified, or distributed except according to those terms.

use bufstream::BufStream;
use io_enum::*;
#[cfg(windows)]
use named_pipe as np;

#[cfg(unix)]
use std::os::{
    unix,
    unix::io::{AsRawFd, RawFd},
};
use std::{
    fmt, io,
    net::{self, SocketAddr},
    time::Duration,
};

use crate::error::{
    DriverError::{ConnectTimeout, CouldNotConnect},
    Error::DriverError,
    Result as MyResult,
};

mod tcp;
mod tls;

/// txbench patch 11: how a socket that would block waits ([`set_io_hooks`]).
#[derive(Clone, Copy)]
pub struct IoHooks {
    /// A socket just connected: makes it non-blocking and returns true when its reads and
    /// writes are to wait through `wait` (in txbench: when a fiber opened it).
    pub adopt: fn(RawFd) -> io::Result<bool>,
    /// Waits until the socket is readable (`true`: writable).
    pub wait: fn(RawFd, bool) -> io::Result<()>,
}

static IO_HOOKS: std::sync::OnceLock<IoHooks> = std::sync::OnceLock::new();

/// Sets how sockets are adopted and wait (once; later calls are ignored). Without hooks
/// every socket blocks, as upstream's.
pub fn set_io_hooks(hooks: IoHooks) {
    let _ = IO_HOOKS.set(hooks);
}

/// A socket whose reads and writes that would block wait through the hooks, below the
/// buffering (a `read_exact` above never sees WouldBlock, so never loses what it read).
#[derive(Debug)]
pub struct Coop<S> {
    inner: S,
    /// Made non-blocking by the adopt hook.
    waits: bool,
}

impl<S: AsRawFd> Coop<S> {
    fn new(inner: S) -> io::Result<Coop<S>> {
        let waits = match IO_HOOKS.get() {
            Some(h) => (h.adopt)(inner.as_raw_fd())?,
            None => false,
        };
        Ok(Coop { inner, waits })
    }

    fn retry<T>(&mut self, write: bool, mut op: impl FnMut(&mut S) -> io::Result<T>) -> io::Result<T> {
        loop {
            match op(&mut self.inner) {
                Err(e) if self.waits && e.kind() == io::ErrorKind::WouldBlock => {
                    if let Some(h) = IO_HOOKS.get() {
                        (h.wait)(self.inner.as_raw_fd(), write)?;
                    }
                }
                r => return r,
            }
        }
    }
}

impl<S> std::ops::Deref for Coop<S> {
    type Target = S;
    fn deref(&self) -> &S {
        &self.inner
    }
}

impl<S: AsRawFd> AsRawFd for Coop<S> {
    fn as_raw_fd(&self) -> RawFd {
        self.inner.as_raw_fd()
    }
}

impl<S: io::Read + AsRawFd> io::Read for Coop<S> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.retry(false, |s| s.read(buf))
    }
}

impl<S: io::Write + AsRawFd> io::Write for Coop<S> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.retry(true, |s| s.write(buf))
    }
    fn flush(&mut self) -> io::Result<()> {
        self.retry(true, |s| s.flush())
    }
}

#[derive(Debug, Read, Write)]
pub enum Stream {
    #[cfg(unix)]
    SocketStream(BufStream<Coop<unix::net::UnixStream>>),
    #[cfg(windows)]
    SocketStream(BufStream<np::PipeClient>),
    TcpStream(TcpStream),
}

impl Stream {
    #[cfg(unix)]
    pub fn connect_socket(
        socket: &str,
        read_timeout: Option<Duration>,
        write_timeout: Option<Duration>,
    ) -> MyResult<Stream> {
        match unix::net::UnixStream::connect(socket) {
            Ok(stream) => {
                stream.set_read_timeout(read_timeout)?;
                stream.set_write_timeout(write_timeout)?;
                Ok(Stream::SocketStream(BufStream::new(Coop::new(stream)?)))
            }
            Err(e) => {
                let addr = socket.to_string();
                let desc = e.to_string();
                Err(DriverError(CouldNotConnect(Some((addr, desc, e.kind())))))
            }
        }
    }

    #[cfg(windows)]
    pub fn connect_socket(
        socket: &str,
        read_timeout: Option<Duration>,
        write_timeout: Option<Duration>,
    ) -> MyResult<Stream> {
        let full_name = format!(r"\\.\pipe\{}", socket);
        match np::PipeClient::connect(full_name.clone()) {
            Ok(mut stream) => {
                stream.set_read_timeout(read_timeout);
                stream.set_write_timeout(write_timeout);
                Ok(Stream::SocketStream(BufStream::new(stream)))
            }
            Err(e) => {
                let desc = format!("{}", e);
                Err(DriverError(CouldNotConnect(Some((
                    full_name,
                    desc,
                    e.kind(),
                )))))
            }
        }
    }

    #[cfg(all(not(unix), not(windows)))]
    fn connect_socket(&mut self) -> MyResult<()> {
        unimplemented!("Sockets is not implemented on current platform");
    }

    #[allow(clippy::too_many_arguments)]
    pub fn connect_tcp(
        ip_or_hostname: &str,
        port: u16,
        read_timeout: Option<Duration>,
        write_timeout: Option<Duration>,
        tcp_keepalive_time: Option<u32>,
        #[cfg(any(target_os = "linux", target_os = "macos",))]
        tcp_keepalive_probe_interval_secs: Option<u32>,
        #[cfg(any(target_os = "linux", target_os = "macos",))] tcp_keepalive_probe_count: Option<
            u32,
        >,
        #[cfg(target_os = "linux")] tcp_user_timeout: Option<u32>,
        nodelay: bool,
        tcp_connect_timeout: Option<Duration>,
        bind_address: Option<SocketAddr>,
    ) -> MyResult<Stream> {
        let mut builder = tcp::MyTcpBuilder::new((ip_or_hostname, port));
        builder
            .connect_timeout(tcp_connect_timeout)
            .read_timeout(read_timeout)
            .write_timeout(write_timeout)
            .keepalive_time_ms(tcp_keepalive_time)
            .nodelay(nodelay)
            .bind_address(bind_address);
        #[cfg(any(target_os = "linux", target_os = "macos",))]
        builder.keepalive_probe_interval_secs(tcp_keepalive_probe_interval_secs);
        #[cfg(any(target_os = "linux", target_os = "macos",))]
        builder.keepalive_probe_count(tcp_keepalive_probe_count);
        #[cfg(target_os = "linux")]
        builder.user_timeout(tcp_user_timeout);
        builder
            .connect()
            .and_then(Coop::new)
            .map(|stream| Stream::TcpStream(TcpStream::Insecure(BufStream::new(stream))))
            .map_err(|err| {
                if err.kind() == io::ErrorKind::TimedOut {
                    DriverError(ConnectTimeout)
                } else {
                    let addr = format!("{}:{}", ip_or_hostname, port);
                    let desc = format!("{}", err);
                    DriverError(CouldNotConnect(Some((addr, desc, err.kind()))))
                }
            })
    }

    pub fn is_insecure(&self) -> bool {
        matches!(self, Stream::TcpStream(TcpStream::Insecure(_)))
    }

    pub fn is_socket(&self) -> bool {
        matches!(self, Stream::SocketStream(_))
    }

    #[cfg(all(not(feature = "native-tls"), not(feature = "rustls")))]
    pub fn make_secure(self, _host: url::Host, _ssl_opts: crate::SslOpts) -> MyResult<Stream> {
        panic!(
            "Client had asked for TLS connection but TLS support is disabled. \
            Please enable one of the following features: \"native-tls\", \"rustls-tls\", \"rustls-tls-ring\""
        )
    }
}

#[cfg(unix)]
impl AsRawFd for Stream {
    fn as_raw_fd(&self) -> RawFd {
        match self {
            Stream::SocketStream(stream) => stream.get_ref().as_raw_fd(),
            Stream::TcpStream(stream) => stream.as_raw_fd(),
        }
    }
}

#[derive(Read, Write)]
pub enum TcpStream {
    #[cfg(feature = "native-tls")]
    Secure(BufStream<native_tls::TlsStream<net::TcpStream>>),
    #[cfg(feature = "rustls")]
    Secure(BufStream<Box<rustls::StreamOwned<rustls::ClientConnection, net::TcpStream>>>),
    Insecure(BufStream<Coop<net::TcpStream>>),
}

#[cfg(unix)]
impl AsRawFd for TcpStream {
    fn as_raw_fd(&self) -> RawFd {
        match self {
            #[cfg(feature = "native-tls")]
            TcpStream::Secure(stream) => stream.get_ref().get_ref().as_raw_fd(),
            #[cfg(feature = "rustls")]
            TcpStream::Secure(stream) => stream.get_ref().get_ref().as_raw_fd(),
            TcpStream::Insecure(stream) => stream.get_ref().as_raw_fd(),
        }
    }
}

impl fmt::Debug for TcpStream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            #[cfg(feature = "native-tls")]
            TcpStream::Secure(ref s) => write!(f, "Secure stream {:?}", s),
            #[cfg(feature = "rustls")]
            TcpStream::Secure(ref s) => write!(f, "Secure stream {:?}", s),
            TcpStream::Insecure(ref s) => write!(f, "Insecure stream {:?}", s),
        }
    }
}
