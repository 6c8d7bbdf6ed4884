//! What the server counts, and `/metrics`, which shows it in Prometheus's
//! text format: requests by endpoint and status, their time, compiles by
//! environment and outcome with their time, the compile queue, open
//! connections, reports received, the environments kept made, and the
//! certificate authority's requests and certificates by state.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Mutex;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

/// How many, and their seconds, by key.
type Tally<K> = Mutex<BTreeMap<K, (u64, f64)>>;

/// The server's counters; one per server, shared by its connections.
pub(crate) struct Metrics {
    started: SystemTime,
    /// By (endpoint, status): how many requests, and their seconds.
    requests: Tally<(&'static str, u16)>,
    /// By (environment, outcome): how many compiles, and their seconds.
    compiles: Tally<(String, &'static str)>,
    /// How many compiles waited for a free core, and their seconds.
    waits: Mutex<(u64, f64)>,
    pub(crate) connections: AtomicI64,
    pub(crate) compiles_waiting: AtomicI64,
    pub(crate) compiles_running: AtomicI64,
    pub(crate) reports: AtomicU64,
}

impl Default for Metrics {
    fn default() -> Metrics {
        Metrics {
            started: SystemTime::now(),
            requests: Mutex::default(),
            compiles: Mutex::default(),
            waits: Mutex::default(),
            connections: AtomicI64::new(0),
            compiles_waiting: AtomicI64::new(0),
            compiles_running: AtomicI64::new(0),
            reports: AtomicU64::new(0),
        }
    }
}

/// The endpoint a path belongs to, as the metrics name it: few enough
/// names that a scrape stays small whatever clients ask.
pub(crate) fn endpoint(path: &str) -> &'static str {
    if let Some(v3) = path.strip_prefix("/puppet/v3/") {
        let known = [
            ("catalog/", "catalog"),
            ("node/", "node"),
            ("file_metadatas/", "file_metadatas"),
            ("file_metadata/", "file_metadata"),
            ("file_content/", "file_content"),
            ("static_file_content/", "file_content"),
            ("file_bucket_file/", "file_bucket_file"),
            ("report/", "report"),
            ("facts/", "facts"),
            ("environment", "environments"),
        ];
        return known
            .iter()
            .find(|(prefix, _)| v3.starts_with(prefix))
            .map_or("other", |(_, name)| name);
    }
    match () {
        _ if path.starts_with("/puppet-ca/v1/") => "ca",
        _ if path.starts_with("/pdb/") => "puppetdb",
        _ if path.starts_with("/status/") => "status",
        _ if path.starts_with("/puppet-admin-api/") => "admin",
        _ if path == "/metrics" => "metrics",
        _ => "other",
    }
}

impl Metrics {
    pub(crate) fn request(&self, endpoint: &'static str, status: u16, took: Duration) {
        let mut requests = self.requests.lock().unwrap_or_else(|e| e.into_inner());
        let entry = requests.entry((endpoint, status)).or_default();
        entry.0 += 1;
        entry.1 += took.as_secs_f64();
    }

    pub(crate) fn compile(&self, environment: &str, succeeded: bool, took: Duration) {
        let outcome = if succeeded { "success" } else { "failure" };
        let mut compiles = self.compiles.lock().unwrap_or_else(|e| e.into_inner());
        let entry = compiles
            .entry((environment.to_string(), outcome))
            .or_default();
        entry.0 += 1;
        entry.1 += took.as_secs_f64();
    }

    /// A compile's wait for a free core.
    pub(crate) fn waited(&self, took: Duration) {
        let mut waits = self.waits.lock().unwrap_or_else(|e| e.into_inner());
        waits.0 += 1;
        waits.1 += took.as_secs_f64();
    }

    /// Compiles ended, and their mean time and mean wait, in
    /// milliseconds.
    pub(crate) fn compile_means(&self) -> (u64, u64, u64) {
        let (count, seconds) = self
            .compiles
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .fold((0, 0.0), |(n, s), (count, seconds)| {
                (n + count, s + seconds)
            });
        let (waits, waited) = *self.waits.lock().unwrap_or_else(|e| e.into_inner());
        let mean = |seconds: f64, n: u64| {
            if n == 0 {
                0
            } else {
                (seconds * 1000.0 / n as f64).round() as u64
            }
        };
        (count, mean(seconds, count), mean(waited, waits))
    }

