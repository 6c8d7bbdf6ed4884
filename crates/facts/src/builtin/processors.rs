//! `processors`: count, models and speed from `/proc/cpuinfo`, sockets, cores
//! and threads from the topology in `/sys/devices/system/cpu` (what `lscpu`
//! reports to Facter), and the ISA `uname -p` would print.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value, json};

use super::os::{Hierarchy, hierarchy};
use super::{Facts, Probe};
use crate::units::hertz_to_human;

struct CpuInfo {
    count: u64,
    models: Vec<String>,
    physical_ids: BTreeSet<i64>,
    speed_hertz: Option<u64>,
}

/// Reads `/proc/cpuinfo` as Facter does: `processor` lines count, `model
/// name` (or `cpu` on POWER) lines give the models, the last `cpu MHz` (or
/// `clock`) line the speed, truncated to whole megahertz.
fn read_cpuinfo(text: &str) -> CpuInfo {
    let mut info = CpuInfo {
        count: 0,
        models: Vec::new(),
        physical_ids: BTreeSet::new(),
        speed_hertz: None,
    };
    for line in text.lines() {
        let mut pieces = line.split(':');
        let key = pieces.next().unwrap_or_default().trim();
        // Facter takes what follows the last colon.
        let value = line.rsplit(':').next().unwrap_or_default().trim();
        let leading_number = || {
            let digits: String = value.chars().take_while(char::is_ascii_digit).collect();
            digits.parse::<u64>().ok()
        };
        match key {
            "processor" => info.count += 1,
            "model name" | "cpu" => info.models.push(value.to_string()),
            "physical id" => {
                let digits: String = value
                    .chars()
                    .take_while(|c| c.is_ascii_digit() || *c == '-')
                    .collect();
                info.physical_ids.insert(digits.parse().unwrap_or(0));
            }
            "cpu MHz" => {
                if let Some(mhz) = leading_number() {
                    info.speed_hertz = Some(mhz * 1_000_000);
                }
            }
            "clock" if value.contains("MHz") => {
                if let Some(mhz) = leading_number() {
                    info.speed_hertz = Some(mhz * 1_000_000);
                }
            }
            _ => {}
        }
    }
    info
}

/// The CPUs listed in `/sys/devices/system/cpu` with their topology:
/// (package id, core id) per CPU.
fn topology(probe: &Probe<'_>) -> Vec<(String, String)> {
    let root = &probe.system.root;
    root.read_dir("/sys/devices/system/cpu")
        .into_iter()
        .filter(|name| {
            name.strip_prefix("cpu")
                .is_some_and(|rest| !rest.is_empty() && rest.chars().all(|c| c.is_ascii_digit()))
        })
        .filter_map(|cpu| {
            let base = format!("/sys/devices/system/cpu/{cpu}/topology");
            let package = probe.read_trimmed(&format!("{base}/physical_package_id"))?;
            let core = probe
                .read_trimmed(&format!("{base}/core_id"))
                .unwrap_or_default();
            Some((package, core))
        })
        .collect()
}

pub(crate) fn collect(probe: &Probe<'_>, facts: &mut Facts) {
    let Some(text) = probe.read("/proc/cpuinfo").filter(|text| !text.is_empty()) else {
        return;
    };
    let info = read_cpuinfo(&text);
    let topology = topology(probe);
    let packages: BTreeSet<&str> = topology
        .iter()
        .map(|(package, _)| package.as_str())
        .collect();
    let physical_count = if info.physical_ids.is_empty() {
        packages.len()
    } else {
        info.physical_ids.len()
    };

    let mut processors = Map::new();
    processors.insert("count".into(), json!(info.count));
    processors.insert("models".into(), json!(info.models));
    processors.insert("physicalcount".into(), json!(physical_count));
    if let Some(speed) = info.speed_hertz.and_then(hertz_to_human) {
        processors.insert("speed".into(), json!(speed));
    }
    // GNU coreutils print "unknown" for `uname -p` on Linux; Fedora and
    // Red Hat patch it to print the machine.
    let isa = if hierarchy(probe) == Hierarchy::RedHat {
        probe.uname().map(|uname| uname.machine.clone())
    } else {
        Some("unknown".to_string())
    };
    if let Some(isa) = &isa {
        processors.insert("isa".into(), json!(isa));
        facts.legacy("hardwareisa", json!(isa));
    }
    // lscpu's figures: threads per core and cores per socket, from the
    // distinct (package, core) pairs.
    if !topology.is_empty() && !packages.is_empty() {
        let mut cores: BTreeMap<(&str, &str), u64> = BTreeMap::new();
        for (package, core) in &topology {
            *cores.entry((package.as_str(), core.as_str())).or_default() += 1;
        }
        let cpus = topology.len() as u64;
        let core_count = cores.len() as u64;
        processors.insert("threads".into(), json!(cpus / core_count.max(1)));
        processors.insert(
            "cores".into(),
            json!(core_count / (packages.len() as u64).max(1)),
        );
    }

    facts.legacy("processorcount", json!(info.count));
    facts.legacy("physicalprocessorcount", json!(physical_count));
    for (index, model) in info.models.iter().enumerate() {
        facts.legacy(&format!("processor{index}"), json!(model));
    }
    facts.set("processors", Value::Object(processors));
}
