//! The socket under a connection: TCP or a unix socket, in the clear or in TLS.

use super::*;

pub(super) enum Stream {
    Tcp(TcpStream),
    Unix(UnixStream),
    Tls(Box<rustls::StreamOwned<rustls::ClientConnection, Stream>>),
}

/// What protects a connection's traffic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Security {
    /// Nothing (a unix socket, or TCP without TLS).
    Plain,
    /// TLS, with a server nobody checked (sslmode prefer, require).
    Encrypted,
    /// TLS with a certificate signed by a trusted authority for the host asked
    /// (verify-full; verify-ca's certificate may be any other server's of that authority).
    Verified,
}

impl Stream {
    /// The socket's descriptor (under TLS, the TCP socket's).
    pub(super) fn raw_fd(&self) -> std::os::fd::RawFd {
        use std::os::fd::AsRawFd;
        match self {
            Stream::Tls(s) => s.sock.raw_fd(),
            Stream::Tcp(s) => s.as_raw_fd(),
            Stream::Unix(s) => s.as_raw_fd(),
        }
    }

    pub(super) fn set_timeouts(&self, t: Option<Duration>) -> io::Result<()> {
        match self {
            Stream::Tls(s) => s.sock.set_timeouts(t),
            Stream::Tcp(s) => {
                s.set_read_timeout(t)?;
                s.set_write_timeout(t)
            }
            Stream::Unix(s) => {
                s.set_read_timeout(t)?;
                s.set_write_timeout(t)
            }
        }
    }
}

/// A socket opened in a fiber is non-blocking: its reads and writes wait through the fiber
/// ([`crate::engine::fiber`]); elsewhere they block.
fn coop<T>(fd: i32, write: bool, op: impl FnMut() -> io::Result<T>) -> io::Result<T> {
    crate::engine::fiber::retry(fd, write, op)
}

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        use std::os::fd::AsRawFd;
        match self {
            Stream::Tcp(s) => coop(s.as_raw_fd(), false, || s.read(buf)),
            Stream::Unix(s) => coop(s.as_raw_fd(), false, || s.read(buf)),
            Stream::Tls(s) => s.read(buf),
        }
    }
}

impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        use std::os::fd::AsRawFd;
        match self {
            Stream::Tcp(s) => coop(s.as_raw_fd(), true, || s.write(buf)),
            Stream::Unix(s) => coop(s.as_raw_fd(), true, || s.write(buf)),
            // Sent at once: rustls only buffers what it cannot write now.
            Stream::Tls(s) => {
                let n = s.write(buf)?;
                s.flush()?;
                Ok(n)
            }
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
