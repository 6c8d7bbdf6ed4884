class mrtest_contained { }
class mrtest_included { }
class mrtest_holder {
  contain mrtest_contained
  include mrtest_included
}
include mrtest_holder
