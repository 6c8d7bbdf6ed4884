//! A core type's native provider driven by a module's Ruby: code that
//! makes a resource of `service` itself and calls its provider
//! (rabbitmq's erlang cookie stops the service before it wipes the
//! database, `Puppet::Type.type(:service).new(name: ...).provider.stop`)
//! reaches the provider the engine would give such a resource, through the
//! host's proxy provider (`host/core.rb`). Each call is a resource with one
//! property wanted, evaluated by a session of its own; what it changes
//! counts as a change of the run.

use marionette_ral::{Context, Origin, Resource, Session};
use marionette_values::{PHash, Value};

/// The name of the provider the engine gives `type_name`'s resources that
/// name none.
pub(crate) fn default_provider(cx: &Context, type_name: &str) -> Result<String, String> {
    let session = session(cx)?;
    session
        .selector()
        .default_provider(type_name)
        .map(|provider| provider.name.clone())
        .map_err(|e| e.to_string())
}

/// Does `call` for the resource `title` of `type_name` with `values` (its
/// parameters; the properties it was made with are left out, as a
/// provider's method changes only what it is about): `status` and
/// `enabled?` read the system, the others change it. A failure is the
/// provider's message, which the host raises as Puppet's provider would.
pub(crate) fn call(
    cx: &Context,
    (type_name, title): (&str, &str),
    values: &PHash,
    call: &str,
) -> Result<Value, String> {
    let mut session = session(cx)?;
    let registry = session.selector().registry().clone();
    let type_def = registry
        .type_def(type_name)
        .cloned()
        .ok_or_else(|| format!("Marionette has no core type {type_name}"))?;
    let wanted = match call {
        "start" => Some(("ensure", "running")),
        "stop" => Some(("ensure", "stopped")),
        "enable" => Some(("enable", "true")),
        "disable" => Some(("enable", "false")),
        "status" | "enabled?" | "restart" => None,
        other => {
            return Err(format!(
                "the engine's {type_name} provider has no method {other}"
            ));
        }
    };
    let mut params: Vec<(String, Value)> = values
        .iter()
        .map(|(name, value)| (marionette_values::format::to_s(name), value.clone()))
        .filter(|(name, value)| {
            *value != Value::Undef
                && type_def
                    .attribute(name)
                    .is_some_and(|attr| !attr.kind.is_property())
        })
        .collect();
    if let Some((name, value)) = wanted {
        params.push((name.to_string(), Value::string(value)));
    }
    let resource =
        Resource::new(type_def, title, params, Origin::default()).map_err(|e| e.to_string())?;
    match call {
        "status" | "enabled?" => {
            let (_, state) = session.retrieve(&resource).map_err(|e| e.to_string())?;
            let property = if call == "status" { "ensure" } else { "enable" };
            Ok(state.get(property).cloned().unwrap_or(Value::Undef))
        }
        "restart" => {
            cx.generation.advance();
            session.refresh(&resource).map_err(|e| e.to_string())?;
            Ok(Value::Undef)
        }
        _ => {
            let outcome = session.evaluate(&resource, false);
            for entry in &outcome.flush_logs {
                cx.logger.log(entry.level, &entry.source, &entry.message);
            }
            if !outcome.events.is_empty() {
                cx.generation.advance();
            }
            match outcome.failed {
                Some(message) => Err(message),
                None => Ok(Value::Undef),
            }
        }
    }
}

/// A session of the run's types and providers, logging to the run.
fn session(cx: &Context) -> Result<Session, String> {
    let registry = cx
        .registry
        .clone()
        .ok_or("no run's providers are at hand")?;
    Ok(Session::new(registry, cx.facts.clone(), cx.logger.clone()))
}
