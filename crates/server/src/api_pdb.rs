//! PuppetDB's API over the server's storage: `/pdb/query/v4` (its
//! entities, and the root endpoint's `["from", ENTITY, ...]`),
//! `/pdb/cmd/v1` (commands, as Puppet's PuppetDB termini send them),
//! `/pdb/admin/v1/cmd` (maintenance: `clean` and `delete`) and
//! `/pdb/meta/v1/version`. As PuppetDB, it answers any client with a
//! certificate from the CA (and on its `certificate-allowlist`, when
//! there is one), and no one else.

use std::sync::Arc;

use hyper::{Method, Response, StatusCode};
use marionette_storage::{Paging, Store, StoreError};
use serde_json::{Value, json};

use crate::http::{self, Body, Client, Request};
use crate::server::State;

use marionette_storage::meta::{self, PUPPETDB_VERSION};

pub(crate) async fn handle(
    state: &Arc<State>,
    client: &Client,
    request: &Request,
    rest: &str,
) -> Response<Body> {
    if !state.config.puppetdb.allows(client) {
        return http::forbidden(request);
    }
    let Some(store) = state.config.storage.clone() else {
        return http::text(
            StatusCode::SERVICE_UNAVAILABLE,
            "This server keeps no storage: set storeconfigs = true in its configuration",
        );
    };
    if rest == "meta/v1/version" {
        return http::json(&json!({"version": PUPPETDB_VERSION}));
    }
    if rest == "meta/v1/server-time" {
        return http::json(&meta::server_time());
    }
    if rest == "cmd/v1" {
        if request.method != Method::POST {
            return http::text(StatusCode::METHOD_NOT_ALLOWED, "Commands are POSTed");
        }
        return command(state, store, request).await;
    }
    if rest == "admin/v1/cmd" {
        if request.method != Method::POST {
            return http::text(StatusCode::METHOD_NOT_ALLOWED, "Commands are POSTed");
        }
        return admin_command(state, client, store, request).await;
    }
    let Some(path) = rest.strip_prefix("query/v4") else {
        return http::text(StatusCode::NOT_FOUND, format!("No route for /pdb/{rest}"));
    };
    let (ast, paging) = match read_query(request) {
        Ok(found) => found,
        Err(message) => return http::text(StatusCode::BAD_REQUEST, message),
    };
    let marionette_storage::Endpoint {
        entity,
        query: ast,
        single,
        paging: asked,
    } = match marionette_storage::endpoint(path, ast) {
        Ok(found) => found,
        Err(error) => return store_error(&error),
    };
    // The query's own paging (PQL's `limit`, ...) before the URL's.
    let paging = asked.or(&paging);
    let include_total = request.param("include_total") == Some("true");
    let counts = match event_counts(request) {
        Ok(counts) => counts,
        Err(message) => return http::text(StatusCode::BAD_REQUEST, message),
    };
    let gzip = request.gzip;
    let answered = state
        .queries
        .run(move || -> Result<Response<Body>, StoreError> {
            // The answer is written here, off the server's own threads,
            // and compressed as it is written.
            let mut body = http::Compressing::new(gzip);
            let rows = match (entity.as_str(), &counts) {
                ("event-counts", Some(counts)) => {
                    Some(store.event_counts(ast.as_ref(), counts, &paging)?)
                }
                ("aggregate-event-counts", Some(counts)) => {
                    Some(store.aggregate_event_counts(ast.as_ref(), counts)?)
                }
                _ if let Some(missing) = &single => {
                    let found = store.query(&entity, ast.as_ref(), &paging)?;
                    return Ok(match found.into_iter().next() {
                        Some(row) => http::json(&row),
                        None => http::response(
                            StatusCode::NOT_FOUND,
                            "application/json",
                            json!({ "error": missing }).to_string(),
                        ),
                    });
                }
                _ => None,
            };
            let total = match rows {
                Some(rows) => {
                    serde_json::to_writer(&mut body, &rows)
                        .map_err(|e| StoreError::Write(e.to_string()))?;
                    // The total asks for every row again, without the
                    // page's limits.
                    include_total
                        .then(|| store.query(&entity, ast.as_ref(), &Paging::default()))
                        .and_then(Result::ok)
                        .map(|all| all.len())
                }
                None => {
                    store
                        .query_to(&entity, ast.as_ref(), &paging, include_total, &mut body)?
                        .total
                }
            };
            let mut response = body.response(StatusCode::OK, "application/json");
            if let Some(total) = total
                && let Ok(value) = hyper::header::HeaderValue::from_str(&total.to_string())
            {
                response.headers_mut().insert("X-Records", value);
            }
            Ok(response)
        })
        .await;
    match answered {
        Ok(Ok(response)) => response,
        Ok(Err(error)) => store_error(&error),
        Err(_) => http::text(
            StatusCode::INTERNAL_SERVER_ERROR,
            "The query stopped unexpectedly",
        ),
    }
}

