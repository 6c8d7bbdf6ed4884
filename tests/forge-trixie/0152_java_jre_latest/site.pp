# Only the headless runtime, kept at the newest version the repositories
# offer (README: "distribution => 'jre', version => 'latest'").
class { 'java':
  distribution => 'jre',
  version      => 'latest',
}
