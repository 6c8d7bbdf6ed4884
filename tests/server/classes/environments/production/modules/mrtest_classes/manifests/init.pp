# Parameters of every kind a console shows: typed and not, defaults that
# JSON can hold and those it cannot.
class mrtest_classes (
  String $plain,
  $untyped = 'as written',
  Integer[0, 10] $count = 3,
  Optional[String[1]] $maybe = undef,
  Variant[Array[String],Boolean] $either = false,
  Enum["a", 'b'] $choice = 'a',
  Array[String] $list = ['one', "two"],
  Hash[String, Integer] $map = { 'x' => 1, y => -2 },
  Stdlib::Absolutepath $path = '/tmp',
  Float $ratio = 0.5,
  String $computed = "${facts['os']['family']}-x",
  String $called = lookup('mrtest::key'),
  Pattern[/\A\d+\z/] $digits = '42',
  $word = bare,
) {
  class mrtest_classes::nested ($inner = true) {}
}
