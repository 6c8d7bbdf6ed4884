include profile::vhosts
