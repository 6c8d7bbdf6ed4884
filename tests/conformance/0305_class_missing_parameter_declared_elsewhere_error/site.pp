node default {
  include foo::bar
}
