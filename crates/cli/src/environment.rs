//! The environment a command works in: its name and module path, and the
//! plugins its modules ship. One command runs in one environment, chosen
//! from the command line before anything needs it.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use clap::Args;
use marionette_plugin::{Environment, Plugins};
use marionette_ral::Registry;

/// Options every command takes: which environment, where modules are,
/// and Puppet's directories. A command's help lists them apart, after its
/// own. Unset directories take Puppet's defaults (see the methods), so
/// that a setting given anywhere moves the ones that follow it, as
/// `--codedir` moves the environments.
#[derive(Args, Clone, Debug, Default)]
#[command(next_help_heading = "Global options")]
pub(crate) struct EnvArgs {
    /// The environment (default `production`); its `manifests/` and its
    /// module path (`modulepath` in its `environment.conf`, else
    /// `modules/` and the base module path) are used.
    #[arg(long, global = true, overrides_with = "environment")]
    pub(crate) environment: Option<String>,
    /// Where environments live (default `$codedir/environments`).
    #[arg(long, global = true, value_name = "DIR")]
    pub(crate) environmentpath: Option<PathBuf>,
    /// Directories of modules, separated by `:`, instead of the default
    /// environment's (searched after a named environment's).
    #[arg(long, global = true)]
    pub(crate) modulepath: Option<String>,
    /// The module directories every environment searches after its own,
    /// separated by `:` (default: those of `$codedir/modules`,
    /// `/opt/puppetlabs/puppet/modules` and Debian's
    /// `/usr/share/puppet/modules` that exist).
    #[arg(long, global = true)]
    pub(crate) basemodulepath: Option<String>,
    /// The global layer's Hiera configuration (default
    /// `$codedir/hiera.yaml` when it exists, else `$confdir/hiera.yaml`).
    #[arg(long = "hiera-config", global = true, value_name = "FILE")]
    pub(crate) hiera_config: Option<PathBuf>,
    /// Puppet's configuration directory, whose `puppet.conf` is then the
    /// settings file read (default `/etc/puppetlabs/puppet`, or Debian's
    /// `/etc/puppet` when only that exists; `~/.puppetlabs/etc/puppet`
    /// for other users than root).
    #[arg(long, global = true, value_name = "DIR")]
    pub(crate) confdir: Option<PathBuf>,
    /// Where Puppet's code lives: environments, modules and `hiera.yaml`
    /// (default `/etc/puppetlabs/code`, or Debian's `/etc/puppet/code` when
    /// only that exists; `~/.puppetlabs/etc/code` for other users).
    #[arg(long, global = true, value_name = "DIR")]
    pub(crate) codedir: Option<PathBuf>,
    /// Where reports, backups, the run lock and an agent's or a server's
    /// data live (default /var/lib/marionette as root, ~/.marionette
    /// otherwise).
    #[arg(long, global = true, value_name = "DIR")]
    pub(crate) vardir: Option<PathBuf>,
    /// Where certificates and keys live (default `$vardir/ssl`).
    #[arg(long, global = true, value_name = "DIR")]
    pub(crate) ssldir: Option<PathBuf>,
    /// Puppet's log directory (default /var/log/marionette as root,
    /// `$vardir/log` otherwise); Marionette logs there only through
    /// `--logdest`.
    #[arg(long, global = true, value_name = "DIR")]
    pub(crate) logdir: Option<PathBuf>,
    /// Puppet's directory of process files (default /run/marionette as
    /// root, `$vardir/run` otherwise); Marionette keeps none there.
    #[arg(long, global = true, value_name = "DIR")]
    pub(crate) rundir: Option<PathBuf>,
}

/// The directories modules are installed in by Puppet's packages and by
/// Debian's, searched after an environment's own and `$codedir/modules`.
const BASEMODULEPATH: &[&str] = &[
    "/opt/puppetlabs/puppet/modules",
    "/usr/share/puppet/modules",
];

