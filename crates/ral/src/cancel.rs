//! A run canceled from inside: a module's provider asks Puppet's runtime
//! to stop (`Puppet::Application.stop!`, as reboot's provider does before
//! an immediate reboot). The transaction then applies no other resource,
//! each left skipped, as Puppet's canceled transaction leaves them; the
//! run is not a failure.

use std::sync::atomic::{AtomicBool, Ordering};

static CANCELED: AtomicBool = AtomicBool::new(false);

/// Asks the run under way to apply no further resource.
pub fn cancel() {
    CANCELED.store(true, Ordering::SeqCst);
}

/// Whether the run was canceled.
pub fn canceled() -> bool {
    CANCELED.load(Ordering::SeqCst)
}

/// Forgets a cancel, as each run begins (an agent's next run).
pub fn clear() {
    CANCELED.store(false, Ordering::SeqCst);
}
