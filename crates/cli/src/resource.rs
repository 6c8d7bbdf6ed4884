//! `marionette resource`: list, show and change resources on this machine
//! through their providers, as `puppet resource` does.

use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Result, bail};
use clap::Args;
use marionette_ral::{
    EventStatus, Level, Logger, Origin, PropertyHash, Registry, Resource, Session,
    provider::hash_name, render,
};
use marionette_values::Value;

#[derive(Args)]
pub(crate) struct ResourceArgs {
    /// The resource type (`user`, `group`, ...).
    #[arg(value_name = "TYPE")]
    type_name: String,
    /// The resource to show or change; all of them when left out.
    title: Option<String>,
    /// Attributes to change, as `attr=value`.
    #[arg(value_name = "ATTR=VALUE")]
    changes: Vec<String>,
    /// Print JSON instead of manifest syntax.
    #[arg(long = "to-json", alias = "to_json")]
    to_json: bool,
    /// Only report what would change.
    #[arg(long)]
    noop: bool,
    /// Also show debug messages (commands run, providers rejected).
    #[arg(long, short = 'd')]
    debug: bool,
}

/// The logger of interactive commands: Puppet's `Level: message` lines on
/// stderr, debug only when asked for.
pub(crate) fn stderr_logger(debug: bool) -> Logger {
    Logger::with_sink(move |entry| {
        if entry.level == Level::Debug && !debug {
            return;
        }
        if entry.source.is_empty() {
            errln!("{}: {}", entry.level, entry.message);
        } else {
            errln!("{}: {}: {}", entry.level, entry.source, entry.message);
        }
    })
}

