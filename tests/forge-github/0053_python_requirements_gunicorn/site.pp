# A requirements file installed into a virtual environment
# (python::requirements) and pip's own configuration written by
# python::dotfile.
include python
python::pyvenv { '/srv/mrtest-app/venv':
  ensure => present,
}
file { '/srv/mrtest-app/requirements.txt':
  ensure  => file,
  content => "gunicorn==22.0.0\nflask==3.0.3\n",
}
python::requirements { '/srv/mrtest-app/requirements.txt':
  virtualenv => '/srv/mrtest-app/venv',
  require    => File['/srv/mrtest-app/requirements.txt'],
}
python::dotfile { '/etc/pip.conf':
  ensure => present,
  config => {
    'global' => {
      'index-url' => 'https://pypi.example.com/simple',
      'timeout'   => '60',
    },
  },
}