    /// The requests by route as puppetserver's status service lists them
    /// (`http-metrics`: its route ids, with how many, their mean and their
    /// total milliseconds), every route listed, and `total`.
    pub(crate) fn http_metrics(&self) -> Vec<serde_json::Value> {
        const ROUTES: [(&str, &str); 9] = [
            ("catalog", "puppet-v3-catalog-/*/"),
            ("node", "puppet-v3-node-/*/"),
            ("facts", "puppet-v3-facts-/*/"),
            ("file_metadata", "puppet-v3-file_metadata-/*/"),
            ("file_metadatas", "puppet-v3-file_metadatas-/*/"),
            ("file_content", "puppet-v3-file_content-/*/"),
            ("file_bucket_file", "puppet-v3-file_bucket_file-/*/"),
            ("report", "puppet-v3-report-/*/"),
            ("environments", "puppet-v3-environments"),
        ];
        let mut by_route: BTreeMap<&str, (u64, f64)> = BTreeMap::new();
        for ((endpoint, _), (count, seconds)) in self
            .requests
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
        {
            let route = ROUTES
                .iter()
                .find(|(name, _)| name == endpoint)
                .map_or("other", |(_, route)| route);
            for key in [route, "total"] {
                let entry = by_route.entry(key).or_default();
                entry.0 += count;
                entry.1 += seconds;
            }
        }
        ROUTES
            .iter()
            .map(|(_, route)| *route)
            .chain(["other", "total"])
            .map(|route| {
                let (count, seconds) = by_route.get(route).copied().unwrap_or_default();
                let aggregate = (seconds * 1000.0).round() as u64;
                serde_json::json!({
                    "route-id": route,
                    "count": count,
                    "mean": aggregate.checked_div(count).unwrap_or(0),
                    "aggregate": aggregate,
                })
            })
            .collect()
    }

    /// When the server started.
    pub(crate) fn started(&self) -> SystemTime {
        self.started
    }

    /// Prometheus's text exposition format (version 0.0.4).
    pub(crate) fn render(
        &self,
        environments: usize,
        certificates: Option<marionette_ca::Counts>,
    ) -> String {
        let mut out = String::new();
        let family = |out: &mut String, name: &str, kind: &str, help: &str| {
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} {kind}");
        };
        family(
            &mut out,
            "marionette_build_info",
            "gauge",
            "The Puppet version the server speaks for, as a label.",
        );
        let _ = writeln!(
            out,
            "marionette_build_info{{puppet_version=\"{}\",version=\"{}\"}} 1",
            crate::PUPPET_VERSION,
            env!("CARGO_PKG_VERSION")
        );
        family(
            &mut out,
            "process_start_time_seconds",
            "gauge",
            "When the server started, in seconds since the epoch.",
        );
        let started = self
            .started
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0.0, |d| d.as_secs_f64());
        let _ = writeln!(out, "process_start_time_seconds {started:.3}");
        let requests = self
            .requests
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .map(|((endpoint, status), tally)| {
                (
                    format!("endpoint=\"{endpoint}\",status=\"{status}\""),
                    *tally,
                )
            })
            .collect::<Vec<_>>();
        write_tally(
            &mut out,
            (
                "marionette_http_requests_total",
                "Requests answered, by endpoint and status.",
            ),
            (
                "marionette_http_request_seconds_total",
                "Time spent answering requests, by endpoint and status.",
            ),
            &requests,
        );
        let compiles = self
            .compiles
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .map(|((environment, outcome), tally)| {
                (
                    format!(
                        "environment=\"{}\",outcome=\"{outcome}\"",
                        label(environment)
                    ),
                    *tally,
                )
            })
            .collect::<Vec<_>>();
        write_tally(
            &mut out,
            (
                "marionette_compiles_total",
                "Catalogs compiled, by environment and outcome.",
            ),
            (
                "marionette_compile_seconds_total",
                "Time spent compiling, by environment and outcome.",
            ),
            &compiles,
        );
        for (name, help, value) in [
            (
                "marionette_compiles_waiting",
                "Catalog requests waiting for a free core.",
                self.compiles_waiting.load(Ordering::Relaxed),
            ),
            (
                "marionette_compiles_running",
                "Catalogs being compiled.",
                self.compiles_running.load(Ordering::Relaxed),
            ),
            (
                "marionette_connections_open",
                "Client connections open.",
                self.connections.load(Ordering::Relaxed),
            ),
            (
                "marionette_environments_cached",
                "Environments kept made (their code, Hiera and Ruby host) between compiles.",
                environments as i64,
            ),
        ] {
            family(&mut out, name, "gauge", help);
            let _ = writeln!(out, "{name} {value}");
        }
        family(
            &mut out,
            "marionette_reports_received_total",
            "counter",
            "Reports agents sent.",
        );
        let _ = writeln!(
            out,
            "marionette_reports_received_total {}",
            self.reports.load(Ordering::Relaxed)
        );
        if let Some(certificates) = certificates {
            family(
                &mut out,
                "marionette_ca_certificates",
                "gauge",
                "The certificate authority's requests and certificates, by state.",
            );
            for (state, count) in [
                ("requested", certificates.requested),
                ("signed", certificates.signed),
                ("revoked", certificates.revoked),
            ] {
                let _ = writeln!(
                    out,
                    "marionette_ca_certificates{{state=\"{state}\"}} {count}"
                );
            }
        }
        out
    }
}

