//! `puppet/v3`: what agents ask for once they hold a certificate. A node
//! may read only its own node data and catalog and send only its own
//! report; files and environments are for any node with a certificate.

use std::path::{Path, PathBuf};

use hyper::{Method, Response, StatusCode};
use serde_json::{Value, json};

use crate::CompileRequest;
use crate::files::{self, Options};
use crate::http::{
    Body, Client, Request, error, forbidden, form, json as json_response, response, text,
};
use crate::server::State;

pub(crate) async fn handle(
    state: &std::sync::Arc<State>,
    client: &Client,
    request: &Request,
    rest: &str,
) -> Response<Body> {
    let (endpoint, name) = rest.split_once('/').unwrap_or((rest, ""));
    let Some(certname) = client.certname() else {
        return forbidden(request);
    };
    // A node's own endpoints, as Puppet's default rules have them.
    if matches!(endpoint, "node" | "catalog" | "report" | "facts") && name != certname {
        return forbidden(request);
    }
    match (&request.method, endpoint) {
        (&Method::GET, "node") => node(state, request, name),
        (&Method::POST | &Method::GET, "catalog") => catalog(state, client, request, name).await,
        (&Method::PUT, "report") => report(state, request, name),
        (&Method::PUT, "facts") => facts(state, client, request, name),
        (&Method::GET, "file_metadatas") => metadata(state, request, name, true),
        (&Method::GET, "file_metadata") => metadata(state, request, name, false),
        (&Method::GET, "file_content") => content(state, request, name),
        (&Method::GET, "static_file_content") => static_content(state, request, name),
        (&Method::GET, "environments") => environments(state),
        (&Method::GET, "environment_modules") => environment_modules(state, request),
        (&Method::GET, "environment_classes") => environment_classes(state, request),
        (&Method::GET | &Method::HEAD | &Method::PUT, "file_bucket_file") => {
            crate::bucket::handle(state, request, name)
        }
        (&Method::GET, "marionette_plugins") => plugin_set(state, request),
        _ => error(
            StatusCode::NOT_FOUND,
            &format!("No route for {} {}", request.method, request.path),
        ),
    }
}

/// The node's data: its environment and (empty) parameters; the agent
/// takes the environment it is told.
fn node(state: &State, request: &Request, name: &str) -> Response<Body> {
    let classified = match state.compiler.environment_of(name) {
        Ok(classified) => classified,
        Err(message) => return error(StatusCode::INTERNAL_SERVER_ERROR, &message),
    };
    let environment = classified.as_deref().unwrap_or(request.environment());
    if state.compiler.modulepath(environment).is_none() {
        return error(
            StatusCode::NOT_FOUND,
            &format!("Could not find environment '{environment}'"),
        );
    }
    json_response(&json!({
        "name": name,
        "parameters": {},
        "environment": environment,
    }))
}

