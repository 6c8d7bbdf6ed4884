# @summary One setting of the application, in its own file.
#
# @param value The setting's value.
define appconf::setting (
  Variant[String, Integer] $value,
) {
  file { "/etc/app/conf.d/${title}.conf":
    ensure  => file,
    content => "${title} = ${value}\n",
  }
}
