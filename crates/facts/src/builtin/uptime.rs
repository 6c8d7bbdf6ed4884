//! `system_uptime` (from `/proc/uptime`, or from the start time of PID 1 in
//! a Docker container) and `load_averages` (from `/proc/loadavg`).

use serde_json::{Value, json};

use super::{Facts, Probe};

/// Seconds since boot, truncated, from `/proc/uptime`.
fn seconds_since_boot(probe: &Probe<'_>) -> Option<u64> {
    let text = probe.read("/proc/uptime")?;
    let first = text.split_whitespace().next()?;
    let whole = first.split('.').next()?;
    whole.parse().ok()
}

/// How long PID 1 has run, as `ps -o etime= -p 1` counts it: whole seconds
/// since boot less the whole seconds at which it started.
fn seconds_since_pid1_start(probe: &Probe<'_>) -> Option<u64> {
    let since_boot = seconds_since_boot(probe)?;
    let stat = probe.read("/proc/1/stat")?;
    // The command name is in parentheses and may hold spaces; the start
    // time is the 20th field after it.
    let after_name = &stat[stat.rfind(')')? + 1..];
    let start_ticks: u64 = after_name.split_whitespace().nth(19)?.parse().ok()?;
    let ticks = probe.system.calls.clock_ticks().max(1);
    Some(since_boot.saturating_sub(start_ticks / ticks))
}

/// The uptime as Facter words it: `3:07 hours`, `1 day`, `12 days`.
fn uptime_text(seconds: u64) -> String {
    let minutes = (seconds / 60) % 60;
    let hours = seconds / 3600;
    match hours / 24 {
        0 => format!("{hours}:{minutes:02} hours"),
        1 => "1 day".to_string(),
        days => format!("{days} days"),
    }
}

pub(crate) fn collect_uptime(probe: &Probe<'_>, facts: &mut Facts) {
    let in_docker = probe.containers().vm == Some("docker");
    let seconds = if in_docker {
        seconds_since_pid1_start(probe)
    } else {
        seconds_since_boot(probe)
    };
    let Some(seconds) = seconds else {
        facts.set("system_uptime", json!({"uptime": "unknown"}));
        facts.legacy("uptime", json!("unknown"));
        return;
    };
    let hours = seconds / 3600;
    let days = hours / 24;
    let text = uptime_text(seconds);
    facts.set(
        "system_uptime",
        json!({"days": days, "hours": hours, "seconds": seconds, "uptime": text}),
    );
    facts.legacy("uptime", json!(text));
    facts.legacy("uptime_days", json!(days));
    facts.legacy("uptime_hours", json!(hours));
    facts.legacy("uptime_seconds", json!(seconds));
}

pub(crate) fn collect_load_averages(probe: &Probe<'_>, facts: &mut Facts) {
    let Some(text) = probe.read("/proc/loadavg") else {
        return;
    };
    let mut numbers = text
        .split_whitespace()
        .map(|word| word.parse::<f64>().map(Value::from).unwrap_or(json!(0.0)));
    let mut averages = serde_json::Map::new();
    for key in ["1m", "5m", "15m"] {
        if let Some(number) = numbers.next() {
            averages.insert(key.into(), number);
        }
    }
    facts.set("load_averages", Value::Object(averages));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uptime_is_worded_as_facter_words_it() {
        let cases = [
            (0, "0:00 hours"),
            (5_693, "1:34 hours"),
            (86_399, "23:59 hours"),
            (86_400, "1 day"),
            (2 * 86_400 + 5, "2 days"),
        ];
        for (seconds, expected) in cases {
            assert_eq!(uptime_text(seconds), expected, "{seconds} s");
        }
    }
}
