//! `memory.system` and `memory.swap` from `/proc/meminfo`, with the legacy
//! `memorysize`, `memoryfree`, `swapsize` and `swapfree` names.

use serde_json::{Value, json};

use super::{Facts, Probe};
use crate::units::{bytes_to_human, percentage};

/// One `/proc/meminfo` value, in bytes.
fn field(text: &str, name: &str) -> Option<u64> {
    text.lines().find_map(|line| {
        let rest = line.strip_prefix(name)?.strip_prefix(':')?;
        let kilobytes: u64 = rest.split_whitespace().next()?.parse().ok()?;
        Some(kilobytes * 1024)
    })
}

/// Megabytes as the legacy `_mb` facts give them: a float.
fn megabytes(bytes: u64) -> Value {
    json!(bytes as f64 / (1024.0 * 1024.0))
}

/// The hash of one kind of memory: sizes in bytes and as Facter prints them.
fn usage(total: u64, available: u64) -> Value {
    let used = total.saturating_sub(available);
    json!({
        "available": bytes_to_human(available),
        "available_bytes": available,
        "capacity": percentage(used, total),
        "total": bytes_to_human(total),
        "total_bytes": total,
        "used": bytes_to_human(used),
        "used_bytes": used,
    })
}

pub(crate) fn collect(probe: &Probe<'_>, facts: &mut Facts) {
    let Some(text) = probe.read("/proc/meminfo") else {
        return;
    };
    let mut memory = serde_json::Map::new();
    if let Some(total) = field(&text, "MemTotal") {
        // Kernels before 3.14 have no MemAvailable; Facter then counts free
        // memory, buffers and the page cache.
        let available = field(&text, "MemAvailable").unwrap_or_else(|| {
            field(&text, "MemFree").unwrap_or(0)
                + field(&text, "Buffers").unwrap_or(0)
                + field(&text, "Cached").unwrap_or(0)
        });
        memory.insert("system".into(), usage(total, available));
        facts.legacy("memorysize", json!(bytes_to_human(total)));
        facts.legacy("memorysize_mb", megabytes(total));
        facts.legacy("memoryfree", json!(bytes_to_human(available)));
        facts.legacy("memoryfree_mb", megabytes(available));
    }
    if let Some(total) = field(&text, "SwapTotal").filter(|&total| total > 0) {
        let free = field(&text, "SwapFree").unwrap_or(0);
        memory.insert("swap".into(), usage(total, free));
        facts.legacy("swapsize", json!(bytes_to_human(total)));
        facts.legacy("swapsize_mb", megabytes(total));
        facts.legacy("swapfree", json!(bytes_to_human(free)));
        facts.legacy("swapfree_mb", megabytes(free));
    }
    if !memory.is_empty() {
        facts.set("memory", Value::Object(memory));
    }
}
