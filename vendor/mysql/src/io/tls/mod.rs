#![cfg(any(feature = "native-tls", feature = "rustls"))]

mod native_tls_io;
mod rustls_io;
