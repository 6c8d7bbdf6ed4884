include profile::badcall
