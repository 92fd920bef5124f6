//! Connecting: the socket, TLS as `sslmode` asks, the startup message and authentication
//! (trust, password, MD5 and SCRAM-SHA-256), and where a password may go.

use super::*;

/// Connects and authenticates; `timeout` bounds the connect and every read and write of the
/// startup (none afterwards: a statement may wait as long as the server makes it).
pub fn connect(url: &TargetUrl, app: &str, timeout: Duration) -> Result<Client, Error> {
    use crate::engine::url::SslMode;
    match connect_as(url, app, timeout, url.sslmode) {
        // libpq's prefer: a handshake that fails is tried again without TLS.
        Err(Error::Tls(_)) if url.sslmode == SslMode::Prefer => {
            connect_as(url, app, timeout, SslMode::Disable)
        }
        r => r,
    }
}

fn connect_as(
    url: &TargetUrl,
    app: &str,
    timeout: Duration,
    mode: crate::engine::url::SslMode,
) -> Result<Client, Error> {
    let stream = match &url.socket {
        Some(dir) => {
            let path = dir.join(format!(".s.PGSQL.{}", url.port));
            let s = UnixStream::connect(path)?;
            crate::engine::fiber::adopt(std::os::fd::AsRawFd::as_raw_fd(&s))?;
            Stream::Unix(s)
        }
        None => {
            let mut last = None;
            let mut found = None;
            for addr in (url.host.as_str(), url.port).to_socket_addrs()? {
                match TcpStream::connect_timeout(&addr, timeout) {
                    Ok(s) => {
                        s.set_nodelay(true)?;
                        crate::engine::fiber::adopt(std::os::fd::AsRawFd::as_raw_fd(&s))?;
                        found = Some(s);
                        break;
                    }
                    Err(e) => last = Some(e),
                }
            }
            match (found, last) {
                (Some(s), _) => {
                    let (stream, security) = negotiate(Stream::Tcp(s), url, mode, timeout)?;
                    return Client::start(stream, security, url, app, timeout);
                }
                (None, Some(e)) => return Err(Error::Io(e)),
                (None, None) => {
                    return Err(Error::Io(io::Error::new(
                        io::ErrorKind::NotFound,
                        format!("{} has no address", url.host),
                    )));
                }
            }
        }
    };
    // A unix socket is this host's: libpq does not use TLS on one either.
    Client::start(stream, Security::Plain, url, app, timeout)
}

/// Asks the server for TLS (an SSLRequest, unless `sslmode=disable`) and, when it agrees,
/// completes the handshake on `stream`. A server that refuses is used without TLS only
/// where the mode allows it (disable, prefer).
pub(super) fn negotiate(
    mut stream: Stream,
    url: &TargetUrl,
    mode: crate::engine::url::SslMode,
    timeout: Duration,
) -> Result<(Stream, Security), Error> {
    use crate::engine::url::SslMode;
    if mode == SslMode::Disable {
        return Ok((stream, Security::Plain));
    }
    // The configuration first: a verify mode without its authority file fails before
    // anything is sent.
    let config = crate::engine::postgres::tls::config(mode, url.sslrootcert.as_deref())
        .map_err(Error::Tls)?;
    stream.set_timeouts(Some(timeout))?;
    let mut req = BytesMut::new();
    frontend::ssl_request(&mut req);
    stream.write_all(&req)?;
    // One byte: anything the server sends after it before the handshake would be read by
    // rustls as TLS, and refused (no plain bytes slip in ahead of the encrypted ones).
    let mut answer = [0u8; 1];
    stream.read_exact(&mut answer)?;
    match answer[0] {
        b'S' => {
            let tls = crate::engine::postgres::tls::handshake(config, &url.host, stream)
                .map_err(Error::Tls)?;
            let security = if mode == SslMode::VerifyFull {
                Security::Verified
            } else {
                Security::Encrypted
            };
            Ok((Stream::Tls(Box::new(tls)), security))
        }
        b'N' if mode.required() => Err(Error::Tls(format!(
            "the server at {}:{} does not offer TLS, and sslmode={} requires it",
            url.host,
            url.port,
            mode.name()
        ))),
        b'N' => Ok((stream, Security::Plain)),
        other => Err(Error::Protocol(format!(
            "the server answered the TLS request with byte 0x{other:02x} (expected S or N)"
        ))),
    }
}

impl Client {
    /// Starts a session on a connected stream (a socket pair in the hostile-server tests).
    #[cfg(test)]
    pub(super) fn over(
        stream: Stream,
        url: &TargetUrl,
        app: &str,
        timeout: Duration,
    ) -> Result<Client, Error> {
        Client::start(stream, Security::Plain, url, app, timeout)
    }

    /// Starts a session on a connected (and, where asked, encrypted) stream.
    pub(super) fn start(
        stream: Stream,
        security: Security,
        url: &TargetUrl,
        app: &str,
        timeout: Duration,
    ) -> Result<Client, Error> {
        stream.set_timeouts(Some(timeout))?;
        let mut c = Client {
            stream,
            rbuf: BytesMut::with_capacity(READ_CHUNK),
            scratch: vec![0; READ_CHUNK].into_boxed_slice(),
            wbuf: BytesMut::with_capacity(4096),
            broken: false,
            statements: 0,
            transactions: 0,
            prepares_alone: 0,
            status: b'I',
            extended: false,
            security,
            backend_pid: 0,
        };
        c.startup(url, app)?;
        c.stream.set_timeouts(None)?;
        Ok(c)
    }
}