async fn catalog(
    state: &std::sync::Arc<State>,
    client: &Client,
    request: &Request,
    name: &str,
) -> Response<Body> {
    // The facts come in the POST's form (or the GET's query).
    let fields = if request.method == Method::POST {
        form(&request.body)
    } else {
        request.query.clone()
    };
    let field = |key: &str| {
        fields
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    };
    // The classifier's environment wins over the agent's: an agent told
    // another one syncs its plugins again and asks once more.
    let environment = match state.compiler.environment_of(name) {
        Ok(Some(classified)) => classified,
        Ok(None) => field("environment")
            .unwrap_or(request.environment())
            .to_string(),
        Err(message) => return error(StatusCode::INTERNAL_SERVER_ERROR, &message),
    };
    // Puppet's agent escapes the facts once more than the form does (as a
    // form value: `+` for a blank).
    let facts_text = field("facts").map(|text| {
        if text.starts_with('{') {
            text.to_string()
        } else {
            percent_encoding::percent_decode_str(&text.replace('+', " "))
                .decode_utf8_lossy()
                .into_owned()
        }
    });
    let facts = match facts_text.as_deref().map(serde_json::from_str::<Value>) {
        Some(Ok(document)) => match document.get("values") {
            Some(Value::Object(values)) => values.clone(),
            _ => serde_json::Map::new(),
        },
        Some(Err(e)) => {
            return error(
                StatusCode::BAD_REQUEST,
                &format!("Could not read the facts of {name}: {e}"),
            );
        }
        None => serde_json::Map::new(),
    };
    if state.compiler.modulepath(&environment).is_none() {
        return error(
            StatusCode::NOT_FOUND,
            &format!("Could not find environment '{environment}'"),
        );
    }
    let compile = CompileRequest {
        node: name.to_string(),
        environment,
        facts,
        trusted: trusted(client),
        transaction_uuid: field("transaction_uuid").map(str::to_string),
    };
    let compiler = state.compiler.clone();
    let started = std::time::Instant::now();
    // Compiles use every core, one each; requests beyond wait their turn
    // (a queue, not a refusal: Puppet's agent gives up on a 503).
    let metrics = &state.metrics;
    let counted = |counter: &std::sync::atomic::AtomicI64, by: i64| {
        counter.fetch_add(by, std::sync::atomic::Ordering::Relaxed);
    };
    counted(&metrics.compiles_waiting, 1);
    let permit = state.compiles.acquire().await;
    counted(&metrics.compiles_waiting, -1);
    metrics.waited(started.elapsed());
    let Ok(_permit) = permit else {
        return error(StatusCode::SERVICE_UNAVAILABLE, "The server is stopping");
    };
    let environment = compile.environment.clone();
    // A static catalog, when the agent asks for one and the code has a
    // version.
    let statically = (field("static_catalog") == Some("true"))
        .then_some(state.config.versioned_code.code_id_command.clone())
        .flatten()
        .map(|command| {
            (
                command,
                field("checksum_type").unwrap_or("sha256").to_string(),
            )
        });
    counted(&metrics.compiles_running, 1);
    let checksums = state.clone();
    let compiled = tokio::task::spawn_blocking(move || {
        let catalog = compiler.compile(&compile)?;
        let (Some((command, agent_checksums)), Some(dir), Some(modulepath)) = (
            statically,
            compiler.static_catalog_dir(&compile.environment),
            compiler.modulepath(&compile.environment),
        ) else {
            return Ok(catalog);
        };
        let code_id = crate::static_catalog::code_id(&command, &compile.environment)?;
        crate::static_catalog::inline(
            &catalog,
            &code_id,
            &agent_checksums,
            &crate::static_catalog::Place {
                dir: &dir,
                modulepath: &modulepath,
                checksums: &checksums.checksums,
            },
        )
    })
    .await;
    counted(&metrics.compiles_running, -1);
    metrics.compile(
        &environment,
        matches!(compiled, Ok(Ok(_))),
        started.elapsed(),
    );
    match compiled {
        Ok(Ok(catalog)) => {
            state.log(&format!(
                "Compiled catalog for {name} in {:.2} seconds",
                started.elapsed().as_secs_f64()
            ));
            response(StatusCode::OK, "application/json", catalog)
        }
        Ok(Err(message)) => {
            state.log(&format!(
                "Could not compile a catalog for {name}: {message}"
            ));
            error(StatusCode::INTERNAL_SERVER_ERROR, &message)
        }
        Err(_) => error(
            StatusCode::INTERNAL_SERVER_ERROR,
            &format!("The compile of {name}'s catalog stopped unexpectedly"),
        ),
    }
}

/// `$trusted`, from the verified certificate.
fn trusted(client: &Client) -> Value {
    match &client.identity {
        Some(identity) => {
            let (host, domain) = identity
                .certname
                .split_once('.')
                .unwrap_or((identity.certname.as_str(), ""));
            json!({
                "authenticated": "remote",
                "certname": identity.certname,
                "extensions": identity.extensions,
                "hostname": host,
                "domain": domain,
                "external": {},
            })
        }
        None => json!({"authenticated": false, "certname": null, "extensions": {}}),
    }
}

/// Keeps what a node sent under the server's vardir, per node, named by
/// the time it came.
fn keep(state: &State, kind: &str, name: &str, body: &[u8]) -> std::io::Result<PathBuf> {
    let dir = state.config.vardir.join(kind).join(name);
    std::fs::create_dir_all(&dir)?;
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    let path = dir.join(format!("{stamp}.json"));
    let temporary = dir.join(format!(".{stamp}.json.tmp"));
    std::fs::write(&temporary, body)?;
    std::fs::rename(&temporary, &path)?;
    Ok(path)
}

