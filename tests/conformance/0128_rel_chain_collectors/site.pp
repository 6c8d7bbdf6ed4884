@package { 'mrtest-virt-pkg': ensure => installed }
package { 'mrtest-real-pkg': ensure => installed }
service { 'mrtest-coll-svc': ensure => running }
Package <| |> -> Service <| title == 'mrtest-coll-svc' |>