/// `/pdb/admin/v1/cmd`: PuppetDB's admin commands, run at once. `clean`
/// (version 1) runs the parts of a collection its payload names
/// (`expire_nodes`, `purge_nodes`, optionally `["purge_nodes",
/// {"batch_limit": N}]`, `purge_reports`, `purge_resource_events`; every
/// part for an empty list; `gc_packages` and `other` have nothing to do
/// here) with the configured TTLs, answering `{"ok": true}`, or 409 while
/// another runs; `delete` (version 1) removes a node and all kept of it.
async fn admin_command(
    state: &Arc<State>,
    client: &Client,
    store: Arc<Store>,
    request: &Request,
) -> Response<Body> {
    let invalid = |message: String| {
        http::response(
            StatusCode::BAD_REQUEST,
            "application/json",
            json!({"kind": "data-invalid", "msg": message}).to_string(),
        )
    };
    let body: Value = match serde_json::from_slice(&request.body) {
        Ok(body) => body,
        Err(e) => return invalid(format!("The command is not JSON: {e}")),
    };
    let who = client
        .certname()
        .unwrap_or("a client without a certificate");
    match (body["command"].as_str(), body["version"].as_i64()) {
        (Some("clean"), Some(1)) => {
            let operations = match clean_operations(&body["payload"]) {
                Ok(operations) => operations,
                Err(message) => return invalid(message),
            };
            if state
                .cleaning
                .swap(true, std::sync::atomic::Ordering::AcqRel)
            {
                return http::response(
                    StatusCode::CONFLICT,
                    "application/json",
                    json!({"kind": "conflict", "msg": "Another cleanup is already in progress", "details": null})
                        .to_string(),
                );
            }
            let retention = state.config.puppetdb.retention;
            let done =
                tokio::task::spawn_blocking(move || store.clean(&retention, &operations)).await;
            state
                .cleaning
                .store(false, std::sync::atomic::Ordering::Release);
            match done {
                Ok(Ok(collected)) => {
                    state.log(&format!(
                        "PuppetDB's clean, as {who} asked: expired {} node(s), purged {}, deleted {} report(s) and the events of {}",
                        collected.expired, collected.purged, collected.reports, collected.events
                    ));
                    http::json(&json!({"ok": true}))
                }
                Ok(Err(error)) => store_error(&error),
                Err(_) => http::text(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "The clean stopped unexpectedly",
                ),
            }
        }
        (Some("delete"), Some(1)) => {
            let Some(certname) = body["payload"]["certname"].as_str().map(str::to_string) else {
                return invalid("delete's payload names no certname".to_string());
            };
            let node = certname.clone();
            match tokio::task::spawn_blocking(move || store.delete_node(&node)).await {
                Ok(Ok(_)) => {
                    state.log(&format!("PuppetDB's delete of {certname}, as {who} asked"));
                    http::json(&json!({"deleted": certname}))
                }
                Ok(Err(error)) => store_error(&error),
                Err(_) => http::text(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "The delete stopped unexpectedly",
                ),
            }
        }
        (command, version) => invalid(format!(
            "Unknown admin command {} version {}: clean and delete, version 1",
            command.unwrap_or("(none)"),
            version.map_or("(none)".to_string(), |v| v.to_string())
        )),
    }
}

