//! What the workloads need of PostgreSQL beyond `?` placeholders: `COPY … FROM STDIN`.

use super::Session;
use std::io::Write;

/// Streams rows into `table` with `COPY table (columns) FROM STDIN` (text format: tab
/// separated, `\N` for NULL, the escapes MySQL's LOAD DATA reads too): `chunk` writes up to
/// a chunk of rows and returns false after the last.
pub fn copy_in(
    s: &mut Session,
    table: &str,
    columns: &[&str],
    mut chunk: impl FnMut(&mut dyn Write) -> std::io::Result<bool>,
) -> anyhow::Result<()> {
    let sql = format!("COPY {table} ({}) FROM STDIN", columns.join(","));
    let mut w = s.client().copy_in(&sql)?;
    while chunk(&mut w)? {}
    w.finish()?;
    Ok(())
}
