//! `marionette catalog diff`: what a code change does to every node's
//! catalog. Each side (old code, new code) is a directory laid out as an
//! environment, or a git ref of a control repository extracted into a
//! temporary directory; each node is compiled with both, on all cores,
//! and the catalogs compared by `marionette_catalog_diff`.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use marionette_catalog::Catalog;
use marionette_catalog_diff::{Failure, Ignore, NodeOutcome, Options, Report, Side};
use marionette_diagnostics::SourceFile;
use serde_json::{Map, Value};

use crate::environment::{EnvArgs, Shared};

#[derive(Args)]
pub(crate) struct DiffArgs {
    /// The old code: a directory laid out as an environment
    /// (`manifests/`, `hiera.yaml`, `data/`, its modules), or a git ref of
    /// the control repository (--repo).
    #[arg(long, value_name = "REF_OR_DIR")]
    from: String,
    /// The new code, as --from.
    #[arg(long, value_name = "REF_OR_DIR")]
    to: String,
    /// The git repository --from and --to name refs of (default: the
    /// current directory).
    #[arg(long, value_name = "DIR")]
    repo: Option<PathBuf>,
    /// The nodes' facts: a directory of `NAME.yaml` files as
    /// puppetserver's facts cache keeps them (or `NAME.json`), or with
    /// --node one node's file.
    #[arg(
        long,
        value_name = "DIR_OR_FILE",
        required_unless_present = "storage",
        conflicts_with = "storage"
    )]
    facts: Option<PathBuf>,
    /// The nodes and their facts from `marionette server`'s storage (under
    /// its vardir, or the PostgreSQL database of --storage-url): every
    /// active node, or those --query finds.
    #[arg(long)]
    storage: bool,
    /// With --storage: the server's PostgreSQL database
    /// (`postgresql://USER:PASSWORD@HOST:PORT/DATABASE`, as its
    /// `storage_url`), instead of the SQLite file under the vardir.
    #[arg(long, value_name = "URL", requires = "storage")]
    storage_url: Option<String>,
    /// Module directories of the old code, separated by `:`, searched
    /// after its own (modules a Puppetfile deployed for it); instead of
    /// --modulepath for that side.
    #[arg(long, value_name = "DIRS")]
    from_modulepath: Option<String>,
    /// Module directories of the new code, as --from-modulepath.
    #[arg(long, value_name = "DIRS")]
    to_modulepath: Option<String>,
    /// Signed certificates, `NAME.pem` (as the CA keeps them in its
    /// `signed` directory): a node's Puppet extensions (`pp_role`, ...)
    /// become its `$trusted['extensions']`.
    #[arg(long, value_name = "DIR")]
    certs: Option<PathBuf>,
    /// With --storage: the nodes to compare, as a PuppetDB v4 query of
    /// `nodes` in JSON (`["=", "certname", "web1.example.com"]`).
    #[arg(long, value_name = "AST", requires = "storage")]
    query: Option<String>,
    /// The node whose facts --facts is (default: the file's name without
    /// its extension).
    #[arg(long, value_name = "NAME")]
    node: Option<String>,
    /// Only these nodes: names or patterns with `*`, separated by commas.
    #[arg(
        long = "nodes",
        short = 'n',
        value_delimiter = ',',
        value_name = "NAME[,NAME]"
    )]
    nodes: Vec<String>,
    /// How to print the differences: `text` (coloured on a terminal),
    /// `json` (octocatalog-diff's entries, grouped), or `html` (one page).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Colour text output: `auto` (on a terminal), `true` or `false`.
    #[arg(long, value_enum, default_value = "auto", value_name = "WHEN")]
    color: When,
    /// Write the report here instead of to standard output.
    #[arg(long, short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,
    /// Leave out changes matching these, in octocatalog-diff's form:
    /// `Type[Title]` or `Type[Title]attribute`, `*` in the title,
    /// `::` between an attribute's levels.
    #[arg(long, value_delimiter = ',', value_name = "RULE[,RULE]")]
    ignore: Vec<String>,
    /// Leave out changes of these attributes of any resource, as
    /// `*[*]ATTRIBUTE` rules of --ignore (`::` between levels).
    #[arg(long, value_delimiter = ',', value_name = "ATTRIBUTE[,ATTRIBUTE]")]
    ignore_attr: Vec<String>,
    /// Leave out resources with these tags (default:
    /// `ignored_octocatalog_diff`).
    #[arg(long, value_delimiter = ',', value_name = "TAG[,TAG]")]
    ignore_tags: Vec<String>,
    /// Leave out changes of text that differ only in whitespace.
    #[arg(long)]
    ignore_whitespace: bool,
    /// Compare resources' tags too.
    #[arg(long)]
    include_tags: bool,
    /// Compare `Class` resources too.
    #[arg(long)]
    include_classes: bool,
    /// Compare files' `puppet:///modules/...` sources as their URLs,
    /// instead of as the text of the module files they name (as
    /// octocatalog-diff's --no-compare-file-text).
    #[arg(long)]
    no_compare_file_text: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Json,
    Html,
}

