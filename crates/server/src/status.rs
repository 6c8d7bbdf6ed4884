//! How the server is doing, for operators and their tools: puppetserver's
//! status API (`status/v1/services`, whose `?level=debug` adds the
//! counts), `/metrics` for Prometheus, and puppetserver's admin API, which
//! makes the server forget the environments it made (after a code
//! deployment, without a restart).

use hyper::{Method, Response, StatusCode};
use serde_json::{Value, json};

use crate::http::{self, Body, Client, Request};
use crate::server::State;

/// `status/v1/services[/NAME]`: each service with its state, as
/// puppetserver's status service lists them (its six services, and
/// `puppetdb-status` with the storage); `?level=debug` adds the counts,
/// under the keys puppetserver's tools read, and Marionette's own beside
/// them. A service asked for alone carries its `service_name`. Errors are
/// the status service's `{kind, msg}`.
pub(crate) async fn services(
    state: &State,
    request: &Request,
    name: Option<&str>,
) -> Response<Body> {
    let level = match request.param("level") {
        None => "info",
        Some(level @ ("critical" | "info" | "debug")) => level,
        Some(other) => {
            return status_error(
                StatusCode::BAD_REQUEST,
                "data-invalid",
                &format!("Invalid level: :{other}"),
            );
        }
    };
    let debug = level == "debug";
    let service = |status: Value| {
        json!({
            "service_version": crate::PUPPET_VERSION,
            "service_status_version": 1,
            "detail_level": level,
            "state": "running",
            "status": if debug { status } else { json!({}) },
            "active_alerts": [],
        })
    };
    let server = service(server_status(state));
    let mut all = json!({
        "puppet-profiler": service(profiler_status(state)),
        "jruby-metrics": service(compile_slots(state)),
        "ca": service(match state.ca.counts().ok() {
            Some(c) => json!({"requested": c.requested, "signed": c.signed, "revoked": c.revoked}),
            None => json!({}),
        }),
        // puppetserver's older name for its server service, which tools
        // written for Puppet 5 still ask for.
        "master": server.clone(),
        "server": server,
        "status-service": service(process_status(state)),
    });
    if let Some(store) = state.config.storage.clone() {
        // PuppetDB's entry tells its state at every level. Asking the
        // database blocks (PostgreSQL's client more than SQLite), so it
        // is asked off the server's threads.
        let asked =
            tokio::task::spawn_blocking(move || marionette_storage::meta::status(&store)).await;
        if let Ok(mut puppetdb) = asked {
            puppetdb["detail_level"] = json!(level);
            all["puppetdb-status"] = puppetdb;
        }
    }
    match name {
        None | Some("") => http::json(&all),
        Some(name) => match all.get_mut(name) {
            Some(one) => {
                one["service_name"] = json!(name);
                http::json(one)
            }
            None => status_error(
                StatusCode::NOT_FOUND,
                "service-not-found",
                &format!("No status information found for service {name}"),
            ),
        },
    }
}

/// The status service's error: `{"kind": ..., "msg": ...}`.
fn status_error(status: StatusCode, kind: &str, message: &str) -> Response<Body> {
    http::response(
        status,
        "application/json",
        json!({"kind": kind, "msg": message}).to_string(),
    )
}

/// The server service's counts: requests by route as puppetserver's
/// `http-metrics`, and the compile queue, connections, environments and
/// reports.
fn server_status(state: &State) -> Value {
    let metrics = &state.metrics;
    let load =
        |counter: &std::sync::atomic::AtomicI64| counter.load(std::sync::atomic::Ordering::Relaxed);
    json!({
        "experimental": {
            "http-metrics": metrics.http_metrics(),
            // Requests the server makes itself (report processors) are
            // not counted.
            "http-client-metrics": [],
        },
        "compiles_running": load(&metrics.compiles_running),
        "compiles_waiting": load(&metrics.compiles_waiting),
        "connections_open": load(&metrics.connections),
        "environments_cached": state.compiler.environments_cached(),
        "reports_received": metrics.reports.load(std::sync::atomic::Ordering::Relaxed),
    })
}

/// puppetserver's profiler lists: the compiles, as its `catalog-metrics`
/// (`compile`); functions, resources and PuppetDB calls are not timed
/// one by one.
fn profiler_status(state: &State) -> Value {
    let (count, mean, _) = state.metrics.compile_means();
    let catalog = if count == 0 {
        json!([])
    } else {
        json!([{"metric": "compile", "count": count, "mean": mean, "aggregate": count * mean}])
    };
    json!({"experimental": {
        "function-metrics": [],
        "resource-metrics": [],
        "catalog-metrics": catalog,
        "puppetdb-metrics": [],
        "inline-metrics": [],
    }})
}

/// The compile slots (one per core) under the names of puppetserver's
/// JRuby pool, whose instances they stand for: how many, how many free,
/// how often taken and how long held and waited for.
fn compile_slots(state: &State) -> Value {
    let metrics = &state.metrics;
    let load = |counter: &std::sync::atomic::AtomicI64| {
        counter.load(std::sync::atomic::Ordering::Relaxed).max(0) as u64
    };
    let slots = state.compile_slots;
    let free = state.compiles.available_permits();
    let (ended, mean, waited) = metrics.compile_means();
    let running = load(&metrics.compiles_running);
    let borrowed = ended + running;
    json!({"experimental": {
        "jruby-pool-lock-status": {
            "current-state": ":not-in-use",
            "last-change-time": iso_time(metrics.started()),
        },
        "metrics": {
            "num-jrubies": slots,
            "num-free-jrubies": free,
            "requested-count": borrowed + load(&metrics.compiles_waiting),
            "borrow-count": borrowed,
            "return-count": ended,
            "borrow-timeout-count": 0,
            "borrow-retry-count": 0,
            "queue-limit-hit-count": 0,
            "queue-limit-hit-rate": 0.0,
            "average-borrow-time": mean.saturating_sub(waited),
            "average-wait-time": waited,
            "average-free-jrubies": free as f64,
            "average-requested-jrubies": slots.saturating_sub(free) as f64,
            "average-lock-wait-time": 0,
            "average-lock-held-time": 0,
            "num-pool-locks": 0,
            "borrow-timers": {"total": {
                "count": borrowed,
                "mean": mean.saturating_sub(waited),
                "max": 0,
                "rate": 0.0,
            }},
            "borrowed-instances": [],
            "requested-instances": [],
        },
    }})
}

