include profile::apps
