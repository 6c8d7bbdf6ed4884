# Index settings, a filesystem snapshot repository and a nightly snapshot
# lifecycle policy, all declared through the class's hashes.
class { 'elasticsearch':
  manage_repo           => false,
  config                => {
    'path.repo' => ['/srv/mrtest-es/backups'],
  },
  indices               => {
    'mrtest-index' => {
      'settings' => {
        'index' => {
          'number_of_replicas' => 0,
        },
      },
    },
  },
  snapshot_repositories => {
    'mrtest-backups' => {
      'repository_type'   => 'fs',
      'location'          => '/srv/mrtest-es/backups',
      'max_restore_rate'  => '20mb',
      'max_snapshot_rate' => '80mb',
    },
  },
  slm_policies          => {
    'mrtest-nightly' => {
      'content' => {
        'schedule'   => '0 30 1 * * ?',
        'name'       => '<nightly-snap-{now/d}>',
        'repository' => 'mrtest-backups',
        'config'     => {
          'indices' => ['*'],
        },
        'retention'  => {
          'expire_after' => '30d',
        },
      },
    },
  },
}
