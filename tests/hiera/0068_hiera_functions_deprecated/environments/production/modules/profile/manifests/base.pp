class profile::base { notify { "mrtest-profile-base": message => "profile::base included by hiera_include" } }
