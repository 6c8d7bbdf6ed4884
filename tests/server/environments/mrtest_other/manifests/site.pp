# The environment the server test's classifier moves an agent to.
node default {
  file { "${facts['mrtest_srv_dir']}/env.txt":
    content => "${environment} ${role}\n",
  }
}
