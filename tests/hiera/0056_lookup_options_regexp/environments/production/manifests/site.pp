include profile::web, profile::db
