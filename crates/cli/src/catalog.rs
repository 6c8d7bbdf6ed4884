//! `marionette catalog compile`: the catalog for a node, as
//! `puppet catalog compile --render-as json` prints it.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use clap::Args;
use marionette_diagnostics::SourceFile;
use marionette_eval::{CompileOptions, Stream};

use crate::storage::Storeconfigs;

#[derive(Args)]
pub(crate) struct CompileArgs {
    /// The main manifest: a file, or a directory whose `.pp` files are read
    /// in alphabetical order.
    #[arg(value_name = "FILE", conflicts_with = "manifest")]
    file: Option<PathBuf>,
    /// The main manifest (as `--manifest` of Puppet).
    #[arg(long)]
    manifest: Option<PathBuf>,
    /// The node to compile for (defaults to this machine's host name).
    #[arg(long)]
    certname: Option<String>,
    /// Facts of the node, in JSON or YAML (`facter --json`, Puppet's
    /// `{"name": ..., "values": {...}}` or its YAML cache), instead of
    /// this machine's.
    #[arg(long)]
    facts: Option<PathBuf>,
    /// Write the catalog here instead of to standard output.
    #[arg(long, short = 'o')]
    output: Option<PathBuf>,
    /// Fail on unknown variables instead of warning.
    #[arg(long)]
    strict_variables: bool,
    /// Keep deferred calls in the rich-data form an agent gets from its
    /// server, so that `catalog apply` makes them. Without it they are
    /// written as text, with a warning each, as `puppet catalog compile`
    /// writes them.
    #[arg(long)]
    rich_data: bool,
    #[command(flatten)]
    storeconfigs: crate::storage::StoreconfigsArgs,
}

pub(crate) fn compile(args: CompileArgs, env: &crate::environment::EnvArgs) -> Result<ExitCode> {
    let node_name = args.certname.clone().unwrap_or_else(crate::host_name);
    let environment = crate::environment::current();
    let manifest = match args.manifest.or(args.file) {
        Some(path) => path,
        None => match env.directory() {
            Some(dir) => dir.join("manifests"),
            None => bail!("No manifest given: name a file, --manifest, or --environment"),
        },
    };
    let mut lazy_facts = None;
    let facts = match &args.facts {
        Some(path) => read_facts(path)?,
        None => {
            let mut facts = local_facts();
            lazy_facts = crate::custom_facts::on_demand(&mut facts);
            // This machine's facts as Puppet gives them to a compile: with
            // its own certificate name, which the trusted data then name
            // too, whatever node the catalog is for.
            facts
                .entry("clientcert")
                .or_insert_with(|| serde_json::Value::String(crate::host_name()));
            facts
        }
    };
    let storage = args.storeconfigs.open(env, &node_name)?;
    let options = CompileOptions {
        manifests: read_manifests(&manifest)?,
        modulepath: environment.modulepath.clone(),
        node_name,
        environment: environment.name.clone(),
        facts,
        lazy_facts: lazy_facts.map(|f| f as _),
        strict_variables: args.strict_variables,
        server_name: crate::host_name(),
        local: false,
        agent_types: agent_types(),
        external_functions: Some(external_functions()),
        declared: None,
        hiera: Some(crate::environment::hiera()),
        ruby: Some(crate::environment::ruby()),
        trusted: None,
        classification: None,
        excerpts: false,
        exported: None,
    };
    let output = args.output.as_deref();
    compile_and_write(options, storage.as_ref(), output, args.rich_data)
}

/// Compiles for `marionette apply --catalog-only`: this machine's facts.
pub(crate) fn compile_local(
    manifests: Vec<SourceFile>,
    node_name: String,
    strict_variables: bool,
    storage: Option<&Arc<Storeconfigs>>,
) -> Result<ExitCode> {
    let (options, _) = local_options(manifests, node_name, strict_variables);
    compile_and_write(options, storage, None, true)
}

/// Compiles for `marionette apply`: prints what the code logged and
/// Puppet's "Compiled catalog" notice; returns the catalog with the facts
/// it was compiled with and the seconds it took, or `None` after errors.
pub(crate) fn compile_for_apply(
    manifests: Vec<SourceFile>,
    node_name: String,
    strict_variables: bool,
    storage: Option<&Arc<Storeconfigs>>,
    log: &crate::logdest::Destinations,
) -> Option<(
    marionette_catalog::Catalog,
    serde_json::Map<String, serde_json::Value>,
    f64,
)> {
    let started = std::time::Instant::now();
    let (mut options, custom) = local_options(manifests, node_name, strict_variables);
    options.declared = Some(look_at_files_ahead());
    // A person at a terminal sees where a syntax error is; logs and pipes
    // get Puppet's one line.
    options.excerpts = log.console_only() && std::io::IsTerminal::is_terminal(&std::io::stderr());
    let (compiled, options) = match compile_with(options, storage) {
        Ok(done) => done,
        Err(error) => {
            log.emit(marionette_ral::Level::Err, "", &error);
            return None;
        }
    };
    for (stream, line) in &compiled.lines {
        log.compiler_line(*stream, line);
    }
    let catalog = compiled.catalog?;
    let seconds = started.elapsed().as_secs_f64();
    let mut facts = options.facts;
    if let Some(custom) = custom {
        custom.for_applying(&catalog, &mut facts);
    }
    log.emit(
        marionette_ral::Level::Notice,
        "",
        &format!(
            "Compiled catalog for {} in environment {} in {seconds:.2} seconds",
            catalog.name, catalog.environment
        ),
    );
    Some((catalog, facts, seconds))
}

