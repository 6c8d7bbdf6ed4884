include profile::limits