fn report(state: &std::sync::Arc<State>, request: &Request, name: &str) -> Response<Body> {
    let Ok(report) = serde_json::from_slice::<Value>(&request.body) else {
        return error(
            StatusCode::BAD_REQUEST,
            &format!("The report of {name} is not JSON"),
        );
    };
    state
        .metrics
        .reports
        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let wants = |processor: &str| state.config.reports.iter().any(|r| r == processor);
    if let Some(store) = &state.config.storage
        && wants("puppetdb")
    {
        let payload = marionette_storage::commands::store_report(&report, &state.config.certname);
        let command = marionette_storage::commands::STORE_REPORT;
        if let Some(refused) = submit(state, store, name, "report", command, &payload) {
            return refused;
        }
    }
    // The caller's processors, apart from the request.
    let report = std::sync::Arc::new(report);
    for processor in &state.config.report_processors {
        if !wants(processor.name()) {
            continue;
        }
        let (processor, state, report, node) = (
            processor.clone(),
            state.clone(),
            report.clone(),
            name.to_string(),
        );
        tokio::task::spawn_blocking(move || {
            let log = |line: &str| state.log_line(line);
            if let Err(message) = processor.process(&node, &report, &log) {
                state.log_line(&format!(
                    "Error: Report processor {} failed on the report of {node}: {message}",
                    processor.name()
                ));
            }
        });
    }
    if !wants("store") {
        return json_response(&json!([]));
    }
    match keep(state, "reports", name, &request.body) {
        Ok(path) => {
            state.log(&format!(
                "Stored the report of {name} in {}",
                path.display()
            ));
            json_response(&json!([]))
        }
        Err(e) => error(
            StatusCode::INTERNAL_SERVER_ERROR,
            &format!("Could not store the report of {name}: {e}"),
        ),
    }
}

/// Stores a node's document in the storage; `Some` answer to give when
/// the storage refuses it (logged too).
fn submit(
    state: &State,
    store: &marionette_storage::Store,
    name: &str,
    what: &str,
    (command, version): (&str, u32),
    payload: &Value,
) -> Option<Response<Body>> {
    // Off the server's threads: a PostgreSQL store's client blocks on a
    // runtime of its own, which may not run inside the server's.
    let submitted = std::thread::scope(|scope| {
        scope
            .spawn(|| store.submit(command, version, name, payload))
            .join()
    });
    let e = match submitted {
        Ok(result) => result.err()?,
        Err(_) => {
            let message = format!("Storing the {what} of {name} stopped unexpectedly");
            state.log(&message);
            return Some(error(StatusCode::INTERNAL_SERVER_ERROR, &message));
        }
    };
    let message = format!("Could not store the {what} of {name}: {e}");
    state.log(&message);
    Some(error(StatusCode::INTERNAL_SERVER_ERROR, &message))
}

/// `PUT facts` (`puppet facts upload`): Puppet's facts document for the
/// node itself, kept as its one current set (`facts/NAME.json`, replaced
/// atomically; the storage keeps history when there is one).
fn facts(state: &State, client: &Client, request: &Request, name: &str) -> Response<Body> {
    let document = serde_json::from_slice::<Value>(&request.body).ok();
    let values = document
        .as_ref()
        .filter(|d| d.get("name").and_then(Value::as_str) == Some(name))
        .and_then(|d| d.get("values"))
        .and_then(Value::as_object);
    let Some(values) = values else {
        return error(
            StatusCode::BAD_REQUEST,
            &format!(
                "The facts of {name} are not a facts document (a JSON object with its 'name' and its 'values')"
            ),
        );
    };
    if let Some(store) = &state.config.storage {
        let payload = marionette_storage::commands::replace_facts(
            name,
            request.environment(),
            values,
            Some(&trusted(client)),
            &state.config.certname,
        );
        let command = marionette_storage::commands::REPLACE_FACTS;
        if let Some(refused) = submit(state, store, name, "facts", command, &payload) {
            return refused;
        }
    }
    let dir = state.config.vardir.join("facts");
    let written = std::fs::create_dir_all(&dir).and_then(|()| {
        let temporary = dir.join(format!(".{name}.json.tmp"));
        std::fs::write(&temporary, &request.body)?;
        std::fs::rename(&temporary, dir.join(format!("{name}.json")))
    });
    match written {
        Ok(()) => json_response(&json!(null)),
        Err(e) => error(
            StatusCode::INTERNAL_SERVER_ERROR,
            &format!("Could not store the facts of {name}: {e}"),
        ),
    }
}

/// The directories a mount path covers in the request's environment and
/// the path below them; the answer to give instead when the environment
/// is unknown or the path leaves its mount.
fn mount(
    state: &State,
    request: &Request,
    mount_and_path: &str,
) -> Result<(Vec<PathBuf>, PathBuf), Box<Response<Body>>> {
    let Some(modulepath) = state.compiler.modulepath(request.environment()) else {
        return Err(Box::new(error(
            StatusCode::NOT_FOUND,
            &format!("Could not find environment '{}'", request.environment()),
        )));
    };
    files::roots(&modulepath, mount_and_path).ok_or_else(|| Box::new(forbidden(request)))
}