pub(crate) fn run(args: ResourceArgs) -> Result<ExitCode> {
    let registry = crate::environment::registry();
    let Some(type_def) = registry.type_def(&args.type_name).cloned() else {
        // The nearest names, as the compiler suggests them.
        let known = registry.names().into_iter().map(str::to_string);
        bail!(
            "Could not run: Unknown resource type {}{}",
            args.type_name,
            marionette_eval::did_you_mean(&args.type_name, known)
        );
    };
    let facts = Arc::new(crate::custom_facts::for_types(
        std::iter::once(type_def.name.clone()).collect(),
    ));
    marionette_plugin::Plugins::set_node_facts(facts.clone());
    let mut session = Session::new(registry.clone(), facts, stderr_logger(args.debug));
    // `marionette resource TYPE param=value…` lists instances scoped by
    // parameters (which zone, which server): the first positional then is
    // a setting, not a title.
    let is_parameter_setting = |text: &str| {
        text.split_once('=').is_some_and(|(attr, _)| {
            type_def
                .attribute(attr)
                .is_some_and(|a| !a.kind.is_property())
        })
    };
    let (title, changes) = match args.title {
        Some(title) if is_parameter_setting(&title) => {
            (None, std::iter::once(title).chain(args.changes).collect())
        }
        title => (title, args.changes),
    };
    let Some(title) = title else {
        let mut listing = PropertyHash::new();
        for setting in &changes {
            match setting.split_once('=') {
                Some((attr, value)) if is_parameter_setting(setting) => {
                    listing.insert(attr.to_string(), Value::String(value.into()));
                }
                _ => bail!(
                    "Changing attributes needs a resource title; without one, only parameters that scope the listing may be given, not '{setting}'"
                ),
            }
        }
        session.set_listing(listing);
        return list(&session, &registry, &type_def.name, args.to_json);
    };
    let args = ResourceArgs {
        title: None,
        changes,
        ..args
    };
    let mut params = Vec::new();
    for change in &args.changes {
        let Some((attr, value)) = change.split_once('=') else {
            bail!("Invalid attribute setting '{change}': expected ATTR=VALUE");
        };
        params.push((attr.to_string(), Value::String(value.into())));
    }
    // Parameters alone (which server to ask) change nothing: the resource
    // is only shown, in full.
    let changes_properties = params.iter().any(|(attr, _)| {
        type_def
            .attribute(attr)
            .is_none_or(|a| a.kind.is_property())
    });
    let resource = Resource::new(type_def.clone(), &title, params, Origin::default())?;
    // A provider that cannot serve the resource is an error before anything
    // is tried.
    session.selector().select(&resource)?;
    let mut failed = false;
    if changes_properties {
        let outcome = session.evaluate(&resource, args.noop);
        for event in &outcome.events {
            let level = match event.status {
                EventStatus::Failure => "Error",
                _ => "Notice",
            };
            errln!(
                "{level}: /{}/{}: {}",
                outcome.resource,
                event.property,
                event.message
            );
        }
        for entry in &outcome.flush_logs {
            session
                .context()
                .logger
                .log(entry.level, &entry.source, &entry.message);
        }
        if let Some(reason) = &outcome.failed {
            if outcome
                .events
                .iter()
                .all(|e| e.status != EventStatus::Failure)
            {
                errln!("Error: /{}: {reason}", outcome.resource);
            }
            failed = true;
        }
        // Providers that batch apply the change only now; the state shown
        // below must be read after it.
        for (_, failure) in session.finish() {
            errln!(
                "Error: /{}: Could not apply the deferred change: {}",
                outcome.resource,
                failure.message
            );
            failed = true;
        }
    }
    let (provider, mut state) = session.retrieve(&resource)?;
    if changes_properties {
        // Like Puppet, show what was asked for (and ensure), not everything.
        state.retain(|name, _| name == "ensure" || resource.is_given(name));
    }
    let provider_name = (!provider.implicit).then_some(provider.name.as_str());
    // What the machine holds is printed whole, a user's password hash
    // included, as Puppet prints it: the output is a manifest, and a
    // `[redacted]` in it would become the hash when applied. Only values
    // the command line gave as sensitive stay hidden.
    let sensitive = |attr: &str| resource.is_sensitive(attr);
    if args.to_json {
        let json = render::json(&type_def.name, &title, &state, provider_name, &sensitive);
        outln!(
            "{}",
            serde_json::to_string_pretty(&serde_json::Value::Array(vec![json]))?
        );
    } else {
        out!(
            "{}",
            manifest(&type_def, &title, &state, provider_name, &sensitive)
        );
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

fn list(
    session: &Session,
    registry: &Registry,
    type_name: &str,
    to_json: bool,
) -> Result<ExitCode> {
    let type_def = registry.require_type(type_name)?;
    let found = session.instances(type_name)?;
    // Printed whole, as for one resource (see `show`).
    let sensitive = |_: &str| false;
    // A composite identity (`www.example.com/A`) gives its title apart.
    let title_of = |hash: &PropertyHash| {
        hash.get("title")
            .map(marionette_ral::attribute::value_text)
            .or_else(|| hash_name(hash))
            .unwrap_or_default()
    };
    if to_json {
        let all: Vec<serde_json::Value> = found
            .iter()
            .map(|(provider, hash)| {
                let provider_name = (!provider.implicit).then_some(provider.name.as_str());
                render::json(type_name, &title_of(hash), hash, provider_name, &sensitive)
            })
            .collect();
        outln!(
            "{}",
            serde_json::to_string_pretty(&serde_json::Value::Array(all))?
        );
        return Ok(ExitCode::SUCCESS);
    }
    // Puppet prints an empty line when there is nothing to list.
    let mut out = if found.is_empty() {
        String::from("\n")
    } else {
        String::new()
    };
    for (provider, hash) in &found {
        let provider_name = (!provider.implicit).then_some(provider.name.as_str());
        out.push_str(&manifest(
            type_def,
            &title_of(hash),
            hash,
            provider_name,
            &sensitive,
        ));
    }
    out!("{out}");
    Ok(ExitCode::SUCCESS)
}

/// A resource in manifest syntax, as its type is listed.
fn manifest(
    type_def: &marionette_ral::TypeDef,
    title: &str,
    state: &PropertyHash,
    provider: Option<&str>,
    sensitive: &dyn Fn(&str) -> bool,
) -> String {
    match &type_def.listing {
        marionette_ral::Listing::Declared { read_only } => {
            render::declared_manifest(type_def, title, state, read_only, sensitive)
        }
        marionette_ral::Listing::Aligned => {
            render::manifest(&type_def.name, title, state, provider, sensitive)
        }
    }
}