#[derive(Clone, Copy, ValueEnum)]
enum When {
    Auto,
    True,
    False,
}

/// One side's code, ready to compile.
struct CodeSide {
    /// The environment's directory: catalogs' file names are made
    /// relative to it.
    dir: PathBuf,
    shared: Shared,
    /// The main manifests' names and texts, read once: each compile is
    /// given its own copy.
    manifests: Vec<(String, String)>,
    /// Where nodes' certificates are (--certs).
    certs: Option<PathBuf>,
    /// A git ref's files, removed when the diff is done.
    _extracted: Option<TempDir>,
}

/// A directory removed with everything in it when dropped.
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The environment every node is compiled in, on both sides, so that its
/// name never shows as a difference.
const ENVIRONMENT: &str = "production";

pub(crate) fn diff(args: DiffArgs, env: &EnvArgs) -> Result<ExitCode> {
    let file_text = !args.no_compare_file_text;
    let options = Options {
        ignores: args
            .ignore
            .iter()
            .cloned()
            .chain(args.ignore_attr.iter().map(|name| format!("*[*]{name}")))
            .map(|rule| Ignore::parse(&rule))
            .collect::<Result<_, _>>()?,
        ignore_tags: if args.ignore_tags.is_empty() {
            Options::default().ignore_tags
        } else {
            args.ignore_tags.clone()
        },
        ignore_whitespace: args.ignore_whitespace,
        include_tags: args.include_tags,
        include_classes: args.include_classes,
    };
    let nodes = match &args.facts {
        Some(facts) => read_nodes(facts, &args)?,
        None => stored_nodes(&args, env)?,
    };
    if nodes.is_empty() {
        match &args.facts {
            Some(facts) => bail!("No node to compare: no facts in {} match", facts.display()),
            None => bail!("No node to compare: the storage has no active node that matches"),
        }
    }
    let repo = args.repo.clone().unwrap_or_else(|| PathBuf::from("."));
    let mut from = code_side(
        &args.from,
        "from",
        &repo,
        args.from_modulepath.as_ref(),
        env,
    )
    .context("--from")?;
    let mut to =
        code_side(&args.to, "to", &repo, args.to_modulepath.as_ref(), env).context("--to")?;
    from.certs.clone_from(&args.certs);
    to.certs.clone_from(&args.certs);
    let outcomes = compare_all(&nodes, &from, &to, &options, file_text);
    let report = Report::new(outcomes);
    let text = match args.format {
        Format::Json => {
            let mut text = serde_json::to_string_pretty(&report.to_json())?;
            text.push('\n');
            text
        }
        Format::Html => report.to_html(),
        Format::Text => {
            let color = match args.color {
                When::True => true,
                When::False => false,
                When::Auto => args.output.is_none() && std::io::stdout().is_terminal(),
            };
            report.to_text(color)
        }
    };
    match &args.output {
        Some(path) => std::fs::write(path, text)
            .with_context(|| format!("Could not write {}", path.display()))?,
        None => {
            let mut out = std::io::stdout().lock();
            // A reader that went away takes nothing more.
            let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
        }
    }
    Ok(ExitCode::from(report.exit_code()))
}

