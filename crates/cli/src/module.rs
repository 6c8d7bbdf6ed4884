//! `marionette module list`: the modules of the environment's module path,
//! as `puppet module list` shows them (a list per directory, or a tree of
//! dependencies with `--tree`), after Puppet's warnings about dependencies
//! that are missing, of the wrong version or not semantic versions.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use marionette_values::semver::{SemVer, SemVerRange};

/// `marionette module`.
#[derive(clap::Args, Debug)]
pub(crate) struct ModuleArgs {
    #[command(subcommand)]
    action: ModuleAction,
}

#[derive(clap::Subcommand, Debug)]
enum ModuleAction {
    /// List the modules of each directory of the module path, with their
    /// versions; warn about the dependencies their metadata names that are
    /// missing or of another version.
    #[command(
        after_help = "Examples:\n  marionette module list\n  marionette module list --tree\n  marionette module list --modulepath /etc/puppetlabs/code/modules"
    )]
    List {
        /// Show each module's dependencies below it, as a tree.
        #[arg(long)]
        tree: bool,
        /// Colour the versions and labels: `true` (or `ansi`), `false`, or
        /// `auto` (on a terminal unless `NO_COLOR` is set; the default).
        #[arg(long, value_name = "WHEN", num_args = 0..=1, default_missing_value = "true")]
        color: Option<String>,
    },
}

/// A module directory and what its `metadata.json` says.
struct Module {
    /// The directory's name, which the language knows it by.
    name: String,
    /// The directory holding it: one of the module path's.
    dir: PathBuf,
    /// `author/name`, from the metadata.
    forge_name: Option<String>,
    version: Option<String>,
    /// Each dependency's `author/name` and version requirement.
    dependencies: Vec<(String, String)>,
}

impl Module {
    fn read(name: &str, dir: &Path) -> Module {
        let metadata: serde_json::Value =
            std::fs::read_to_string(dir.join(name).join("metadata.json"))
                .ok()
                .and_then(|text| serde_json::from_str(&text).ok())
                .unwrap_or_default();
        let text = |key: &str| {
            metadata
                .get(key)
                .and_then(|v| v.as_str())
                .map(str::to_string)
        };
        let dependencies = metadata
            .get("dependencies")
            .and_then(|d| d.as_array())
            .map(|list| {
                list.iter()
                    .filter_map(|dep| {
                        let name = dep.get("name")?.as_str()?.replace('-', "/");
                        let requirement = dep
                            .get("version_requirement")
                            .and_then(|v| v.as_str())
                            .unwrap_or(">= 0.0.0")
                            .to_string();
                        Some((name, requirement))
                    })
                    .collect()
            })
            .unwrap_or_default();
        Module {
            name: name.to_string(),
            dir: dir.to_path_buf(),
            forge_name: text("name").map(|n| n.replace('-', "/")),
            version: text("version"),
            dependencies,
        }
    }

    /// How Puppet names a module in its lists: `author-name`, else the
    /// directory's name.
    fn shown_name(&self) -> String {
        self.forge_name
            .as_deref()
            .map_or_else(|| self.name.clone(), |f| f.replace('/', "-"))
    }

    /// `forge_name or name`, which Puppet sorts and tracks modules by.
    fn key(&self) -> &str {
        self.forge_name.as_deref().unwrap_or(&self.name)
    }
}

/// A version as Puppet writes it in these messages: `v` before a digit.
fn with_v(version: &str) -> String {
    if version.starts_with(|c: char| c.is_ascii_digit()) {
        format!("v{version}")
    } else {
        version.to_string()
    }
}

/// Why a dependency is unmet, in the order Puppet warns about them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Unmet {
    NonSemantic,
    Mismatch,
    Missing,
}

/// What Puppet gathers of one unmet dependency across the modules.
#[derive(Default)]
struct UnmetDependency {
    errors: Vec<String>,
    /// The installed version, for a mismatch's heading.
    version: Option<String>,
    /// The last module that required it: `author/name` and `vVERSION`.
    parent: (String, String),
}

/// The modules of an environment: every module of each directory, and the
/// one the language uses for each name (the first directory's).
struct Environment {
    modulepath: Vec<PathBuf>,
    by_path: Vec<Vec<Module>>,
}

impl Environment {
    fn read(modulepath: &[PathBuf]) -> Environment {
        // As Puppet's, only the directories that exist.
        let modulepath: Vec<PathBuf> = modulepath.iter().filter(|d| d.is_dir()).cloned().collect();
        let by_path = modulepath
            .iter()
            .map(|dir| {
                let mut names: Vec<String> = std::fs::read_dir(dir)
                    .map(|entries| {
                        entries
                            .filter_map(Result::ok)
                            .filter(|e| e.path().is_dir())
                            .filter_map(|e| e.file_name().to_str().map(str::to_string))
                            .filter(|name| is_module_name(name))
                            .collect()
                    })
                    .unwrap_or_default();
                names.sort();
                names.iter().map(|name| Module::read(name, dir)).collect()
            })
            .collect();
        Environment {
            modulepath,
            by_path,
        }
    }

