include profile::needs_missing