impl Client {
    fn startup(&mut self, url: &TargetUrl, app: &str) -> Result<(), Error> {
        let params = [
            ("user", url.user.as_str()),
            ("database", url.database.as_str()),
            ("application_name", app),
            ("client_encoding", "UTF8"),
        ];
        frontend::startup_message(params.iter().copied(), &mut self.wbuf)?;
        self.send()?;
        let password = || url.password.as_deref().ok_or(Error::NoPassword);
        // SCRAM in progress, and whether the server proved it knows the password (its
        // final message): an AuthenticationOk before that is a downgrade.
        let mut scram: Option<ScramSha256> = None;
        let mut scram_done = false;
        loop {
            match self.read_message()? {
                Message::AuthenticationOk => {
                    if scram.is_some() && !scram_done {
                        return Err(self.fail(
                            "the server ended SCRAM authentication without its final message (it did not prove it knows the password): refused".into(),
                        ));
                    }
                }
                Message::BackendKeyData(b) => self.backend_pid = b.process_id(),
                Message::ParameterStatus(_) | Message::NoticeResponse(_) => {}
                Message::AuthenticationCleartextPassword => {
                    self.password_may_cross(url, "a clear-text password", scram.is_some())?;
                    frontend::password_message(password()?.as_bytes(), &mut self.wbuf)?;
                    self.send()?;
                }
                Message::AuthenticationMd5Password(b) => {
                    self.password_may_cross(url, "an MD5 password hash", scram.is_some())?;
                    let hash = md5_hash(url.user.as_bytes(), password()?.as_bytes(), b.salt());
                    frontend::password_message(hash.as_bytes(), &mut self.wbuf)?;
                    self.send()?;
                }
                Message::AuthenticationSasl(b) => {
                    if scram.is_some() {
                        return Err(self.fail("the server started SASL twice".into()));
                    }
                    let offered: Vec<String> =
                        b.mechanisms().map(|m| Ok(m.to_string())).collect()?;
                    if !offered.iter().any(|m| m == SCRAM_SHA_256) {
                        return Err(self.fail(format!(
                            "the server offers SASL {} and txbench speaks {SCRAM_SHA_256}",
                            offered.join(", ")
                        )));
                    }
                    let s = ScramSha256::new(password()?.as_bytes(), ChannelBinding::unsupported());
                    frontend::sasl_initial_response(SCRAM_SHA_256, s.message(), &mut self.wbuf)?;
                    self.send()?;
                    scram = Some(s);
                }
                Message::AuthenticationSaslContinue(b) => {
                    let s = scram
                        .as_mut()
                        .ok_or_else(|| Error::Protocol("SASL continue before its start".into()))?;
                    s.update(b.data())
                        .map_err(|e| Error::Protocol(format!("SCRAM: {e}")))?;
                    frontend::sasl_response(s.message(), &mut self.wbuf)?;
                    self.send()?;
                }
                Message::AuthenticationSaslFinal(b) => {
                    scram
                        .as_mut()
                        .ok_or_else(|| Error::Protocol("SASL final before its start".into()))?
                        .finish(b.data())
                        .map_err(|e| Error::Protocol(format!("SCRAM: {e}")))?;
                    scram_done = true;
                }
                Message::ReadyForQuery(_) => return Ok(()),
                Message::ErrorResponse(b) => {
                    self.broken = true;
                    return Err(db_error(&b));
                }
                Message::AuthenticationGss
                | Message::AuthenticationKerberosV5
                | Message::AuthenticationScmCredential
                | Message::AuthenticationSspi
                | Message::AuthenticationGssContinue(_) => {
                    return Err(self.fail(
                        "the server asks for GSS, SSPI or Kerberos authentication: txbench speaks password, md5 and scram-sha-256"
                            .into(),
                    ));
                }
                _ => return Err(self.fail("unexpected message during startup".into())),
            }
        }
    }

    /// A password (or its MD5 hash, which works as one) is sent only where nobody can read
    /// it on the way: over a unix socket, to a loopback address, or over TLS to a server
    /// whose certificate was verified for its name (sslmode=verify-full: without, a man in
    /// the middle could be the one asking); never after SCRAM began (a server switching
    /// methods mid-way is a downgrade); and never to a sandbox, which uses SCRAM only (one
    /// that asks for more is not the sandbox).
    fn password_may_cross(
        &mut self,
        url: &TargetUrl,
        what: &str,
        in_scram: bool,
    ) -> Result<(), Error> {
        if in_scram {
            return Err(self.fail(format!(
                "the server asked for {what} after SCRAM began: a downgrade, refused"
            )));
        }
        if url.sandbox_login {
            return Err(self.fail(format!(
                "the server at {}:{} asks for {what}, and sandboxes use SCRAM only: whoever asks is not the sandbox, refused",
                url.host, url.port
            )));
        }
        if !url.is_local() && self.security != Security::Verified {
            return Err(self.fail(format!(
                "the server at {} asks for {what}, which would cross the network readable: txbench sends one only over a unix socket, to a loopback address or over TLS to a verified server (use scram-sha-256 in pg_hba.conf, or sslmode=verify-full with sslrootcert)",
                url.host
            )));
        }
        Ok(())
    }
}
