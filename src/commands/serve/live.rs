//! The live view's routes: what is in progress, one of them as it goes, and its figures.

use super::Page;
use crate::report::live as page;
use crate::store::live::{self, Found};
use std::collections::HashMap;
use std::path::Path;

/// `/live`: the markers whose process still runs.
pub(super) fn list(store: &Path) -> Page {
    let found = live::list(store).map_err(|e| (500, crate::error::one_line(&e)))?;
    Ok(page::list_page(&found))
}

/// `/live/view?id=…`.
pub(super) fn view(store: &Path, q: &HashMap<String, String>) -> Page {
    Ok(page::view_page(&marker(store, q)?))
}

/// `/live/data?id=…`: JSON.
pub(super) fn data(store: &Path, q: &HashMap<String, String>) -> Page {
    let f = marker(store, q)?;
    let v = page::data(&f).map_err(|e| (500, crate::error::one_line(&e)))?;
    Ok(v.to_string())
}

/// The marker a request names.
fn marker(store: &Path, q: &HashMap<String, String>) -> std::result::Result<Found, (u16, String)> {
    let Some(id) = q.get("id") else {
        return Err((400, "no id: follow a link of /live".into()));
    };
    live::find(store, id).map_err(|e| (404, crate::error::one_line(&e)))
}
