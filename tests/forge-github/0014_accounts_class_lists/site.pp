# The accounts class: groups and users from hashes, with defaults applied
# to every user (a bashrc and a group membership).
class { 'accounts':
  group_list    => {
    'mrtest-devs' => { 'gid' => 4100 },
  },
  user_defaults => {
    'groups'         => ['mrtest-devs'],
    'bashrc_content' => "alias ll='ls -l'\n",
    'managevim'      => false,
  },
  user_list     => {
    'mrtest-bob'   => { 'uid' => 4101, 'comment' => 'Bob Example' },
    'mrtest-carol' => { 'uid' => 4102, 'comment' => 'Carol Example', 'home_mode' => '0750' },
  },
}