/// The parts of a collection a `clean` payload names.
fn clean_operations(payload: &Value) -> Result<marionette_storage::Operations, String> {
    use marionette_storage::Operations;
    let Some(asked) = payload.as_array() else {
        return Err("clean's payload is a list of operations".to_string());
    };
    if asked.is_empty() {
        return Ok(Operations::all());
    }
    let mut operations = Operations::none();
    for operation in asked {
        let (name, options) = match operation {
            Value::String(name) => (name.as_str(), None),
            Value::Array(pair) if pair.len() == 2 => match (&pair[0], &pair[1]) {
                (Value::String(name), options @ Value::Object(_)) => (name.as_str(), Some(options)),
                _ => return Err(format!("Unknown clean operation {operation}")),
            },
            _ => return Err(format!("Unknown clean operation {operation}")),
        };
        match (name, options) {
            ("expire_nodes", None) => operations.expire_nodes = true,
            ("purge_nodes", options) => {
                operations.purge_nodes = true;
                if let Some(options) = options {
                    let limit = options["batch_limit"].as_u64().ok_or_else(|| {
                        format!("purge_nodes's batch_limit is a whole number: {options}")
                    })?;
                    operations.purge_batch_limit =
                        Some(usize::try_from(limit).unwrap_or(usize::MAX));
                }
            }
            ("purge_reports", None) => operations.purge_reports = true,
            ("purge_resource_events", None) => operations.purge_resource_events = true,
            // Packages are kept with their node's facts, and nothing else
            // is left behind: nothing to collect.
            ("gc_packages" | "other", None) => {}
            _ => return Err(format!("Unknown clean operation {operation}")),
        }
    }
    Ok(operations)
}

/// `/metrics/v2/REST`: PuppetDB's population metrics in Jolokia's form,
/// to certificate holders, as Puppetboard's overview reads them.
pub(crate) async fn metrics(
    state: &Arc<State>,
    client: &Client,
    request: &Request,
    rest: &str,
) -> Response<Body> {
    if !state.config.puppetdb.allows(client) {
        return http::forbidden(request);
    }
    let Some(store) = state.config.storage.clone() else {
        return http::text(
            StatusCode::NOT_FOUND,
            "This server keeps no storage, and so no PuppetDB metrics",
        );
    };
    let rest = rest.to_string();
    match state
        .queries
        .run(move || meta::metrics(&store, &rest))
        .await
    {
        Ok(Ok(answer)) => http::json(&answer),
        Ok(Err(error)) => store_error(&error),
        Err(_) => http::text(
            StatusCode::INTERNAL_SERVER_ERROR,
            "The metrics stopped unexpectedly",
        ),
    }
}

fn store_error(error: &StoreError) -> Response<Body> {
    let status = match error {
        StoreError::UnknownEntity(_) => StatusCode::NOT_FOUND,
        StoreError::Unavailable { .. } => StatusCode::SERVICE_UNAVAILABLE,
        e if e.is_bad_request() => StatusCode::BAD_REQUEST,
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    };
    http::text(status, error.to_string())
}

/// What `event-counts` and `aggregate-event-counts` are to count, from
/// the URL's parameters (or the JSON body's); `None` without a
/// `summarize_by`.
fn event_counts(request: &Request) -> Result<Option<marionette_storage::EventCounts>, String> {
    let posted: Option<Value> = (request.method == Method::POST)
        .then(|| serde_json::from_slice(&request.body).ok())
        .flatten();
    let text = |name: &str| -> Option<String> {
        match &posted {
            Some(body) => body.get(name).and_then(Value::as_str).map(str::to_string),
            None => request.param(name).map(str::to_string),
        }
    };
    let Some(summarize_by) = text("summarize_by") else {
        return Ok(None);
    };
    let counts_filter = match &posted {
        Some(body) => body.get("counts_filter").cloned(),
        None => request
            .param("counts_filter")
            .map(|f| {
                serde_json::from_str(f)
                    .map_err(|e| format!("Malformed JSON for counts_filter: {f} ({e})"))
            })
            .transpose()?,
    };
    Ok(Some(marionette_storage::EventCounts {
        summarize_by,
        count_by: text("count_by"),
        counts_filter,
    }))
}

