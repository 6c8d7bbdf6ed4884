define mrtest_rb::holder (Array $list = []) {
  notice(template('mrtest_rb/mutate.erb'))
  notice(join($list, ', '))
  notice(getparam(Mrtest_rb::Holder[$title], 'list'))
}
