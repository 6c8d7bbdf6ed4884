# filemapper only offers providers a Ruby mixin that maps whole files to
# resources; its manifests/init.pp holds comments and no class, so the one
# thing a manifest could write, including the module's main class, fails:
# Puppet cannot find class filemapper.
include filemapper