/// The process's figures under the names of puppetserver's `jvm-metrics`:
/// its time up, CPU, threads, descriptors, and its resident memory as the
/// heap (there is no garbage collector, so no pools and no GC figures).
fn process_status(state: &State) -> Value {
    let proc_status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| -> u64 {
        proc_status
            .lines()
            .find_map(|line| line.strip_prefix(name))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    };
    let resident = field("VmRSS:") * 1024;
    let peak = field("VmHWM:") * 1024;
    let threads = field("Threads:");
    let descriptors = std::fs::read_dir("/proc/self/fd").map_or(0, |d| d.count());
    let limit = std::fs::read_to_string("/proc/self/limits")
        .unwrap_or_default()
        .lines()
        .find_map(|line| line.strip_prefix("Max open files"))
        .and_then(|rest| {
            rest.split_whitespace()
                .next()
                .and_then(|n| n.parse::<u64>().ok())
        })
        .unwrap_or(0);
    let started = state.metrics.started();
    let up = started.elapsed().unwrap_or_default();
    let start_ms = started
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
    json!({"experimental": {"jvm-metrics": {
        "cpu-usage": cpu_usage(up),
        "gc-cpu-usage": 0.0,
        "up-time-ms": up.as_millis() as u64,
        "start-time-ms": start_ms,
        "threading": {"thread-count": threads, "peak-thread-count": threads},
        "heap-memory": {"committed": resident, "init": 0, "max": peak, "used": resident},
        "non-heap-memory": {"committed": 0, "init": 0, "max": 0, "used": 0},
        "file-descriptors": {"used": descriptors, "max": limit},
        "memory-pools": {},
        "gc-stats": {},
        "nio-buffer-pools": {},
    }}})
}

/// The share of one core's time the process used since it started, in
/// percent (`/proc/self/stat`'s user and system ticks).
fn cpu_usage(up: std::time::Duration) -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // After the command's name in parentheses: state is field 3, utime
    // and stime fields 14 and 15.
    let rest = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<u64> = rest
        .split_whitespace()
        .map(|f| f.parse().unwrap_or(0))
        .collect();
    let ticks = fields.get(11).copied().unwrap_or(0) + fields.get(12).copied().unwrap_or(0);
    // Linux reports these in USER_HZ, 100 per second on every
    // architecture it runs on.
    let seconds = ticks as f64 / 100.0;
    let up = up.as_secs_f64();
    if up <= 0.0 {
        0.0
    } else {
        (seconds / up * 100.0 * 100.0).round() / 100.0
    }
}

/// `2026-11-29T16:27:16.700Z`.
fn iso_time(at: std::time::SystemTime) -> String {
    let millis = at
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64);
    let (days, rest) = (millis.div_euclid(86_400_000), millis.rem_euclid(86_400_000));
    let (year, month, day) = crate::logs::civil(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rest / 3_600_000,
        rest % 3_600_000 / 60_000,
        rest % 60_000 / 1000,
        rest % 1000
    )
}

/// `/metrics`: the counts in Prometheus's text format.
pub(crate) fn metrics(state: &State) -> Response<Body> {
    http::response(
        StatusCode::OK,
        "text/plain; version=0.0.4",
        state
            .metrics
            .render(state.compiler.environments_cached(), state.ca.counts().ok())
            .into_bytes(),
    )
}

/// `puppet-admin-api/v1/environment-cache` (optionally `?environment=`)
/// and `.../jruby-pool`: forget made environments, so that the next
/// compiles read code, data and modules' Ruby afresh, in new Ruby hosts.
/// For CA administrators' certificates alone, as puppetserver's default
/// authorization has it.
pub(crate) fn admin(
    state: &State,
    client: &Client,
    request: &Request,
    rest: &str,
) -> Response<Body> {
    if !client.may_administer(&state.config.ca_admins) {
        return http::forbidden(request);
    }
    let who = client.certname().unwrap_or("-");
    match (&request.method, rest) {
        (&Method::DELETE, "environment-cache") => {
            let environment = request.param("environment");
            state.compiler.flush_environments(environment);
            state.log(&format!(
                "Flushed the environment cache ({}), as {who} asked",
                environment.unwrap_or("all environments")
            ));
            http::text(StatusCode::NO_CONTENT, "")
        }
        (&Method::DELETE, "jruby-pool") => {
            state.compiler.flush_environments(None);
            state.log(&format!(
                "Restarted the Ruby hosts of every environment, as {who} asked"
            ));
            http::text(StatusCode::NO_CONTENT, "")
        }
        // Its endpoints take DELETE alone.
        (_, "environment-cache" | "jruby-pool") => {
            let mut refused = http::text(StatusCode::METHOD_NOT_ALLOWED, "Method not allowed.");
            refused.headers_mut().insert(
                hyper::header::ALLOW,
                hyper::header::HeaderValue::from_static("DELETE"),
            );
            refused
        }
        _ => http::text(StatusCode::NOT_FOUND, "Not Found"),
    }
}
