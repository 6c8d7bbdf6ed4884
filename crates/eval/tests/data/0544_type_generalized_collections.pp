# type() of collections: the strings of a collection keep the range of
# their lengths when generalized, undef is absorbed, arrays of strings
# reduce to an Enum.
notice(type(['a', 'bb'], generalized))
notice(type(['a', 'bb'], reduced))
notice(type({ 'ab' => 1, 'cde' => 'x' }, generalized))
notice(type({ 'docroot' => 1 }, generalized))
notice(type({ 1 => 'abc', 2 => 'de' }, generalized))
notice(type([{ 'a' => 1 }, { 'bb' => 2 }], generalized))
notice(type({ 'k' => { 'docroot' => 'x', 'aliases' => ['y'] }, 'l' => { 'docroot' => 'z' } }, generalized))
notice(type([1, 'ab', true], generalized))
notice(type([['a']], generalized))
notice(type([1, undef], generalized))
notice(type(['a', undef, '', 'b'], generalized))
notice(type([undef], generalized))
