# Python 3 with pip, the headers and venv (python), a virtual environment
# (python::pyvenv) and packages installed in it (python::pip).
class { 'python':
  version => 'system',
  pip     => 'present',
  dev     => 'present',
  venv    => 'present',
}
python::pyvenv { '/opt/mrtest-venv':
  ensure => present,
  owner  => 'root',
  group  => 'root',
}
python::pip { 'requests':
  ensure     => '2.31.0',
  virtualenv => '/opt/mrtest-venv',
}
python::pip { 'flask':
  ensure     => present,
  virtualenv => '/opt/mrtest-venv',
}
