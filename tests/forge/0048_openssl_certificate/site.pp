# A self-signed certificate and its PKCS#12 export.
include openssl
openssl::certificate::x509 { 'foo':
  ensure       => present,
  country      => 'CH',
  organization => 'Example.com',
  commonname   => $facts['networking']['fqdn'],
  state        => 'Here',
  locality     => 'Myplace',
  unit         => 'MyUnit',
  altnames     => ['a.com', 'b.com', 'c.com'],
  email        => 'contact@foo.com',
  days         => 3456,
  base_dir     => '/var/www/ssl',
  owner        => 'www-data',
  password     => 'j(D$',
  force        => false,
}
openssl::export::pkcs12 { 'foo':
  ensure   => present,
  basedir  => '/var/www/ssl',
  pkey     => '/var/www/ssl/foo.key',
  cert     => '/var/www/ssl/foo.crt',
  out_pass => 'mypassout',
}