/// Puppet's own path for a file or directory, or Debian's (whose Puppet
/// keeps its files under `/etc/puppet`) when only that exists.
fn puppetlabs_or_debian(puppetlabs: &str, debian: &str) -> PathBuf {
    let (puppetlabs, debian) = (PathBuf::from(puppetlabs), PathBuf::from(debian));
    if !puppetlabs.exists() && debian.exists() {
        debian
    } else {
        puppetlabs
    }
}

/// Whether the process runs as root: Puppet's directories are then the
/// system's, else under the user's home.
pub(crate) fn is_root() -> bool {
    // SAFETY: geteuid(2) has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// `~/PATH`, or PATH under the current directory without a home.
pub(crate) fn home(path: &str) -> PathBuf {
    std::env::var_os("HOME")
        .map_or_else(|| PathBuf::from("."), PathBuf::from)
        .join(path)
}

/// A directory given, else its default for root or for another user.
fn given_or(
    given: &Option<PathBuf>,
    root: impl FnOnce() -> PathBuf,
    user: impl FnOnce() -> PathBuf,
) -> PathBuf {
    match given {
        Some(dir) => dir.clone(),
        None if is_root() => root(),
        None => user(),
    }
}

impl EnvArgs {
    /// `$confdir`: given, else Puppet's.
    pub(crate) fn confdir(&self) -> PathBuf {
        given_or(
            &self.confdir,
            || puppetlabs_or_debian("/etc/puppetlabs/puppet", "/etc/puppet"),
            || home(".puppetlabs/etc/puppet"),
        )
    }

    /// `$codedir`: given, else Puppet's.
    pub(crate) fn codedir(&self) -> PathBuf {
        given_or(
            &self.codedir,
            || puppetlabs_or_debian("/etc/puppetlabs/code", "/etc/puppet/code"),
            || home(".puppetlabs/etc/code"),
        )
    }

    /// `$vardir`: given, else Marionette's state directory.
    pub(crate) fn vardir(&self) -> PathBuf {
        given_or(
            &self.vardir,
            || PathBuf::from("/var/lib/marionette"),
            || home(".marionette"),
        )
    }

    /// `$ssldir`: given, else `$vardir/ssl`.
    pub(crate) fn ssldir(&self) -> PathBuf {
        self.ssldir
            .clone()
            .unwrap_or_else(|| self.vardir().join("ssl"))
    }

    /// `$logdir`: given, else Marionette's (in `$vardir` for a user, who
    /// has no system directory to write).
    pub(crate) fn logdir(&self) -> PathBuf {
        given_or(
            &self.logdir,
            || PathBuf::from("/var/log/marionette"),
            || self.vardir().join("log"),
        )
    }

    /// `$rundir`: given, else Marionette's (in `$vardir` for a user).
    pub(crate) fn rundir(&self) -> PathBuf {
        given_or(
            &self.rundir,
            || PathBuf::from("/run/marionette"),
            || self.vardir().join("run"),
        )
    }

    /// Where environments live: given, else `$codedir/environments`.
    pub(crate) fn environmentpath(&self) -> PathBuf {
        self.environmentpath
            .clone()
            .unwrap_or_else(|| self.codedir().join("environments"))
    }

    /// The global layer's Hiera configuration: given, else
    /// `$codedir/hiera.yaml` when it exists, else `$confdir/hiera.yaml`,
    /// as Puppet chooses it.
    pub(crate) fn hiera_config(&self) -> PathBuf {
        if let Some(path) = &self.hiera_config {
            return absolute(path);
        }
        let in_code = self.codedir().join("hiera.yaml");
        if in_code.exists() {
            in_code
        } else {
            self.confdir().join("hiera.yaml")
        }
    }

    /// The directory of the chosen environment, if one was named.
    pub(crate) fn directory(&self) -> Option<PathBuf> {
        self.environment
            .as_ref()
            .map(|name| absolute(&self.environmentpath().join(name)))
    }

    /// The base module path: as given, else the default directories that
    /// exist (Puppet leaves missing ones out too).
    pub(crate) fn basemodulepath(&self) -> Vec<PathBuf> {
        match &self.basemodulepath {
            Some(path) => split_path(path).iter().map(|dir| absolute(dir)).collect(),
            None => std::iter::once(self.codedir().join("modules"))
                .chain(BASEMODULEPATH.iter().map(PathBuf::from))
                .filter(|dir| dir.is_dir())
                .collect(),
        }
    }

    pub(crate) fn resolve(&self) -> Environment {
        let modulepath = match (&self.modulepath, self.directory()) {
            // Directories given are searched alone, after a named
            // environment's own; from the root, as Puppet expands them
            // (a module's Ruby requires files beside its own `__FILE__`,
            // reboot's providers so, and messages name them whole).
            (Some(given), named) => {
                let mut modulepath = named
                    .map(|dir| self.environment_modulepath(&dir))
                    .unwrap_or_default();
                modulepath.extend(split_path(given).iter().map(|dir| absolute(dir)));
                modulepath
            }
            (None, Some(dir)) => self.environment_modulepath(&dir),
            // The default environment, `production`, need not exist: its
            // module path is then the base one, as in Puppet.
            (None, None) => {
                let production = absolute(&self.environmentpath().join("production"));
                if production.is_dir() {
                    self.environment_modulepath(&production)
                } else {
                    self.basemodulepath()
                }
            }
        };
        Environment {
            name: self
                .environment
                .clone()
                .unwrap_or_else(|| "production".into()),
            modulepath,
        }
    }

    /// An environment's module path: `modulepath` of its `environment.conf`
    /// (relative entries are relative to the environment, and
    /// `$basemodulepath` is the base module path), else its `modules`
    /// directory and the base module path.
    fn environment_modulepath(&self, dir: &Path) -> Vec<PathBuf> {
        let conf = std::fs::read_to_string(dir.join("environment.conf")).unwrap_or_default();
        let configured = conf.lines().find_map(|line| {
            let (key, value) = line.trim().split_once('=')?;
            (key.trim() == "modulepath").then(|| value.trim().to_string())
        });
        let value = configured.unwrap_or_else(|| "modules:$basemodulepath".to_string());
        let mut modulepath = Vec::new();
        for entry in value.split(':').filter(|entry| !entry.is_empty()) {
            if entry == "$basemodulepath" {
                modulepath.extend(self.basemodulepath());
            } else if entry.starts_with('$') {
                // Other settings do not name module directories.
            } else if Path::new(entry).is_absolute() {
                modulepath.push(PathBuf::from(entry));
            } else {
                modulepath.push(dir.join(entry));
            }
        }
        modulepath
    }
}

/// A `:`-separated list of directories.
fn split_path(path: &str) -> Vec<PathBuf> {
    path.split(':')
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
        .collect()
}

/// Directories as a path setting is written (`modulepath`): joined with
/// colons.
pub(crate) fn join_path(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(":")
}

/// `path` from the root, as Puppet resolves its directories (messages and
/// explanations name them so).
pub(crate) fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// The environment's Hiera: the global configuration, and the
/// environment's directory (the named one, else `production` when it
/// exists, as Puppet's default environment).
pub(crate) fn hiera_settings(args: &EnvArgs) -> marionette_hiera::Settings {
    let environment = args.directory().or_else(|| {
        let production = absolute(&args.environmentpath().join("production"));
        production.is_dir().then_some(production)
    });
    marionette_hiera::Settings {
        global: Some(args.hiera_config()),
        environment,
        codedir: args.codedir(),
    }
}

static GLOBAL: OnceLock<EnvArgs> = OnceLock::new();

/// Records the command line's global options (the settings files' values
/// among them) for the code that reads Puppet's directories; the first
/// call wins.
pub(crate) fn set_global(args: &EnvArgs) {
    let _ = GLOBAL.set(args.clone());
}

/// The command line's global options, as [`set_global`] recorded them
/// (Puppet's defaults before).
pub(crate) fn global() -> &'static EnvArgs {
    GLOBAL.get_or_init(EnvArgs::default)
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
        let mut settings = ruby_settings(environment);
        settings.fact_files = plugins().fact_files().to_vec();
        Arc::new(marionette_ruby::RubyHost::new(settings))
    })
    .clone()
}

