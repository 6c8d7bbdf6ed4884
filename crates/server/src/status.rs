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
/// puppetserver's status service lists them; the counts at `level=debug`.
pub(crate) async fn services(
    state: &State,
    request: &Request,
    name: Option<&str>,
) -> Response<Body> {
    let level = match request.param("level") {
        None => "info",
        Some(level @ ("critical" | "info" | "debug")) => level,
        Some(other) => {
            return http::error(
                StatusCode::BAD_REQUEST,
                &format!("Invalid level: '{other}' (critical, info or debug)"),
            );
        }
    };
    let debug = level == "debug";
    let metrics = &state.metrics;
    let load =
        |counter: &std::sync::atomic::AtomicI64| counter.load(std::sync::atomic::Ordering::Relaxed);
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
    let certificates = state.ca.counts().ok();
    let mut all = json!({
        "server": service(json!({
            "compiles_running": load(&metrics.compiles_running),
            "compiles_waiting": load(&metrics.compiles_waiting),
            "connections_open": load(&metrics.connections),
            "environments_cached": state.compiler.environments_cached(),
            "reports_received": metrics.reports.load(std::sync::atomic::Ordering::Relaxed),
        })),
        "ca": service(match certificates {
            Some(c) => json!({"requested": c.requested, "signed": c.signed, "revoked": c.revoked}),
            None => json!({}),
        }),
        "status-service": service(json!({})),
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
        Some(name) => match all.get(name) {
            Some(one) => http::json(one),
            None => http::error(
                StatusCode::NOT_FOUND,
                &format!("No status information found for service {name}"),
            ),
        },
    }
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
        _ => http::error(
            StatusCode::NOT_FOUND,
            &format!("No route for {} {}", request.method, request.path),
        ),
    }
}
