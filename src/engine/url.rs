//! Target URLs: `mysql://user:pass@host:port/db`, `mariadb://…`, `?socket=/path`;
//! `postgres://…` or `postgresql://…`, `?host=/socket/dir` (libpq's spelling).
//!
//! The password never leaves this type in text: `Display` and `Debug` redact it, and
//! [`redact_url`] redacts raw strings, even malformed ones, before they reach a message.

use std::fmt;
use std::path::PathBuf;

/// What replaces a password in every printed or stored URL.
pub const REDACTED: &str = "***";

/// The database engine a URL names.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Engine {
    /// MySQL or MariaDB (one wire protocol).
    #[default]
    Mysql,
    /// PostgreSQL.
    Postgres,
}

impl Engine {
    /// The engine's name as users write it (`--engine`, messages).
    pub fn name(self) -> &'static str {
        match self {
            Engine::Mysql => "mysql",
            Engine::Postgres => "postgres",
        }
    }

    /// The product, for messages ("MariaDB/MySQL", "PostgreSQL").
    pub fn product(self) -> &'static str {
        match self {
            Engine::Mysql => "MySQL/MariaDB",
            Engine::Postgres => "PostgreSQL",
        }
    }

    /// The SQL for the schema tables live in (information_schema's `table_schema`).
    pub fn schema_sql(self) -> &'static str {
        match self {
            Engine::Mysql => "DATABASE()",
            Engine::Postgres => "current_schema()",
        }
    }

    /// The port a URL without one means.
    pub fn default_port(self) -> u16 {
        match self {
            Engine::Mysql => 3306,
            Engine::Postgres => 5432,
        }
    }

    /// The user a URL without one means (the server's superuser by convention).
    pub fn default_user(self) -> &'static str {
        match self {
            Engine::Mysql => "root",
            Engine::Postgres => "postgres",
        }
    }
}

/// Whether and how a PostgreSQL connection uses TLS: libpq's `sslmode`, with its default.
/// Ignored for a unix socket (as libpq does).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum SslMode {
    /// Never.
    Disable,
    /// When the server offers it, without checking its certificate (libpq's default).
    #[default]
    Prefer,
    /// Always, without checking the certificate.
    Require,
    /// Always, with a certificate signed by `sslrootcert`'s authority.
    VerifyCa,
    /// Always, with a certificate signed by `sslrootcert`'s authority for the host named.
    VerifyFull,
}

impl SslMode {
    /// The mode as `sslmode=` spells it.
    pub fn name(self) -> &'static str {
        match self {
            SslMode::Disable => "disable",
            SslMode::Prefer => "prefer",
            SslMode::Require => "require",
            SslMode::VerifyCa => "verify-ca",
            SslMode::VerifyFull => "verify-full",
        }
    }

    fn parse(v: &str) -> Option<SslMode> {
        [
            SslMode::Disable,
            SslMode::Prefer,
            SslMode::Require,
            SslMode::VerifyCa,
            SslMode::VerifyFull,
        ]
        .into_iter()
        .find(|m| m.name() == v)
    }

    /// Whether the connection fails rather than go on without TLS.
    pub fn required(self) -> bool {
        !matches!(self, SslMode::Disable | SslMode::Prefer)
    }

    /// Whether the server's certificate is checked against an authority.
    pub fn verifies(self) -> bool {
        matches!(self, SslMode::VerifyCa | SslMode::VerifyFull)
    }
}

/// A parsed, validated target URL.
#[derive(Clone, PartialEq, Eq)]
pub struct TargetUrl {
    /// The engine.
    pub engine: Engine,
    /// The scheme as written (`mysql`, `mariadb`, `postgres`, `postgresql`), kept for display.
    pub scheme: String,
    /// The user name (default `root`).
    pub user: String,
    /// The password, if any. Never printed.
    pub password: Option<String>,
    /// Host name or address (default `127.0.0.1`).
    pub host: String,
    /// TCP port (default 3306).
    pub port: u16,
    /// The database (default `txbench`).
    pub database: String,
    /// A unix socket to connect through instead of TCP: MySQL's socket file, or for
    /// PostgreSQL the directory holding `.s.PGSQL.PORT`.
    pub socket: Option<PathBuf>,
    /// The password is a sandbox's secret, which txbench found itself: the URL is shown
    /// (and handed to a child txbench, which finds it again) as the user gave it, without.
    pub sandbox_login: bool,
    /// A sandbox login's pid file: before every connection the process listening where the
    /// URL points must be the one it names (see `listener::check_sandbox`).
    pub sandbox_pid_file: Option<PathBuf>,
    /// A sandbox login to a server reached through another (a replica its primary reports):
    /// the process listening must belong to the same account as the one this pid file names
    /// (see `listener::check_peer`).
    pub sandbox_peer_of: Option<PathBuf>,
    /// PostgreSQL's `?sslmode=` (default prefer).
    pub sslmode: SslMode,
    /// PostgreSQL's `?sslrootcert=`: the authorities' certificates (PEM) the verify modes
    /// check the server's against (default `~/.postgresql/root.crt`, as libpq).
    pub sslrootcert: Option<PathBuf>,
}

