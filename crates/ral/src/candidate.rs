//! The newest version of a package its provider found, for `ensure =>
//! latest`: native providers (apt, pip3) and modules' Ruby ones (through
//! the host) record it; the package type's comparison and messages read
//! it.

use std::collections::BTreeMap;
use std::sync::Mutex;

use crate::Resource;

/// The newest version available for each package, as the providers found
/// it for resources that ask for `ensure => latest`: from the package
/// sources, or inside the `source` file. Keyed by package name and source.
///
/// Comparing `latest` needs that version, but an attribute's comparison
/// only sees the resource and the two values. The provider looks the
/// version up when it reads the current state, right before the
/// comparison in the same evaluation, and records it here; the comparison
/// and the change message read it back. The table is shared by the whole
/// process rather than held by one registry, so a resource built from one
/// registry still compares correctly in a session over another; it only
/// holds facts about the system, each rewritten before it is read.
static CANDIDATES: Mutex<BTreeMap<(String, String), String>> = Mutex::new(BTreeMap::new());

fn candidate_key(resource: &Resource) -> (String, String) {
    (resource.name(), resource.text("source").unwrap_or_default())
}

/// Records the newest available version of a resource's package.
pub fn record_candidate(resource: &Resource, version: &str) {
    CANDIDATES
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(candidate_key(resource), version.to_string());
}

/// The newest available version of a resource's package, when a provider
/// found one.
pub fn candidate(resource: &Resource) -> Option<String> {
    CANDIDATES
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(&candidate_key(resource))
        .cloned()
}
