//! The small facts: `timezone`, `path`, `facterversion`, `fips_enabled` and
//! `aio_agent_version`.

use serde_json::json;

use super::{Facts, Probe, text};

/// The Facter version we report. Manifests compare it (`versioncmp(
/// $facts['facterversion'], '4.0.0')`) to choose code for Facter 3 or 4, so
/// it names the Facter whose facts we reproduce rather than our own version.
pub(crate) const FACTER_VERSION: &str = "4.3.0";

pub(crate) fn collect(probe: &Probe<'_>, facts: &mut Facts) {
    facts.set("facterversion", json!(FACTER_VERSION));
    facts.set("timezone", text(probe.system.calls.timezone()));
    facts.set("path", text(probe.system.calls.environment("PATH")));
    let fips = probe
        .read("/proc/sys/crypto/fips_enabled")
        .is_some_and(|text| text.trim() == "1");
    facts.set("fips_enabled", json!(fips));
    facts.set("aio_agent_version", text(aio_agent_version(probe)));
}

/// The version of an all-in-one Puppet agent: the leading `1.2.3` (up to
/// five numbers) of `/opt/puppetlabs/puppet/VERSION`.
fn aio_agent_version(probe: &Probe<'_>) -> Option<String> {
    let text = probe.read("/opt/puppetlabs/puppet/VERSION")?;
    let first_line = text.lines().next()?;
    let mut numbers = Vec::new();
    for part in first_line.split('.') {
        let digits: String = part.chars().take_while(char::is_ascii_digit).collect();
        if digits.is_empty() || numbers.len() == 5 {
            break;
        }
        let whole = digits.len() == part.len();
        numbers.push(digits);
        if !whole {
            break;
        }
    }
    (numbers.len() >= 3).then(|| numbers.join("."))
}