/// The query and paging, from the URL's parameters (GET) or the JSON
/// body (POST).
fn read_query(request: &Request) -> Result<(Option<Value>, Paging), String> {
    let posted: Option<serde_json::Map<String, Value>> = if request.method == Method::POST {
        match serde_json::from_slice::<Value>(&request.body) {
            Ok(Value::Object(body)) => Some(body),
            Ok(_) => return Err("The body of a query must be a JSON object".into()),
            Err(e) => return Err(format!("The body is not JSON: {e}")),
        }
    } else {
        None
    };
    // A parameter as JSON: given in the body as JSON itself, in the URL
    // as JSON text.
    let param = |name: &str| -> Result<Option<Value>, String> {
        match &posted {
            Some(body) => Ok(body.get(name).cloned()),
            None => match request.param(name) {
                None | Some("") => Ok(None),
                // A query that is no JSON is PQL; numbers and words come
                // bare in URLs.
                Some(text) => Ok(Some(
                    serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_string())),
                )),
            },
        }
    };
    let ast = param("query")?;
    let number = |name: &str| -> Result<Option<usize>, String> {
        match param(name)? {
            None => Ok(None),
            Some(Value::Number(n)) => n.as_u64().map(|n| Some(n as usize)).ok_or_else(|| {
                format!("Illegal value '{n}' for :{name}; expected a non-negative integer")
            }),
            Some(Value::String(s)) => s.parse().map(Some).map_err(|_| {
                format!("Illegal value '{s}' for :{name}; expected a non-negative integer")
            }),
            Some(other) => Err(format!(
                "Illegal value '{other}' for :{name}; expected a non-negative integer"
            )),
        }
    };
    let mut paging = Paging {
        limit: number("limit")?,
        offset: number("offset")?.unwrap_or(0),
        order_by: Vec::new(),
    };
    match param("order_by")? {
        None => {}
        Some(Value::Array(fields)) => {
            for field in fields {
                let name = field
                    .get("field")
                    .and_then(Value::as_str)
                    .ok_or("Each order_by entry names a 'field'")?;
                let descending = match field.get("order").and_then(Value::as_str) {
                    None | Some("asc") | Some("ASC") => false,
                    Some("desc") | Some("DESC") => true,
                    Some(other) => return Err(format!("Illegal order '{other}' for :order_by")),
                };
                paging.order_by.push((name.to_string(), descending));
            }
        }
        Some(other) => return Err(format!("Illegal value '{other}' for :order_by")),
    }
    Ok((ast, paging))
}

/// `/pdb/cmd/v1`: the command named by the URL (`command`, `version`,
/// `certname`, with the payload as the body), or by an older body of
/// `{"command", "version", "payload"}`. Stored before the answer, so a
/// 200 means kept.
async fn command(state: &State, store: Arc<Store>, request: &Request) -> Response<Body> {
    let body: Value = match serde_json::from_slice(&request.body) {
        Ok(body) => body,
        Err(e) => {
            return http::text(
                StatusCode::BAD_REQUEST,
                format!("The command is not JSON: {e}"),
            );
        }
    };
    let (name, version, certname, payload) = match request.param("command") {
        Some(name) => (
            name.to_string(),
            request.param("version").and_then(|v| v.parse().ok()),
            request.param("certname").unwrap_or_default().to_string(),
            body,
        ),
        None => (
            body.get("command")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string(),
            body.get("version")
                .and_then(Value::as_u64)
                .map(|v| v as u32),
            String::new(),
            body.get("payload").cloned().unwrap_or(Value::Null),
        ),
    };
    let Some(version) = version else {
        return http::text(StatusCode::BAD_REQUEST, "The command names no version");
    };
    let stored = state
        .commands
        .run(move || store.submit(&name, version, &certname, &payload))
        .await;
    match stored {
        Ok(Ok(())) => http::json(&json!({"uuid": marionette_storage::commands::receipt()})),
        Ok(Err(error)) => store_error(&error),
        Err(_) => http::text(
            StatusCode::INTERNAL_SERVER_ERROR,
            "The command stopped unexpectedly",
        ),
    }
}
