//! The server's clock against this client's (for --start-at across shards).

use super::*;

/// The server's clock against this client's: (server minus client, round trip), seconds,
/// from the shortest of five round trips, the server's reading taken as made at the trip's
/// middle (so known to within half the round trip).
pub fn clock_offset(conn: &mut Conn) -> anyhow::Result<(f64, f64)> {
    let mut best: Option<(f64, f64)> = None;
    for _ in 0..5 {
        let before = crate::shard::unix_s(std::time::SystemTime::now());
        let server = match conn {
            #[cfg(feature = "mysql")]
            Conn::Mysql(c) => mysql::server_clock(c)?,
            #[cfg(feature = "postgres")]
            Conn::Postgres(c) => postgres::server_clock(c)?,
        };
        let after = crate::shard::unix_s(std::time::SystemTime::now());
        let rtt = (after - before).max(0.0);
        let offset = server - (before + after) / 2.0;
        if best.is_none_or(|(_, r)| rtt < r) {
            best = Some((offset, rtt));
        }
    }
    Ok(best.unwrap_or((0.0, 0.0)))
}
