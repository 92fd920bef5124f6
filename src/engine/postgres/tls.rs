//! TLS for the PostgreSQL wire client (rustls with the ring provider): the configuration a
//! URL's `sslmode` asks for, and the handshake on a socket after the server said yes to
//! the SSLRequest. `wire.rs` sends the request and wraps the socket.
//!
//! As libpq: `prefer` and `require` encrypt without checking who answers; `verify-ca`
//! checks the certificate against the authorities in `sslrootcert` (PEM; default
//! `~/.postgresql/root.crt`); `verify-full` checks also that it names the host of the URL.

use crate::engine::url::SslMode;
use rustls::client::WebPkiServerVerifier;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{CryptoProvider, verify_tls12_signature, verify_tls13_signature};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{
    CertificateError, ClientConfig, ClientConnection, DigitallySignedStruct, StreamOwned,
};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The client configuration for `mode`, with `root` (or libpq's default file) as the
/// authorities the verify modes trust. The error names the file or setting at fault.
pub fn config(mode: SslMode, root: Option<&Path>) -> Result<Arc<ClientConfig>, String> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let verifier: Arc<dyn ServerCertVerifier> = if mode.verifies() {
        let path = match root {
            Some(p) => p.to_path_buf(),
            None => default_root().ok_or(
                "sslmode=verify-ca/verify-full needs the authority's certificate: give ?sslrootcert=FILE (no HOME for ~/.postgresql/root.crt)",
            )?,
        };
        let roots = roots(&path)?;
        let webpki = WebPkiServerVerifier::builder_with_provider(Arc::new(roots), provider.clone())
            .build()
            .map_err(|e| format!("sslrootcert={}: {e}", path.display()))?;
        Arc::new(Verifier {
            provider: provider.clone(),
            webpki: Some(webpki),
            check_name: mode == SslMode::VerifyFull,
        })
    } else {
        Arc::new(Verifier {
            provider: provider.clone(),
            webpki: None,
            check_name: false,
        })
    };
    let config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS: {e}"))?
        .dangerous()
        .with_custom_certificate_verifier(verifier)
        .with_no_client_auth();
    Ok(Arc::new(config))
}

/// libpq's default authority file: `~/.postgresql/root.crt`.
fn default_root() -> Option<PathBuf> {
    let home = std::env::var_os("HOME")?;
    Some(PathBuf::from(home).join(".postgresql").join("root.crt"))
}

/// The certificates in a PEM file.
fn roots(path: &Path) -> Result<rustls::RootCertStore, String> {
    let shown = path.display();
    let certs = CertificateDer::pem_file_iter(path)
        .map_err(|e| format!("sslrootcert={shown}: cannot read it ({e})"))?
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("sslrootcert={shown}: not PEM certificates ({e})"))?;
    let mut store = rustls::RootCertStore::empty();
    let (added, _) = store.add_parsable_certificates(certs);
    if added == 0 {
        return Err(format!("sslrootcert={shown}: holds no certificate"));
    }
    Ok(store)
}

/// The handshake on `sock` with the server named `host`, completed before anything else
/// is sent (so a failure is told as one, not as a broken startup).
pub fn handshake<S: Read + Write>(
    config: Arc<ClientConfig>,
    host: &str,
    mut sock: S,
) -> Result<StreamOwned<ClientConnection, S>, String> {
    let name = ServerName::try_from(host.to_string())
        .map_err(|_| format!("TLS: '{host}' is neither a host name nor an address"))?;
    let mut conn = ClientConnection::new(config, name).map_err(|e| format!("TLS: {e}"))?;
    while conn.is_handshaking() {
        if let Err(e) = conn.complete_io(&mut sock) {
            let why = match e.get_ref().and_then(|i| i.downcast_ref::<rustls::Error>()) {
                Some(r) => r.to_string(),
                None => e.to_string(),
            };
            return Err(format!("TLS handshake with {host} failed: {why}"));
        }
    }
    Ok(StreamOwned::new(conn, sock))
}

/// Checks a server's certificate as the mode asks (never for prefer and require), and its
/// handshake signatures always.
#[derive(Debug)]
struct Verifier {
    provider: Arc<CryptoProvider>,
    webpki: Option<Arc<WebPkiServerVerifier>>,
    check_name: bool,
}

impl ServerCertVerifier for Verifier {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let Some(webpki) = &self.webpki else {
            return Ok(ServerCertVerified::assertion());
        };
        match webpki.verify_server_cert(end_entity, intermediates, server_name, ocsp, now) {
            // verify-ca: signed by the authority, for whatever name.
            Err(rustls::Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            )) if !self.check_name => Ok(ServerCertVerified::assertion()),
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls12_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls13_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<rustls::SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}