fn metadata(state: &State, request: &Request, mount_and_path: &str, many: bool) -> Response<Body> {
    let (roots, relative) = match mount(state, request, mount_and_path) {
        Ok(found) => found,
        Err(refused) => return *refused,
    };
    let options = Options {
        recurse: many
            && request
                .param("recurse")
                .is_some_and(|r| r == "true" || r == "yes"),
        follow_links: request.param("links") != Some("manage"),
        checksum_type: request.param("checksum_type").unwrap_or("sha256"),
        ignore: request.params("ignore"),
    };
    match state.checksums.metadatas(&roots, &relative, &options) {
        Some(entries) if many => json_response(&Value::Array(entries)),
        Some(entries) => json_response(&entries[0]),
        None if many && relative == Path::new("") => {
            // A merged mount that no module fills: an empty directory.
            let empty = state.config.vardir.join("empty");
            let _ = std::fs::create_dir_all(&empty);
            match state.checksums.metadatas(&[empty], &relative, &options) {
                Some(entries) => json_response(&Value::Array(entries)),
                None => not_found(mount_and_path, many),
            }
        }
        None => not_found(mount_and_path, many),
    }
}

fn not_found(mount_and_path: &str, many: bool) -> Response<Body> {
    let what = if many {
        "file_metadatas"
    } else {
        "file_metadata"
    };
    error(
        StatusCode::NOT_FOUND,
        &format!("Could not find {what} {mount_and_path}"),
    )
}

fn content(state: &State, request: &Request, mount_and_path: &str) -> Response<Body> {
    let (roots, relative) = match mount(state, request, mount_and_path) {
        Ok(found) => found,
        Err(refused) => return *refused,
    };
    match files::find(&roots, &relative).map(std::fs::read) {
        Some(Ok(bytes)) => response(StatusCode::OK, "application/octet-stream", bytes),
        _ => error(
            StatusCode::NOT_FOUND,
            &format!("Could not find file_content {mount_and_path}"),
        ),
    }
}

/// A file of the environment's directory at the version a static
/// catalog names (`code_id`), as the code content command gives it.
fn static_content(state: &State, request: &Request, path: &str) -> Response<Body> {
    let Some(command) = &state.config.versioned_code.code_content_command else {
        return error(
            StatusCode::BAD_REQUEST,
            "Cannot serve static file content: no code content command is configured (--code-content-command)",
        );
    };
    let Some(code_id) = request.param("code_id").filter(|id| !id.is_empty()) else {
        return error(
            StatusCode::BAD_REQUEST,
            "A static file content request must name a code_id",
        );
    };
    let decoded = percent_encoding::percent_decode_str(path).decode_utf8_lossy();
    let plain = !decoded.is_empty()
        && Path::new(decoded.as_ref())
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_)));
    if !plain {
        return forbidden(request);
    }
    match crate::static_catalog::content(command, request.environment(), code_id, &decoded) {
        Ok(bytes) => response(StatusCode::OK, "application/octet-stream", bytes),
        Err(message) => error(StatusCode::INTERNAL_SERVER_ERROR, &message),
    }
}

/// The modules of one environment (`?environment=`), or of each, as
/// puppetserver lists them: each module of the module path once, by its
/// Forge name (`author/name`, from `metadata.json`, else its directory's)
/// and version (null without metadata).
fn environment_modules(state: &State, request: &Request) -> Response<Body> {
    let modules_of = |environment: &str| -> Option<Value> {
        let modulepath = state.compiler.modulepath(environment)?;
        let modules: Vec<Value> = files::modules(&modulepath)
            .into_iter()
            .map(|(directory, dir)| {
                let metadata: Value = std::fs::read(dir.join("metadata.json"))
                    .ok()
                    .and_then(|bytes| serde_json::from_slice(&bytes).ok())
                    .unwrap_or(Value::Null);
                let name = metadata
                    .get("name")
                    .and_then(Value::as_str)
                    .map_or_else(|| directory.to_string(), |name| name.replace('-', "/"));
                json!({"name": name, "version": metadata.get("version").cloned().unwrap_or(Value::Null)})
            })
            .collect();
        Some(json!({"modules": modules, "name": environment}))
    };
    match request.param("environment") {
        Some(environment) => {
            if let Some(refused) = invalid_environment(environment) {
                return refused;
            }
            match modules_of(environment) {
                Some(found) => json_response(&found),
                None => missing_environment(environment),
            }
        }
        None => json_response(&Value::Array(
            state
                .compiler
                .environments()
                .iter()
                .filter_map(|environment| modules_of(environment))
                .collect(),
        )),
    }
}

