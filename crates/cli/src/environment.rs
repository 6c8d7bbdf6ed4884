//! The environment a command works in: its name and module path, and the
//! plugins its modules ship. One command runs in one environment, chosen
//! from the command line before anything needs it.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use clap::Args;
use marionette_plugin::{Environment, Plugins};
use marionette_ral::Registry;

/// Options every command takes: which environment, and where modules are.
/// A command's help lists them apart, after its own.
#[derive(Args, Clone, Debug, Default)]
#[command(next_help_heading = "Global options")]
pub(crate) struct EnvArgs {
    /// The environment; its `manifests/` and its module path (`modules/`,
    /// or `modulepath` in its `environment.conf`) are used.
    #[arg(long, global = true, overrides_with = "environment")]
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
    /// The global layer's Hiera configuration (default
    /// `/etc/puppetlabs/puppet/hiera.yaml`, or Debian's
    /// `/etc/puppet/hiera.yaml` when only that exists).
    #[arg(long = "hiera-config", global = true)]
    pub(crate) hiera_config: Option<PathBuf>,
}

impl EnvArgs {
    /// The directory of the chosen environment, if one was named.
    pub(crate) fn directory(&self) -> Option<PathBuf> {
        self.environment
            .as_ref()
            .map(|name| absolute(&self.environmentpath.join(name)))
    }

    pub(crate) fn resolve(&self) -> Environment {
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

/// `path` from the root, as Puppet resolves its directories (messages and
/// explanations name them so).
pub(crate) fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
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

/// The environment's Hiera: the global configuration, and the
/// environment's directory (the named one, else `production` when it
/// exists, as Puppet's default environment).
pub(crate) fn hiera_settings(args: &EnvArgs) -> marionette_hiera::Settings {
    let global = args
        .hiera_config
        .as_deref()
        .map(absolute)
        .unwrap_or_else(|| {
            let puppetlabs = PathBuf::from("/etc/puppetlabs/puppet/hiera.yaml");
            let debian = PathBuf::from("/etc/puppet/hiera.yaml");
            if !puppetlabs.exists() && debian.exists() {
                debian
            } else {
                puppetlabs
            }
        });
    let environment = args.directory().or_else(|| {
        let production = absolute(&args.environmentpath.join("production"));
        production.is_dir().then_some(production)
    });
    marionette_hiera::Settings {
        global: Some(global),
        environment,
        codedir: PathBuf::from("/etc/puppetlabs/code"),
    }
}

static HIERA: OnceLock<Arc<marionette_hiera::Hiera>> = OnceLock::new();

/// The chosen environment's Hiera, made once per process.
pub(crate) fn hiera() -> Arc<marionette_hiera::Hiera> {
    HIERA
        .get_or_init(|| marionette_hiera::Hiera::new(marionette_hiera::Settings::default()))
        .clone()
}

static RUBY: OnceLock<Arc<marionette_ruby::RubyHost>> = OnceLock::new();

/// The chosen environment's Ruby host, made once per process; its Ruby
/// starts only when a module's Ruby is first needed.
pub(crate) fn ruby() -> Arc<marionette_ruby::RubyHost> {
    RUBY.get_or_init(|| {
        let environment = current();
        Arc::new(marionette_ruby::RubyHost::new(
            marionette_ruby::Settings::new(&environment.name, environment.modulepath.clone()),
        ))
    })
    .clone()
}

static PLUGINS: OnceLock<Plugins> = OnceLock::new();
static REGISTRY: OnceLock<Arc<Registry>> = OnceLock::new();

/// Chooses the command's environment; the first call wins.
pub(crate) fn choose(args: &EnvArgs) {
    let environment = args.resolve();
    PLUGINS.get_or_init(|| Plugins::discover(environment));
    HIERA.get_or_init(|| marionette_hiera::Hiera::new(hiera_settings(args)));
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

/// The built-in types and providers, the module types built in whose
/// module is on the module path, plus what the environment's modules
/// ship, built once per process: compiling (which asks which types exist)
/// and applying both need them. Type files that cannot be used are
/// reported once, as warnings.
pub(crate) fn registry() -> Arc<Registry> {
    REGISTRY
        .get_or_init(|| Arc::new(build_registry(plugins(), &ruby())))
        .clone()
}

/// The registry of an environment's plugins: see [`registry`].
pub(crate) fn build_registry(plugins: &Plugins, ruby: &Arc<marionette_ruby::RubyHost>) -> Registry {
    let mut registry = marionette_types::registry();
    marionette_types::add_module_types(&mut registry, &plugins.environment().modulepath);
    let mut problems = plugins.extend(&mut registry);
    problems.extend(plugins.extend_ruby(&mut registry, ruby));
    for problem in plugins.problems().iter().chain(&problems) {
        errln!(
            "Warning: Ignoring {}: {}",
            problem.file.display(),
            problem.message
        );
    }
    registry
}

/// Stops the plugin processes the command started.
pub(crate) fn shutdown() {
    if let Some(plugins) = PLUGINS.get() {
        plugins.shutdown();
    }
}
