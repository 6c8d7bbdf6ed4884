class role::broken {
  include profile::present
  include profile::absent_one
}