    /// The module the language finds by a name: the first directory's.
    fn module(&self, name: &str) -> Option<&Module> {
        self.by_path.iter().flatten().find(|m| m.name == name)
    }

    /// The modules in use, one per name.
    fn modules(&self) -> Vec<&Module> {
        let mut seen = HashSet::new();
        self.by_path
            .iter()
            .flatten()
            .filter(|m| seen.insert(m.name.as_str()))
            .collect()
    }

    /// The module in use under `author/name`, if its metadata says so.
    fn by_forge_name(&self, forge_name: &str) -> Option<&Module> {
        let (_, name) = forge_name.split_once('/')?;
        self.module(name)
            .filter(|m| m.forge_name.as_deref() == Some(forge_name))
    }

    /// A module's dependencies that are not met, each with why.
    fn unmet<'a>(&'a self, module: &'a Module) -> Vec<(Unmet, &'a str, &'a str, Option<&'a str>)> {
        module
            .dependencies
            .iter()
            .filter_map(|(name, requirement)| {
                let Some(found) = self.by_forge_name(name) else {
                    return Some((Unmet::Missing, name.as_str(), requirement.as_str(), None));
                };
                let installed = found.version.as_deref();
                let range = SemVerRange::parse(requirement);
                let version = installed.and_then(SemVer::parse);
                let why = match (range, version) {
                    (Some(range), Some(version)) if range.includes(&version) => return None,
                    (Some(_), Some(_)) => Unmet::Mismatch,
                    _ => Unmet::NonSemantic,
                };
                Some((why, name.as_str(), requirement.as_str(), installed))
            })
            .collect()
    }

    /// Puppet's table of unmet dependencies: by reason, then by the
    /// dependency's `author/name`.
    fn unmet_dependencies(&self) -> BTreeMap<Unmet, BTreeMap<String, UnmetDependency>> {
        let mut table: BTreeMap<Unmet, BTreeMap<String, UnmetDependency>> = BTreeMap::new();
        let mut modules = self.modules();
        modules.sort_by(|a, b| a.name.cmp(&b.name));
        for module in modules {
            let mut unmet = self.unmet(module);
            unmet.sort_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)));
            let parent_version = with_v(module.version.as_deref().unwrap_or_default());
            let parent = module.forge_name.clone().unwrap_or_default();
            for (why, name, requirement, installed) in unmet {
                let entry = table
                    .entry(why)
                    .or_default()
                    .entry(name.to_string())
                    .or_default();
                entry.errors.push(format!(
                    "'{}' ({parent_version}) requires '{}' ({})",
                    parent.replace('/', "-"),
                    name.replace('/', "-"),
                    with_v(requirement)
                ));
                entry.parent = (parent.clone(), parent_version.clone());
                entry.version = installed.map(str::to_string);
            }
        }
        table
    }
}

/// A directory name Puppet takes for a module's.
fn is_module_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// One line of a list or tree, and the lines below it.
struct Node {
    text: String,
    children: Vec<Node>,
}

/// Draws nodes as Puppet's module tool does.
fn format_tree(nodes: &[Node], level: usize, out: &mut String) {
    let indent = "  ".repeat(level);
    for (i, node) in nodes.iter().enumerate() {
        let last = i + 1 == nodes.len();
        out.push_str(&indent);
        out.push_str(if last { "└" } else { "├" });
        out.push('─');
        out.push_str(if node.children.is_empty() {
            "─"
        } else {
            "┬"
        });
        out.push(' ');
        out.push_str(&node.text);
        out.push('\n');
        let mut branch = String::new();
        format_tree(&node.children, level + 1, &mut branch);
        if !last {
            // The branch's lines get the bar that leads on to the next
            // node.
            let open = format!("{indent} ");
            let bar = format!("{indent}│");
            branch = branch
                .lines()
                .map(|line| match line.strip_prefix(&open) {
                    Some(rest) => format!("{bar}{rest}\n"),
                    None => format!("{line}\n"),
                })
                .collect();
        }
        out.push_str(&branch);
    }
}

/// Terminal colours, only where Puppet would use them.
struct Paint(bool);

impl Paint {
    fn paint(&self, code: &str, text: &str) -> String {
        if self.0 {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
}

struct Lister<'e> {
    environment: &'e Environment,
    unmet: BTreeMap<Unmet, BTreeMap<String, UnmetDependency>>,
    paint: Paint,
    seen: HashSet<String>,
}

impl Lister<'_> {
    /// A module's line: its name, version, directory when not the one
    /// listed, and `invalid` when another module needs another version of
    /// it (in a tree, only below the module that does).
    fn node(&self, module: &Module, listed: &Path, parent: Option<&Module>, flat: bool) -> Node {
        let version = module
            .version
            .as_deref()
            .map_or_else(|| "???".to_string(), |v| format!("v{v}"));
        let mut text = format!(
            "{} ({})",
            module.shown_name(),
            self.paint.paint("0;36", &version)
        );
        if module.dir != listed {
            text.push_str(&format!(" [{}]", module.dir.display()));
        }
        let mismatch = module
            .forge_name
            .as_ref()
            .and_then(|f| self.unmet.get(&Unmet::Mismatch)?.get(f));
        if let Some(mismatch) = mismatch {
            let under_its_parent = parent.is_some_and(|p| {
                p.forge_name.as_deref() == Some(mismatch.parent.0.as_str())
                    && format!("v{}", p.version.as_deref().unwrap_or_default()) == mismatch.parent.1
            });
            if flat || under_its_parent {
                text.push_str(&format!("  {}", self.paint.paint("0;31", "invalid")));
            }
        }
        Node {
            text,
            children: Vec::new(),
        }
    }

