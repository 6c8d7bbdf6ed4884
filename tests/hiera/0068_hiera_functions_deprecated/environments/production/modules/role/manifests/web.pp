class role::web { notify { "mrtest-role-web": message => "role::web included by hiera_include" } }