/// Looks at each file the manifest declares, on a thread of its own, as
/// the compiler comes to it: the run then takes those looks instead of
/// making them (`marionette_types::types::file::prestat`). Compiling keeps
/// one core busy; on a machine with more, the looks cost the run nothing.
/// The thread ends when the compiler is done with the returned hook.
fn look_at_files_ahead() -> marionette_eval::Declared {
    let (paths, received) = std::sync::mpsc::channel::<String>();
    // With one core, looking would only take turns with compiling.
    let started = marionette_values::parallel::cores() > 1
        && std::thread::Builder::new()
            .name("look-ahead".into())
            .spawn(move || {
                for path in received {
                    marionette_types::types::file::prestat(path.into());
                }
            })
            .is_ok();
    std::sync::Arc::new(move |type_name: &str, title: &str| {
        if started && type_name == "file" && title.starts_with('/') {
            let _ = paths.send(title.to_string());
        }
    })
}

/// What to compile for this machine, and the custom facts it may read,
/// resolved on demand.
fn local_options(
    manifests: Vec<SourceFile>,
    node_name: String,
    strict_variables: bool,
) -> (
    CompileOptions,
    Option<std::sync::Arc<crate::custom_facts::OnDemand>>,
) {
    let environment = crate::environment::current();
    let mut facts = local_facts();
    let custom = crate::custom_facts::on_demand(&mut facts);
    let options = CompileOptions {
        manifests,
        modulepath: environment.modulepath.clone(),
        facts,
        lazy_facts: custom.clone().map(|f| f as _),
        node_name,
        environment: environment.name.clone(),
        strict_variables,
        server_name: crate::host_name(),
        local: true,
        agent_types: agent_types(),
        external_functions: Some(external_functions()),
        declared: None,
        hiera: Some(crate::environment::hiera()),
        ruby: Some(crate::environment::ruby()),
        trusted: None,
        classification: None,
        excerpts: false,
        exported: None,
    };
    (options, custom)
}

/// The functions the environment's modules ship as executables, their log
/// messages on the console.
pub(crate) fn external_functions() -> std::sync::Arc<dyn marionette_eval::ExternalFunctions> {
    crate::environment::plugins().functions(crate::resource::stderr_logger(false))
}

/// The resource types this agent manages that Puppet 7's compiler does
/// not know (it moved them to modules), so manifests may declare them.
/// The module types applied natively are left to the compiler, which
/// reads them from the module's own file as Puppet does.
fn agent_types() -> Vec<marionette_eval::AgentType> {
    agent_types_of(
        &crate::environment::registry(),
        crate::environment::plugins(),
    )
}

/// The agent types of a registry: see [`agent_types`]. A module's Ruby
/// type with title patterns of its own is left to the compiler too, which
/// runs them (their procs are Ruby) to give the catalog the attributes a
/// title holds, as Puppet's does.
pub(crate) fn agent_types_of(
    registry: &marionette_ral::Registry,
    plugins: &marionette_plugin::Plugins,
) -> Vec<marionette_eval::AgentType> {
    registry
        .types()
        .into_iter()
        .filter(|t| marionette_eval::core_type_attributes(&t.name).is_none())
        .filter(|t| !marionette_types::is_module_type(&t.name))
        .filter(|t| !plugins.is_titled_ruby_type(&t.name))
        .map(|t| {
            let mut attributes: Vec<String> = t.attributes.iter().map(|a| a.name.clone()).collect();
            if registry.has_providers(&t.name) {
                attributes.push("provider".into());
            }
            marionette_eval::AgentType {
                name: t.name.clone(),
                // A type identified by several attributes keeps its title
                // as the catalog's name, as a module's Ruby type does: no
                // one of them may stand for the resource (two keys of one
                // file are not the same thing).
                namevar: match t.key_attributes().as_slice() {
                    [one] => one.name.clone(),
                    _ => "name".into(),
                },
                composite: t.key_attributes().len() > 1,
                attributes,
            }
        })
        .collect()
}