    fn tree(
        &mut self,
        list: &[&Module],
        ancestors: &[&str],
        parent: Option<&Module>,
        listed: &Path,
    ) -> Vec<Node> {
        let mut nodes = Vec::new();
        for module in list {
            if self.seen.contains(module.key()) {
                continue;
            }
            let mut node = self.node(module, listed, parent, false);
            self.seen.insert(module.key().to_string());
            if !ancestors.contains(&module.key()) {
                for (why, name, requirement, _) in self.environment.unmet(module) {
                    if why == Unmet::Missing {
                        node.children.push(Node {
                            text: format!(
                                "{} {} ({})",
                                self.paint.paint("0;41", "UNMET DEPENDENCY"),
                                name.replace('/', "-"),
                                self.paint.paint("0;36", &with_v(requirement))
                            ),
                            children: Vec::new(),
                        });
                    }
                }
                let dependencies: Vec<&Module> = module
                    .dependencies
                    .iter()
                    .filter_map(|(name, _)| self.environment.module(name.split('/').nth(1)?))
                    .collect();
                let mut below = ancestors.to_vec();
                below.push(module.key());
                node.children
                    .extend(self.tree(&dependencies, &below, Some(module), listed));
            }
            nodes.push(node);
        }
        nodes
    }
}

pub(crate) fn run(args: ModuleArgs) -> anyhow::Result<std::process::ExitCode> {
    let ModuleAction::List { tree, color } = args.action;
    let colour = crate::logdest::Colour::parse(color.as_deref().unwrap_or("auto"))?;
    let environment = Environment::read(&crate::environment::current().modulepath);
    let unmet = environment.unmet_dependencies();
    warn(&unmet, Paint(colour.on(std::io::stderr().is_terminal())));
    let mut lister = Lister {
        environment: &environment,
        unmet,
        paint: Paint(colour.on(std::io::stdout().is_terminal())),
        seen: HashSet::new(),
    };
    // How many modules name each one as a dependency, which orders the
    // tree's roots: the least needed first.
    let mut required_by: HashMap<String, usize> = HashMap::new();
    for module in environment.modules() {
        for (name, _) in &module.dependencies {
            *required_by.entry(name.clone()).or_default() += 1;
        }
    }
    let mut output = String::new();
    for (dir, modules) in environment.modulepath.iter().zip(&environment.by_path) {
        output.push_str(&dir.display().to_string());
        if modules.is_empty() {
            output.push_str(" (no modules installed)");
        }
        output.push('\n');
        let nodes = if tree {
            let mut roots: Vec<&Module> = modules.iter().collect();
            roots.sort_by_key(|m| {
                m.forge_name
                    .as_ref()
                    .map_or(0, |f| required_by.get(f).copied().unwrap_or(0))
            });
            lister.seen.clear();
            lister.tree(&roots, &[], None, dir)
        } else {
            let mut sorted: Vec<&Module> = modules.iter().collect();
            sorted.sort_by(|a, b| a.key().cmp(b.key()));
            sorted
                .iter()
                .map(|m| lister.node(m, dir, None, true))
                .collect()
        };
        format_tree(&nodes, 0, &mut output);
    }
    crate::write_quietly(&mut std::io::stdout(), format_args!("{output}"));
    Ok(std::process::ExitCode::SUCCESS)
}

/// Puppet's warnings about unmet dependencies, one per dependency.
fn warn(unmet: &BTreeMap<Unmet, BTreeMap<String, UnmetDependency>>, paint: Paint) {
    for (why, dependencies) in unmet {
        for (name, dependency) in dependencies {
            let name = name.replace('/', "-");
            let mut message = match why {
                Unmet::Mismatch => format!(
                    "Module '{name}' (v{}) fails to meet some dependencies:",
                    dependency.version.as_deref().unwrap_or_default()
                ),
                Unmet::NonSemantic => format!(
                    "Non semantic version dependency {name} (v{}):",
                    dependency.version.as_deref().unwrap_or_default()
                ),
                Unmet::Missing => format!("Missing dependency '{name}':"),
            };
            for error in &dependency.errors {
                message.push_str(&format!("\n  {error}"));
            }
            errln!("{}", paint.paint("1;33", &format!("Warning: {message}")));
        }
    }
}
