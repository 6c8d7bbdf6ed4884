//! `kernel`, `kernelrelease`, `kernelversion` and `kernelmajversion`, from
//! `uname(2)`.

use serde_json::json;

use super::{Facts, Probe};

pub(crate) fn collect(probe: &Probe<'_>, facts: &mut Facts) {
    let Some(uname) = probe.uname() else {
        return;
    };
    facts.set("kernel", json!(uname.sysname));
    facts.set("kernelrelease", json!(uname.release));
    // The first three numbers of the release: 6.18.44-fc-v657 gives 6.18.44.
    let numbers: Vec<&str> = uname
        .release
        .split(|c: char| !c.is_ascii_digit())
        .filter(|part| !part.is_empty())
        .take(3)
        .collect();
    facts.set("kernelversion", json!(numbers.join(".")));
    // The first two dot-separated parts: 6.18.
    let parts: Vec<&str> = uname.release.split('.').collect();
    let major = if parts.len() <= 1 {
        parts.first().copied().unwrap_or_default().to_string()
    } else {
        format!("{}.{}", parts[0], parts[1])
    };
    facts.set("kernelmajversion", json!(major));
}
