class ssh (
  Hash[String, Scalar] $options,
  String $package = 'ssh',
  Optional[String] $banner = undef,
) {
  notify { 'mrtest-ssh': message => "package=${package} options=${options} banner=${banner}" }
}