/// Why a URL was refused. The messages never contain the password.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum UrlError {
    /// Not a URL at all.
    #[error("invalid URL {url}: {reason}")]
    Malformed {
        /// The redacted input.
        url: String,
        /// What the parser said.
        reason: String,
    },
    /// A scheme we do not speak.
    #[error(
        "unsupported scheme '{scheme}' in {url}: use mysql://, mariadb://, postgres:// or postgresql://"
    )]
    Scheme {
        /// The scheme given.
        scheme: String,
        /// The redacted input.
        url: String,
    },
    /// A query parameter we do not know.
    #[error("unknown parameter '{param}' in {url}: only {known} is understood")]
    Param {
        /// The parameter name.
        param: String,
        /// The one the scheme understands.
        known: &'static str,
        /// The redacted input.
        url: String,
    },
}

impl TargetUrl {
    /// Parses a URL such as `mysql://user:pass@127.0.0.1:3306/db?socket=/run/mysqld.sock`.
    pub fn parse(raw: &str) -> Result<TargetUrl, UrlError> {
        let shown = redact_url(raw);
        let parsed = url::Url::parse(raw.trim()).map_err(|e| UrlError::Malformed {
            url: shown.clone(),
            reason: e.to_string(),
        })?;
        let scheme = parsed.scheme().to_string();
        let engine = match scheme.as_str() {
            "mysql" | "mariadb" => Engine::Mysql,
            "postgres" | "postgresql" => Engine::Postgres,
            _ => {
                return Err(UrlError::Scheme { scheme, url: shown });
            }
        };
        if parsed.cannot_be_a_base() {
            return Err(UrlError::Malformed {
                url: shown,
                reason: "expected scheme://user:password@host:port/database".into(),
            });
        }
        let decode = |s: &str| {
            percent_decode(s).map_err(|reason| UrlError::Malformed {
                url: shown.clone(),
                reason,
            })
        };
        let user = match parsed.username() {
            "" => engine.default_user().to_string(),
            u => decode(u)?,
        };
        let password = parsed.password().map(decode).transpose()?;
        let host = match parsed.host_str() {
            None | Some("") => "127.0.0.1".to_string(),
            Some(h) => h.trim_start_matches('[').trim_end_matches(']').to_string(),
        };
        let port = parsed.port().unwrap_or(engine.default_port());
        let database = match parsed.path().trim_start_matches('/') {
            "" => "txbench".to_string(),
            d if d.contains('/') => {
                return Err(UrlError::Malformed {
                    url: shown,
                    reason: format!("'{d}' is not a database name"),
                });
            }
            d => decode(d)?,
        };
        let mut socket = None;
        let mut sslmode = SslMode::default();
        let mut sslrootcert = None;
        let known = match engine {
            Engine::Mysql => "socket",
            Engine::Postgres => "host",
        };
        for (k, v) in parsed.query_pairs() {
            let pg = engine == Engine::Postgres;
            match k.as_ref() {
                k if k == known && !v.is_empty() => socket = Some(PathBuf::from(v.as_ref())),
                "sslmode" if pg => {
                    sslmode = SslMode::parse(&v).ok_or_else(|| UrlError::Malformed {
                        url: shown.clone(),
                        reason: format!(
                            "sslmode={v}: use disable, prefer, require, verify-ca or verify-full"
                        ),
                    })?;
                }
                "sslrootcert" if pg && !v.is_empty() => {
                    sslrootcert = Some(PathBuf::from(v.as_ref()));
                }
                _ => {
                    return Err(UrlError::Param {
                        param: k.into_owned(),
                        known: match engine {
                            Engine::Mysql => "?socket=/path",
                            Engine::Postgres => {
                                "?host=/socket/directory, ?sslmode= and ?sslrootcert="
                            }
                        },
                        url: shown,
                    });
                }
            }
        }
        Ok(TargetUrl {
            engine,
            scheme,
            user,
            password,
            host,
            port,
            database,
            socket,
            sandbox_login: false,
            sandbox_pid_file: None,
            sandbox_peer_of: None,
            sslmode,
            sslrootcert,
        })
    }
}