/// puppetserver's refusal of an environment name that is not a word
/// (`environment_classes`, `environment_modules`), in its plain text.
fn invalid_environment(environment: &str) -> Option<Response<Body>> {
    let word = !environment.is_empty()
        && environment
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_');
    (!word).then(|| {
        text(
            StatusCode::BAD_REQUEST,
            format!("The environment must be purely alphanumeric, not '{environment}'"),
        )
    })
}

/// puppetserver's answer for an environment it does not have, in plain
/// text (its `puppet/v3` lists are not Puppet's Ruby API, whose errors
/// are JSON).
fn missing_environment(environment: &str) -> Response<Body> {
    text(
        StatusCode::NOT_FOUND,
        format!("Could not find environment '{environment}'"),
    )
}

/// The classes of an environment's manifests (`?environment=` is
/// required), with an `ETag` of the answer: a request whose
/// `If-None-Match` names it is answered 304 without a body, as
/// puppetserver's (the answer is still made anew to tell).
fn environment_classes(state: &State, request: &Request) -> Response<Body> {
    let Some(environment) = request.param("environment") else {
        return text(
            StatusCode::BAD_REQUEST,
            "An environment parameter must be specified",
        );
    };
    if let Some(refused) = invalid_environment(environment) {
        return refused;
    }
    let Some(mut classes) = state.compiler.environment_classes(environment) else {
        return missing_environment(environment);
    };
    classes["name"] = Value::from(environment);
    let body = serde_json::to_vec(&classes).unwrap_or_default();
    let digest = ring::digest::digest(&ring::digest::SHA256, &body);
    let tag: String = digest.as_ref().iter().map(|b| format!("{b:02x}")).collect();
    // puppetserver compares the tag as it sent it, unquoted; a client
    // that quotes it, as HTTP's entity tags are written, is understood
    // too.
    let held = request
        .if_none_match
        .as_deref()
        .is_some_and(|given| given.split(',').any(|t| t.trim().trim_matches('"') == tag));
    let mut answer = if held {
        response(StatusCode::NOT_MODIFIED, "application/json", Vec::new())
    } else {
        response(StatusCode::OK, "application/json", body)
    };
    if let Ok(value) = hyper::header::HeaderValue::from_str(&tag) {
        answer.headers_mut().insert(hyper::header::ETAG, value);
    }
    answer
}

fn environments(state: &State) -> Response<Body> {
    let environments: serde_json::Map<String, Value> = state
        .compiler
        .environments()
        .into_iter()
        .map(|name| {
            let modulepath: Vec<String> = state
                .compiler
                .modulepath(&name)
                .unwrap_or_default()
                .iter()
                .map(|p| p.display().to_string())
                .collect();
            (
                name,
                json!({"settings": {
                    "modulepath": modulepath,
                    "manifest": "",
                    "environment_timeout": 0,
                    "config_version": "",
                }}),
            )
        })
        .collect();
    json_response(&json!({"search_paths": [], "environments": environments}))
}

/// Marionette's own endpoint: an environment's whole plugin set in one
/// answer, so `marionette agent` syncs in one request instead of one per
/// file. Each file is a line `MOUNT SIZE RELATIVE_PATH` and then its
/// bytes; the mounts are `plugins` and `pluginfacts`.
fn plugin_set(state: &State, request: &Request) -> Response<Body> {
    let Some(modulepath) = state.compiler.modulepath(request.environment()) else {
        return error(
            StatusCode::NOT_FOUND,
            &format!("Could not find environment '{}'", request.environment()),
        );
    };
    let mut body: Vec<u8> = Vec::new();
    for mount in ["plugins", "pluginfacts"] {
        let Some((roots, _)) = files::roots(&modulepath, mount) else {
            continue;
        };
        for (relative, path) in files::tree(&roots) {
            let Ok(bytes) = std::fs::read(&path) else {
                continue;
            };
            let name = relative.display().to_string();
            if name.contains('\n') {
                continue;
            }
            body.extend_from_slice(format!("{mount} {} {name}\n", bytes.len()).as_bytes());
            body.extend_from_slice(&bytes);
        }
    }
    response(StatusCode::OK, "application/octet-stream", body)
}
