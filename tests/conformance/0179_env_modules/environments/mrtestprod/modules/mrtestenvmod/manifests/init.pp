class mrtestenvmod {
  notify { 'mrtest-env-module': message => "env ${environment}" }
}