impl TargetUrl {
    /// The same login at another TCP port of the same host (a server's second listener,
    /// such as MariaDB's extra_port); a sandbox login's listener is checked there too.
    pub fn at_port(&self, port: u16) -> TargetUrl {
        TargetUrl {
            port,
            ..self.clone()
        }
    }

    /// The URL names this host: a unix socket or a loopback address (nothing crosses a
    /// network, and the server's /proc figures are readable here).
    pub fn is_local(&self) -> bool {
        if self.socket.is_some() {
            return true;
        }
        let h = self.host.trim_start_matches('[').trim_end_matches(']');
        h == "localhost"
            || h == "::1"
            || h.parse::<std::net::Ipv4Addr>()
                .is_ok_and(|a| a.is_loopback())
    }

    /// The URL with its password, percent-encoded: only for handing to a child txbench
    /// through its environment (TXBENCH_URL), never to print or store. A sandbox's secret
    /// is left out: the child finds it as this process did.
    pub fn with_secret(&self) -> String {
        let mut f = String::new();
        let _ = self.render(&mut f, true);
        f
    }

    /// The URL as text: with `secret`, user and password percent-encoded as a parser reads
    /// them back; without, as shown (the password `***`).
    fn render(&self, f: &mut impl fmt::Write, secret: bool) -> fmt::Result {
        if secret {
            write!(f, "{}://{}", self.scheme, percent_encode(&self.user))?;
        } else {
            write!(f, "{}://{}", self.scheme, self.user)?;
        }
        match &self.password {
            Some(_) if self.sandbox_login => {}
            Some(p) if secret => write!(f, ":{}", percent_encode(p))?,
            Some(_) => write!(f, ":{REDACTED}")?,
            None => {}
        }
        let host = if self.host.contains(':') {
            format!("[{}]", self.host)
        } else {
            self.host.clone()
        };
        write!(f, "@{host}:{}/{}", self.port, self.database)?;
        let mut params = Vec::new();
        if let Some(s) = &self.socket {
            let key = match self.engine {
                Engine::Mysql => "socket",
                Engine::Postgres => "host",
            };
            params.push(format!("{key}={}", s.display()));
        }
        if self.sslmode != SslMode::default() {
            params.push(format!("sslmode={}", self.sslmode.name()));
        }
        if let Some(p) = &self.sslrootcert {
            params.push(format!("sslrootcert={}", p.display()));
        }
        if !params.is_empty() {
            write!(f, "?{}", params.join("&"))?;
        }
        Ok(())
    }
}

/// Percent-encodes what a URL's user or password may not hold as it is.
fn percent_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

impl fmt::Display for TargetUrl {
    /// The URL with the password replaced by `***`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.render(f, false)
    }
}

impl fmt::Debug for TargetUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TargetUrl({self})")
    }
}

fn percent_decode(s: &str) -> Result<String, String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes
                .get(i + 1..i + 3)
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or_else(|| "bad percent-escape".to_string())?;
            out.push(hex);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| "percent-escape is not UTF-8".to_string())
}

/// Redacts the password of every URL in a text (a plan file): each run of characters
/// around a `://` up to a quote, white space or the line's end, as [`redact_url`] does.
pub fn redact_urls_in(text: &str) -> String {
    let stop = |c: char| c == '"' || c == '\'' || c.is_whitespace();
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("://") {
        let start = rest[..i].rfind(stop).map_or(0, |j| j + 1);
        // Inside quotes the URL ends at the closing quote (a password may hold a space).
        let quote = rest[..start]
            .chars()
            .next_back()
            .filter(|c| *c == '"' || *c == '\'');
        let end = match quote {
            Some(q) => rest[i..].find(['\n', q]),
            None => rest[i..].find(stop),
        }
        .map_or(rest.len(), |j| i + j);
        out.push_str(&rest[..start]);
        out.push_str(&redact_url(&rest[start..end]));
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// Redacts the password of anything that looks like `scheme://user:password@…`, even a
/// malformed URL, so that error messages can quote what the user typed.
pub fn redact_url(raw: &str) -> String {
    let Some(start) = raw.find("://").map(|i| i + 3) else {
        return raw.to_string();
    };
    let rest = &raw[start..];
    // The authority ends at the first '/', '?' or '#' after the last '@' (a password may
    // itself contain '/' or '?', so look for the '@' first).
    let Some(at) = rest.rfind('@') else {
        return raw.to_string();
    };
    let userinfo = &rest[..at];
    match userinfo.find(':') {
        Some(colon) => format!(
            "{}{}:{}{}",
            &raw[..start],
            &userinfo[..colon],
            REDACTED,
            &rest[at..]
        ),
        None => raw.to_string(),
    }
}

#[cfg(test)]
mod tests;
