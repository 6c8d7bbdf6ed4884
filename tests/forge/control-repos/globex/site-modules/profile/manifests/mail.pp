# Postfix relaying every message through the tier's smarthost, with SASL
# credentials (a Sensitive value: see lookup_options in the profile's data).
class profile::mail (
  String[1]                     $sasl_user,
  Sensitive[String[1]]          $sasl_password,
  Hash[String[1], Variant[String[1], Array[String[1]]]] $aliases = {},
  Enum['production', 'staging'] $tier = lookup('globex::tier'),
) {
  $relayhost = lookup("globex::tiers.${tier}.relayhost")

  include postfix

  postfix::config { 'relayhost':
    value => $relayhost,
  }
  postfix::hash { '/etc/postfix/sasl_passwd':
    ensure  => 'present',
    content => Sensitive("${relayhost} ${sasl_user}:${sasl_password.unwrap}\n"),
    mode    => '0600',
  }
  $aliases.each |String $alias, $recipient| {
    postfix::mailalias { $alias:
      recipient => $recipient,
    }
  }
}