/// The nodes the server's storage knows as active (those its query
/// finds), each with the facts it last sent, trusted data among them, in
/// name order.
fn stored_nodes(args: &DiffArgs, env: &EnvArgs) -> Result<Vec<(String, Map<String, Value>)>> {
    let store = crate::storage::existing_store(
        &crate::server::vardir(env),
        args.storage_url.clone(),
        "--storage",
    )?;
    let query = match &args.query {
        Some(text) => {
            Some(serde_json::from_str::<Value>(text).context("--query is not a JSON query")?)
        }
        None => None,
    };
    let paging = marionette_storage::Paging::default();
    let found = store
        .query("nodes", query.as_ref(), &paging)
        .context("--query")?;
    let mut names: Vec<String> = found
        .iter()
        .filter_map(|node| node["certname"].as_str().map(str::to_string))
        .filter(|name| args.nodes.is_empty() || args.nodes.iter().any(|p| glob(p, name)))
        .collect();
    names.sort();
    names.dedup();
    let mut nodes = Vec::new();
    for name in names {
        let rows = store
            .query(
                "facts",
                Some(&serde_json::json!(["=", "certname", name])),
                &paging,
            )
            .with_context(|| format!("Could not read the facts of {name}"))?;
        let mut facts = Map::new();
        for row in rows {
            if let (Some(fact), Some(value)) = (row["name"].as_str(), row.get("value")) {
                facts.insert(fact.to_string(), value.clone());
            }
        }
        nodes.push((name, facts));
    }
    Ok(nodes)
}

/// The nodes to compare, each with its facts, in name order.
fn read_nodes(given: &Path, args: &DiffArgs) -> Result<Vec<(String, Map<String, Value>)>> {
    let mut files: Vec<(String, PathBuf)> = Vec::new();
    if given.is_dir() {
        if args.node.is_some() {
            bail!("--node names the node of one facts file; --facts is a directory");
        }
        let entries = std::fs::read_dir(given)
            .with_context(|| format!("Could not read {}", given.display()))?;
        for entry in entries {
            let path = entry?.path();
            let is_facts = path
                .extension()
                .is_some_and(|e| e == "yaml" || e == "yml" || e == "json");
            if let (true, Some(stem)) = (is_facts, path.file_stem().and_then(|s| s.to_str())) {
                files.push((stem.to_string(), path.clone()));
            }
        }
    } else {
        let name = match &args.node {
            Some(name) => name.clone(),
            None => given
                .file_stem()
                .and_then(|s| s.to_str())
                .map(str::to_string)
                .with_context(|| format!("{} names no node", given.display()))?,
        };
        files.push((name, given.to_path_buf()));
    }
    files.retain(|(name, _)| args.nodes.is_empty() || args.nodes.iter().any(|p| glob(p, name)));
    files.sort();
    if let Some(twice) = files.windows(2).find(|pair| pair[0].0 == pair[1].0) {
        bail!(
            "Two facts files for node {}: {} and {}",
            twice[0].0,
            twice[0].1.display(),
            twice[1].1.display()
        );
    }
    // Reading a fleet's YAML is a good part of the work: on every core too.
    on_all_cores(&files, |(name, path)| {
        let facts =
            marionette_facts::load_facts_file(path).map_err(|error| anyhow::anyhow!("{error}"))?;
        Ok((name.clone(), facts))
    })
    .into_iter()
    .collect()
}

