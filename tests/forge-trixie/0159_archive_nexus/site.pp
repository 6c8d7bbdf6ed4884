# An artifact fetched from a Nexus repository by its Maven coordinates,
# with the checksum taken from Nexus and the file's owner set.
include archive
archive::nexus { '/srv/mrtest-app/mrtest-service.war':
  url        => 'https://nexus.example.com/nexus',
  gav        => 'com.example.mrtest:mrtest-service:1.4.2',
  repository => 'releases',
  packaging  => 'war',
  owner      => 'root',
  group      => 'root',
  mode       => '0644',
}
archive::nexus { '/srv/mrtest-app/mrtest-cli.jar':
  url             => 'https://nexus3.example.com',
  gav             => 'com.example.mrtest:mrtest-cli:2.0.0',
  repository      => 'maven-releases',
  classifier      => 'shaded',
  checksum_type   => 'sha1',
  use_nexus3_urls => true,
}
