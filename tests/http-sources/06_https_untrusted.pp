# An HTTPS server whose CA only the ssl_trust_store setting names.
file { '/tmp/mrtest-http/out/tls': source => "https://127.0.0.1:${facts['mrtest_https_port']}/sha256/motd" }