/// `pattern`, with `*` for any text, matches all of `name`: each piece
/// between stars found leftmost in turn, so that no pattern takes more
/// than one pass over the name.
fn glob(pattern: &str, name: &str) -> bool {
    let pieces: Vec<&str> = pattern.split('*').collect();
    let [first, middle @ .., last] = pieces.as_slice() else {
        return pattern == name;
    };
    let Some(mut rest) = name.strip_prefix(first) else {
        return false;
    };
    for piece in middle {
        match rest.find(piece) {
            Some(at) => rest = &rest[at + piece.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

/// A side's code: the directory given, or the git ref's tree extracted.
fn code_side(
    spec: &str,
    label: &str,
    repo: &Path,
    modulepath: Option<&String>,
    env: &EnvArgs,
) -> Result<CodeSide> {
    let given = Path::new(spec);
    let (dir, extracted) = if given.is_dir() {
        (crate::environment::absolute(given), None)
    } else {
        let temp = extract_ref(spec, label, repo)?;
        (temp.0.clone(), Some(temp))
    };
    // The side is an environment of its parent directory, so that its
    // `environment.conf`, `modules/` and `hiera.yaml` are read as
    // Puppet reads an environment's.
    let (Some(parent), Some(name)) = (dir.parent(), dir.file_name()) else {
        bail!("{} is not an environment's directory", dir.display());
    };
    let mut args = env.clone();
    args.environmentpath = Some(parent.to_path_buf());
    args.environment = Some(name.to_string_lossy().into_owned());
    if let Some(modulepath) = modulepath {
        args.modulepath = Some(modulepath.clone());
    }
    let mut resolved = args.resolve();
    resolved.name = ENVIRONMENT.to_string();
    let manifest = dir.join("manifests");
    let manifests = if manifest.exists() {
        crate::catalog::read_manifests(&manifest)?
            .into_iter()
            .map(|file| (file.name().to_string(), file.text().to_string()))
            .collect()
    } else {
        let site = dir.join("manifests/site.pp");
        bail!(
            "{} has no main manifest ({})",
            dir.display(),
            site.display()
        );
    };
    let shared = Shared::make(resolved, crate::environment::hiera_settings(&args));
    Ok(CodeSide {
        dir,
        shared,
        manifests,
        certs: None,
        _extracted: extracted,
    })
}

/// Extracts the tree of git ref `spec` of `repo` into a new temporary
/// directory, with `git archive` read by `tar`: no shell, and the ref is
/// an argument, checked to be a commit first.
fn extract_ref(spec: &str, label: &str, repo: &Path) -> Result<TempDir> {
    if spec.starts_with('-') || spec.is_empty() {
        bail!("'{spec}' is neither a directory nor a git ref");
    }
    let verified = Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(["rev-parse", "--verify", "--quiet", "--end-of-options"])
        .arg(format!("{spec}^{{commit}}"))
        .stderr(Stdio::null())
        .output()
        .context("Could not run git")?;
    if !verified.status.success() {
        bail!(
            "'{spec}' is neither a directory nor a commit of the git repository {}",
            repo.display()
        );
    }
    let commit = String::from_utf8_lossy(&verified.stdout).trim().to_string();
    let temp = TempDir(std::env::temp_dir().join(format!(
        "marionette-catalog-diff-{}-{label}",
        std::process::id()
    )));
    let _ = std::fs::remove_dir_all(&temp.0);
    std::fs::create_dir_all(&temp.0)
        .with_context(|| format!("Could not create {}", temp.0.display()))?;
    let mut archive = Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(["archive", "--format=tar"])
        .arg(&commit)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .context("Could not run git archive")?;
    let tar_input = archive.stdout.take().context("git archive's output")?;
    let untarred = Command::new("tar")
        .arg("-x")
        .arg("-C")
        .arg(&temp.0)
        .stdin(tar_input)
        .stderr(Stdio::piped())
        .output()
        .context("Could not run tar")?;
    let archived = archive.wait_with_output()?;
    if !archived.status.success() || !untarred.status.success() {
        bail!(
            "Could not extract {spec} ({commit}): {}{}",
            String::from_utf8_lossy(&archived.stderr).trim(),
            String::from_utf8_lossy(&untarred.stderr).trim()
        );
    }
    Ok(temp)
}

/// `$trusted` for a node, as a server builds it from the node's
/// certificate: its extensions from the certificate in `certs` when there
/// is one, else the facts' own `trusted` (puppetserver's cache keeps it),
/// else none. `trusted` is taken out of the facts either way.
fn trusted(node: &str, facts: &mut Map<String, Value>, certs: Option<&Path>) -> Value {
    let from_facts = facts.remove("trusted");
    let (hostname, domain) = node.split_once('.').unwrap_or((node, ""));
    let built = |extensions: Value| {
        serde_json::json!({
            "authenticated": "remote",
            "certname": node,
            "extensions": extensions,
            "hostname": hostname,
            "domain": domain,
            "external": {},
        })
    };
    let identity = certs
        .and_then(|dir| std::fs::read_to_string(dir.join(format!("{node}.pem"))).ok())
        .and_then(|pem| marionette_ca::identity_pem(&pem))
        .filter(|identity| identity.certname == node);
    if let Some(identity) = identity {
        return built(serde_json::json!(identity.extensions));
    }
    match from_facts {
        Some(Value::Object(trusted)) => Value::Object(trusted),
        _ => built(serde_json::json!({})),
    }
}

/// Compiles a node with one side's code: the catalog with its file names
/// relative to the side's directory (and, with `file_text`, files'
/// module sources replaced by their text), or the errors.
fn compile(
    side: &CodeSide,
    node: &str,
    facts: &Map<String, Value>,
    file_text: bool,
) -> Result<Catalog, String> {
    let mut facts = facts.clone();
    let trusted = trusted(node, &mut facts, side.certs.as_deref());
    let manifests = side
        .manifests
        .iter()
        .map(|(name, text)| SourceFile::new(name.clone(), text.clone()))
        .collect();
    let options = side
        .shared
        .options(manifests, node, ENVIRONMENT, facts, trusted);
    let compiled = marionette_eval::compile(&options);
    let Some(mut catalog) = compiled.catalog else {
        // A server's compile ends with Puppet's "Could not call 'find'"
        // wrapper around the error already said: said once.
        let mut errors: Vec<&str> = Vec::new();
        for line in compiled.lines.iter().map(|(_, line)| line.as_str()) {
            let Some(error) = line.strip_prefix("Error: ") else {
                continue;
            };
            let repeated = error
                .strip_prefix("Could not call 'find' on 'catalog': ")
                .is_some_and(|inner| errors.iter().any(|e| e.ends_with(inner)));
            if !repeated {
                errors.push(line);
            }
        }
        return Err(if errors.is_empty() {
            format!("Error: Could not compile a catalog for {node}")
        } else {
            relative(&errors.join("\n"), &side.dir)
        });
    };
    let prefix = format!("{}/", side.dir.display());
    for resource in &mut catalog.resources {
        if let Some(file) = &resource.file
            && let Some(inside) = file.strip_prefix(&prefix)
        {
            resource.file = Some(inside.into());
        }
        if file_text {
            source_as_text(resource, &side.shared.modulepath);
        }
    }
    Ok(catalog)
}

/// A file whose `source` is a module's file (`puppet:///modules/M/P`, or
/// the first of a list that exists) and that has no `content` gets the
/// text of `M/files/P` as its content instead, so that a change to the
/// file shows as a diff of its text; a file that is not ASCII text is
/// compared by its MD5 checksum (`{md5}...`). As octocatalog-diff's
/// `--compare-file-text`. A source that names no module file is kept.
fn source_as_text(resource: &mut marionette_catalog::Resource, modulepath: &[PathBuf]) {
    if resource.type_name != "File" || resource.parameters.contains_key("content") {
        return;
    }
    let sources: Vec<&str> = match resource.parameters.get("source") {
        Some(Value::String(one)) => vec![one.as_str()],
        Some(Value::Array(many)) => many.iter().filter_map(Value::as_str).collect(),
        _ => return,
    };
    let found = sources.iter().find_map(|source| {
        let rest = source.strip_prefix("puppet:///modules/")?;
        let (module, path) = rest.split_once('/')?;
        if module.is_empty() || path.split('/').any(|part| part == ".." || part.is_empty()) {
            return None;
        }
        modulepath
            .iter()
            .map(|dir| dir.join(module).join("files").join(path))
            .find(|file| file.exists())
    });
    let Some(bytes) = found.and_then(|file| std::fs::read(file).ok()) else {
        return;
    };
    let content = if bytes.is_ascii() {
        String::from_utf8_lossy(&bytes).into_owned()
    } else {
        marionette_types::types::file::sum_bytes("md5", &bytes)
    };
    resource
        .parameters
        .insert("content".into(), Value::String(content));
    resource.parameters.remove("source");
}

/// An error's file names relative to the side's directory.
fn relative(text: &str, dir: &Path) -> String {
    text.replace(&format!("{}/", dir.display()), "")
}

/// `work` of each item, in order, on every core: each thread takes the
/// next item until none is left. Nodes are few (thousands) and each costs
/// milliseconds, unlike the many cheap items `marionette_values::parallel`
/// splits into fixed chunks, so the work is handed out one at a time.
fn on_all_cores<T: Sync, U: Send>(items: &[T], work: impl Fn(&T) -> U + Sync) -> Vec<U> {
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<(usize, U)>> = Mutex::new(Vec::with_capacity(items.len()));
    let threads = marionette_values::parallel::cores().min(items.len()).max(1);
    let worker = || {
        loop {
            let at = next.fetch_add(1, Ordering::Relaxed);
            let Some(item) = items.get(at) else {
                break;
            };
            let result = work(item);
            done.lock()
                .unwrap_or_else(|e| e.into_inner())
                .push((at, result));
        }
    };
    std::thread::scope(|scope| {
        for _ in 1..threads {
            scope.spawn(worker);
        }
        worker();
    });
    let mut done = done.into_inner().unwrap_or_else(|e| e.into_inner());
    done.sort_by_key(|(at, _)| *at);
    done.into_iter().map(|(_, result)| result).collect()
}

/// Every node compiled with both sides and compared, on all cores.
fn compare_all(
    nodes: &[(String, Map<String, Value>)],
    from: &CodeSide,
    to: &CodeSide,
    options: &Options,
    file_text: bool,
) -> Vec<NodeOutcome> {
    on_all_cores(nodes, |(node, facts)| {
        let old = compile(from, node, facts, file_text);
        let new = compile(to, node, facts, file_text);
        match (old, new) {
            (Ok(old), Ok(new)) => NodeOutcome {
                node: node.clone(),
                changes: marionette_catalog_diff::diff(&old, &new, options),
                failures: Vec::new(),
            },
            (old, new) => {
                let mut failures = Vec::new();
                if let Err(message) = old {
                    failures.push(Failure {
                        side: Side::From,
                        message,
                    });
                }
                if let Err(message) = new {
                    failures.push(Failure {
                        side: Side::To,
                        message,
                    });
                }
                NodeOutcome {
                    node: node.clone(),
                    changes: Vec::new(),
                    failures,
                }
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::glob;

    #[test]
    fn node_patterns() {
        assert!(glob("web-*", "web-0001.example.com"));
        assert!(glob("*.example.com", "db-1.example.com"));
        assert!(glob("db-1.example.com", "db-1.example.com"));
        assert!(!glob("web-*", "db-0003.example.com"));
        assert!(!glob("db", "db-1"));
        assert!(glob("*0*3*", "db-0003"));
        assert!(!glob("web-*-x", "web-x"));
        let long = "a".repeat(200);
        assert!(!glob(&format!("{}b*c", "*a".repeat(40)), &long));
    }
}