/// A tally as two counter families: how many under `count`, and their
/// seconds under `seconds`, each row under its labels.
fn write_tally(
    out: &mut String,
    (count, count_help): (&str, &str),
    (seconds, seconds_help): (&str, &str),
    rows: &[(String, (u64, f64))],
) {
    let _ = writeln!(out, "# HELP {count} {count_help}\n# TYPE {count} counter");
    for (labels, (n, _)) in rows {
        let _ = writeln!(out, "{count}{{{labels}}} {n}");
    }
    let _ = writeln!(
        out,
        "# HELP {seconds} {seconds_help}\n# TYPE {seconds} counter"
    );
    for (labels, (_, total)) in rows {
        let _ = writeln!(out, "{seconds}{{{labels}}} {total:.6}");
    }
}

/// A label value with Prometheus's escapes.
fn label(value: &str) -> String {
    value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_render_in_prometheus_text_format() {
        let metrics = Metrics::default();
        metrics.request("catalog", 200, Duration::from_millis(250));
        metrics.request("catalog", 200, Duration::from_millis(250));
        metrics.request("node", 404, Duration::from_millis(1));
        metrics.compile("production", true, Duration::from_millis(500));
        metrics.compile("odd\"env", false, Duration::from_millis(10));
        let text = metrics.render(
            2,
            Some(marionette_ca::Counts {
                requested: 1,
                signed: 3,
                revoked: 0,
            }),
        );
        for line in [
            "marionette_http_requests_total{endpoint=\"catalog\",status=\"200\"} 2",
            "marionette_http_request_seconds_total{endpoint=\"catalog\",status=\"200\"} 0.500000",
            "marionette_http_requests_total{endpoint=\"node\",status=\"404\"} 1",
            "marionette_compiles_total{environment=\"production\",outcome=\"success\"} 1",
            "marionette_compiles_total{environment=\"odd\\\"env\",outcome=\"failure\"} 1",
            "marionette_environments_cached 2",
            "marionette_ca_certificates{state=\"signed\"} 3",
            "# TYPE marionette_http_requests_total counter",
        ] {
            assert!(
                text.lines().any(|l| l == line),
                "{line} missing from:\n{text}"
            );
        }
        assert_eq!(endpoint("/puppet/v3/catalog/web1"), "catalog");
        assert_eq!(endpoint("/puppet/v3/environments"), "environments");
        assert_eq!(endpoint("/anything/else"), "other");
    }
}
