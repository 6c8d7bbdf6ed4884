//! The environment a command works in: its name and module path, and the
//! plugins its modules ship. One command runs in one environment, chosen
//! from the command line before anything needs it.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use clap::Args;
use marionette_plugin::{Environment, Plugins};
use marionette_ral::Registry;

/// Options every command takes: which environment, and where modules are.
#[derive(Args, Clone, Debug, Default)]
pub(crate) struct EnvArgs {
    /// The environment; its `manifests/` and its module path (`modules/`,
    /// or `modulepath` in its `environment.conf`) are used.
    #[arg(long, global = true)]
    pub(crate) environment: Option<String>,
    /// Where environments live.
    #[arg(
        long,
        global = true,
        default_value = "/etc/puppetlabs/code/environments"
    )]
    pub(crate) environmentpath: PathBuf,
    /// Directories of modules, separated by `:` (searched after the
    /// environment's).
    #[arg(long, global = true)]
    pub(crate) modulepath: Option<String>,
}

impl EnvArgs {
    /// The directory of the chosen environment, if one was named.
    pub(crate) fn directory(&self) -> Option<PathBuf> {
        self.environment
            .as_ref()
            .map(|name| self.environmentpath.join(name))
    }

    fn resolve(&self) -> Environment {
        let mut modulepath: Vec<PathBuf> = self
            .modulepath
            .as_deref()
            .map(|path| {
                path.split(':')
                    .filter(|p| !p.is_empty())
                    .map(PathBuf::from)
                    .collect()
            })
            .unwrap_or_default();
        if let Some(dir) = self.directory() {
            modulepath.splice(0..0, environment_modulepath(&dir));
        }
        Environment {
            name: self
                .environment
                .clone()
                .unwrap_or_else(|| "production".into()),
            modulepath,
        }
    }
}

/// An environment's module path: `modulepath` of its `environment.conf`
/// (relative entries are relative to the environment; `$basemodulepath`
/// is empty here), else its `modules` directory.
fn environment_modulepath(dir: &Path) -> Vec<PathBuf> {
    let conf = std::fs::read_to_string(dir.join("environment.conf")).unwrap_or_default();
    for line in conf.lines() {
        let line = line.trim();
        if let Some((key, value)) = line.split_once('=')
            && key.trim() == "modulepath"
        {
            return value
                .trim()
                .split(':')
                .filter(|entry| !entry.is_empty() && !entry.starts_with('$'))
                .map(|entry| {
                    if Path::new(entry).is_absolute() {
                        PathBuf::from(entry)
                    } else {
                        dir.join(entry)
                    }
                })
                .collect();
        }
    }
    vec![dir.join("modules")]
}

static PLUGINS: OnceLock<Plugins> = OnceLock::new();
static REGISTRY: OnceLock<Arc<Registry>> = OnceLock::new();

/// Chooses the command's environment; the first call wins.
pub(crate) fn choose(args: &EnvArgs) {
    let environment = args.resolve();
    PLUGINS.get_or_init(|| Plugins::discover(environment));
}

/// The plugins of the chosen environment (of `production` with no modules
/// when none was chosen).
pub(crate) fn plugins() -> &'static Plugins {
    PLUGINS.get_or_init(|| Plugins::discover(Environment::default()))
}

/// The environment's name and module path.
pub(crate) fn current() -> &'static Environment {
    plugins().environment()
}

/// The built-in types and providers plus what the environment's modules
/// ship, built once per process: compiling (which asks which types exist)
/// and applying both need them. Type files that cannot be used are
/// reported once, as warnings.
pub(crate) fn registry() -> Arc<Registry> {
    REGISTRY
        .get_or_init(|| {
            let mut registry = marionette_types::registry();
            let plugins = plugins();
            let problems = plugins.extend(&mut registry);
            for problem in plugins.problems().iter().chain(&problems) {
                eprintln!(
                    "Warning: Ignoring {}: {}",
                    problem.file.display(),
                    problem.message
                );
            }
            Arc::new(registry)
        })
        .clone()
}

/// Stops the plugin processes the command started.
pub(crate) fn shutdown() {
    if let Some(plugins) = PLUGINS.get() {
        plugins.shutdown();
    }
}
