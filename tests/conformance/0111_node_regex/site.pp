node /^mrtest-(\w+)(\d\d)\.example\.com$/ {
  notify { 'mrtest-node-regex':
    message => "all=${0} role=${1} number=${2}",
  }
}
node default {
  notify { 'mrtest-node-default': }
}
