$r = /^[a-z0-9_\-]+\.(com|org)$/
notice($r)