/// Whether a module on `modulepath` has Ruby functions or templates.
fn runs_ruby(modulepath: &[PathBuf]) -> bool {
    modulepath
        .iter()
        .filter_map(|dir| std::fs::read_dir(dir).ok())
        .flatten()
        .flatten()
        .any(|module| {
            let module = module.path();
            [
                "lib/puppet/functions",
                "lib/puppet/parser/functions",
                "templates",
            ]
            .iter()
            .any(|dir| module.join(dir).is_dir())
        })
}

/// What a Ruby host of `environment` runs with: its program kept
/// compiled under `$vardir/cache`, and the command's settings that module
/// Ruby reads.
pub(crate) fn ruby_settings(environment: &Environment) -> marionette_ruby::Settings {
    let mut settings =
        marionette_ruby::Settings::new(&environment.name, environment.modulepath.clone());
    settings.cache = Some(global().vardir().join("cache").join("ruby"));
    settings.puppet_settings = puppet_settings(global(), environment)
        .into_iter()
        .map(|(name, value)| (name.to_string(), marionette_values::Value::string(value)))
        .collect();
    settings
}

/// What the agent's run says of itself, over the command's settings: its
/// certificate name, its server, where its plugins were synced.
static RUN_SETTINGS: OnceLock<Vec<(&'static str, String)>> = OnceLock::new();

/// Sets the agent's own values of `certname`, `server` and `libdir`, for
/// the Ruby hosts started after.
pub(crate) fn set_run_settings(settings: Vec<(&'static str, String)>) {
    let _ = RUN_SETTINGS.set(settings);
}

/// The settings module Ruby reads as `Puppet[:name]` (extlib's
/// `cache_data` and stdlib's `puppet_vardir` fact read `vardir`,
/// corosync's shadow files too, vcsrepo's git `statedir`, augeas `libdir`),
/// with the values this command resolved, Puppet's derived ones among
/// them. The environment's name, `noop` and `strict` are the engine's to
/// answer as the run goes.
fn puppet_settings(env: &EnvArgs, environment: &Environment) -> Vec<(&'static str, String)> {
    let show = |path: PathBuf| path.display().to_string();
    let run = RUN_SETTINGS.get().map(Vec::as_slice).unwrap_or_default();
    let given = |name: &str, default: &dyn Fn() -> String| {
        run.iter()
            .find(|(n, _)| *n == name)
            .map(|(_, value)| value.clone())
            .or_else(|| crate::config::user_setting(name))
            .unwrap_or_else(default)
    };
    let vardir = env.vardir();
    let ssldir = env.ssldir();
    let certname = given("certname", &crate::host_name);
    let pem = |dir: &str, name: &str| show(ssldir.join(dir).join(format!("{name}.pem")));
    vec![
        ("confdir", show(env.confdir())),
        ("codedir", show(env.codedir())),
        ("vardir", show(vardir.clone())),
        ("ssldir", show(ssldir.clone())),
        ("logdir", show(env.logdir())),
        ("rundir", show(env.rundir())),
        ("statedir", show(vardir.join("state"))),
        ("libdir", given("libdir", &|| show(vardir.join("lib")))),
        ("environmentpath", show(env.environmentpath())),
        ("modulepath", join_path(&environment.modulepath)),
        ("basemodulepath", join_path(&env.basemodulepath())),
        ("server", given("server", &|| "puppet".to_string())),
        ("hostcert", pem("certs", &certname)),
        ("hostprivkey", pem("private_keys", &certname)),
        ("hostpubkey", pem("public_keys", &certname)),
        ("localcacert", pem("certs", "ca")),
        ("hostcrl", show(ssldir.join("crl.pem"))),
        ("certname", certname),
    ]
}

static PLUGINS: OnceLock<Plugins> = OnceLock::new();
static REGISTRY: OnceLock<Arc<Registry>> = OnceLock::new();

/// Chooses the command's environment; the first call wins. A command
/// that compiles (`ruby_ahead`) in an environment whose modules have Ruby
/// a compile runs (functions, templates) starts the Ruby host now, so
/// that Ruby loads beside the modules' discovery and the compile's first
/// work, rather than after them when the compile first needs it.
pub(crate) fn choose(args: &EnvArgs, ruby_ahead: bool) {
    let environment = args.resolve();
    if ruby_ahead && runs_ruby(&environment.modulepath) {
        marionette_ruby::RubyHost::prestart(&ruby_settings(&environment));
    }
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
/// and applying both need them. Type files read now that cannot be used
/// are reported once, as warnings; a module's Ruby type is read when
/// first used, and fails the resources that use it.
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

/// What every compile in one environment shares, made once: its module
/// path, Hiera, Ruby host, the agent's types and the modules' executable
/// functions. The server keeps one per environment it serves; `catalog
/// diff` one per side. Modules' files are parsed once per process and
/// kept by path (the evaluator's loader), so compiles sharing this share
/// parsed code too.
pub(crate) struct Shared {
    pub(crate) modulepath: Vec<PathBuf>,
    pub(crate) hiera: Arc<marionette_hiera::Hiera>,
    pub(crate) ruby: Arc<marionette_ruby::RubyHost>,
    pub(crate) agent_types: Vec<marionette_eval::AgentType>,
    pub(crate) functions: Arc<dyn marionette_eval::ExternalFunctions>,
}

impl Shared {
    /// Discovers the environment's plugins and builds what its compiles
    /// share.
    pub(crate) fn make(environment: Environment, hiera: marionette_hiera::Settings) -> Shared {
        let plugins = Plugins::discover(environment.clone());
        let ruby = Arc::new(marionette_ruby::RubyHost::new(ruby_settings(&environment)));
        let registry = build_registry(&plugins, &ruby);
        Shared {
            modulepath: environment.modulepath.clone(),
            hiera: marionette_hiera::Hiera::new(hiera),
            agent_types: crate::catalog::agent_types_of(&registry, &plugins),
            functions: plugins.functions(crate::resource::stderr_logger(false)),
            ruby,
        }
    }

    /// What to compile for a node of this environment, as a server
    /// compiles it: with the node's facts and trusted data.
    pub(crate) fn options(
        &self,
        manifests: Vec<marionette_diagnostics::SourceFile>,
        node: &str,
        environment: &str,
        facts: serde_json::Map<String, serde_json::Value>,
        trusted: serde_json::Value,
    ) -> marionette_eval::CompileOptions {
        marionette_eval::CompileOptions {
            manifests,
            modulepath: self.modulepath.clone(),
            node_name: node.to_string(),
            environment: environment.to_string(),
            facts,
            lazy_facts: None,
            strict_variables: false,
            server_name: crate::host_name(),
            agent_types: self.agent_types.clone(),
            local: false,
            external_functions: Some(self.functions.clone()),
            declared: None,
            hiera: Some(self.hiera.clone()),
            ruby: Some(self.ruby.clone()),
            trusted: Some(trusted),
            classification: None,
            excerpts: false,
            exported: None,
        }
    }
}

/// Stops the plugin processes the command started.
pub(crate) fn shutdown() {
    if let Some(plugins) = PLUGINS.get() {
        plugins.shutdown();
    }
}