/// Compiles, with storeconfigs when a storage is given (see
/// `Storeconfigs::compile`); a failure to keep the facts or the catalog
/// fails the compile, as Puppet's storeconfigs terminus does.
fn compile_with(
    options: CompileOptions,
    storage: Option<&Arc<Storeconfigs>>,
) -> Result<(marionette_eval::Compiled, CompileOptions), String> {
    match storage {
        Some(storage) => storage.compile(options),
        None => Ok((marionette_eval::compile(&options), options)),
    }
}

/// Compiles, prints what the code logged, and writes the catalog.
fn compile_and_write(
    options: CompileOptions,
    storage: Option<&Arc<Storeconfigs>>,
    output: Option<&Path>,
    rich_data: bool,
) -> Result<ExitCode> {
    let (compiled, _) = compile_with(options, storage).map_err(anyhow::Error::msg)?;
    for (stream, line) in &compiled.lines {
        match stream {
            Stream::Stdout => errln!("{line}"),
            Stream::Stderr => errln!("{line}"),
        }
    }
    let Some(mut catalog) = compiled.catalog else {
        return Ok(ExitCode::FAILURE);
    };
    if !rich_data {
        for warning in marionette_catalog::stringify_deferred(&mut catalog) {
            errln!("Warning: {warning}");
        }
    }
    // Streamed, so that a large catalog is not held twice.
    let written = match output {
        Some(path) => std::fs::File::create(path)
            .map_err(anyhow::Error::from)
            .and_then(|file| write_catalog(&catalog, std::io::BufWriter::new(file))),
        None => write_catalog(&catalog, std::io::BufWriter::new(std::io::stdout().lock())),
    };
    written.with_context(|| match output {
        Some(path) => format!("Could not write {}", path.display()),
        None => "Could not write the catalog".to_string(),
    })?;
    Ok(ExitCode::SUCCESS)
}

/// `.pp` files below a directory, in the order of their paths.
fn manifest_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    for entry in
        std::fs::read_dir(dir).with_context(|| format!("Could not read {}", dir.display()))?
    {
        let entry = entry?.path();
        if entry.is_dir() {
            manifest_files(&entry, out)?;
        } else if entry.extension().is_some_and(|e| e == "pp") {
            out.push(entry);
        }
    }
    Ok(())
}

fn write_catalog(
    catalog: &marionette_catalog::Catalog,
    mut out: impl std::io::Write,
) -> Result<()> {
    catalog.write_json_pretty(&mut out)?;
    writeln!(out)?;
    out.flush()?;
    Ok(())
}

/// A manifest file, or every `.pp` file below a directory in path order.
pub(crate) fn read_manifests(path: &Path) -> Result<Vec<SourceFile>> {
    let mut paths = Vec::new();
    if path.is_dir() {
        manifest_files(path, &mut paths)?;
        paths.sort();
    } else {
        paths.push(path.to_path_buf());
    }
    paths.iter().map(|path| crate::read_source(path)).collect()
}

/// Facts from a JSON or YAML file (`facter --json`, Puppet's wrapped form
/// or its YAML cache).
fn read_facts(path: &Path) -> Result<serde_json::Map<String, serde_json::Value>> {
    marionette_facts::load_facts_file(path).map_err(|error| anyhow::anyhow!("{error}"))
}

/// This machine's facts collected natively, legacy names included; the
/// modules' custom facts are not among them (see `custom_facts`).
/// Problems with external facts are reported and the other facts still
/// used.
pub(crate) fn local_facts() -> serde_json::Map<String, serde_json::Value> {
    let collection = marionette_facts::collect(&fact_options());
    for error in &collection.errors {
        errln!("Error: {error}");
    }
    let facts = collection.with_legacy();
    // Modules' Ruby may read them before any run does (a type's file as
    // it loads, while the providers' confine facts are gathered).
    marionette_plugin::Plugins::set_node_facts(std::sync::Arc::new(facts.clone()));
    facts
}

/// This machine's facts with every custom fact of the modules resolved,
/// as an agent sends them to its server.
pub(crate) fn all_local_facts() -> serde_json::Map<String, serde_json::Value> {
    let mut facts = local_facts();
    crate::custom_facts::resolve_all(&mut facts);
    facts
}

/// How this machine's facts are collected: the default sources, and the
/// external facts of the environment's modules (`MODULE/facts.d`) before
/// the machine's own directories, so that a machine's file wins.
pub(crate) fn fact_options() -> marionette_facts::Options {
    let mut options = marionette_facts::Options::default();
    let mut dirs = crate::environment::plugins().fact_dirs();
    dirs.append(&mut options.external_dirs);
    options.external_dirs = dirs;
    options
}
