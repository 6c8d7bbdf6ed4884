# Security headers on the response, request headers passed to the
# application and rewrite rules with conditions and a rewrite map.
class { 'apache':
  default_vhost => false,
}
apache::vhost { 'mrtest-rewrite.example.com':
  port            => 80,
  docroot         => '/srv/mrtest-www/rewrite',
  headers         => [
    'always set X-Frame-Options "SAMEORIGIN"',
    'always set X-Content-Type-Options "nosniff"',
    'always set Referrer-Policy "strict-origin-when-cross-origin"',
  ],
  request_headers => [
    'set X-Forwarded-Proto "http"',
    'unset Proxy',
  ],
  rewrites        => [
    {
      'comment'      => 'Lynx or Mozilla v1/2',
      'rewrite_cond' => ['%{HTTP_USER_AGENT} ^Lynx/ [OR]', '%{HTTP_USER_AGENT} ^Mozilla/[12]'],
      'rewrite_rule' => ['^index\.html$ welcome.html'],
    },
    {
      'comment'      => 'Rewrite to lower case',
      'rewrite_cond' => ['%{REQUEST_URI} [A-Z]'],
      'rewrite_map'  => ['lc int:tolower'],
      'rewrite_rule' => ['(.*) ${lc:$1} [R=301,L]'],
    },
  ],
}
