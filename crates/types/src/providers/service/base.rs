//! `service` with nothing but the resource's own commands and the process
//! table: for daemons that no init system knows about.

use marionette_ral::{Confine, ProviderDef, ProviderError};

use super::{Action, Flavor, Job, Service};
use crate::providers::exec::command_argv;

pub(crate) struct Base;

impl Flavor for Base {
    /// The only command of its own is `binary`, to start the daemon.
    fn command(&self, job: &Job<'_>, action: Action) -> Result<Option<Vec<String>>, ProviderError> {
        if action != Action::Start {
            return Ok(None);
        }
        let Some(binary) = job.resource.text("binary") else {
            return Ok(None);
        };
        let argv = command_argv(&binary)
            .map_err(|e| ProviderError::new(format!("Cannot use binary '{binary}': {e}")))?;
        Ok((!argv.is_empty()).then_some(argv))
    }
}

pub fn definition() -> ProviderDef {
    ProviderDef::properties("service", "base", Service(Base))
        .doc(
            "Runs the resource's own commands. `start` (or `binary`) starts the
            service; `status` tells whether it runs, and without it the service
            runs when a process's command line matches `pattern`; `stop` stops
            it, and without it every matching process gets SIGTERM and has
            `timeout` seconds (10 by default) to exit; `restart` restarts it,
            and without it a restart is a stop and a start. It cannot enable
            services, and lists none.",
        )
        .confine(Confine::Feature("posix".into()))
        .has_features(&["refreshable", "configurable_timeout"])
}
