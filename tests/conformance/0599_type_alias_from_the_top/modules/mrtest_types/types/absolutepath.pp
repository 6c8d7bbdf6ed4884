# Aliases named from the top, as tea's are.
type Mrtest_types::Absolutepath = Variant[::Mrtest_types::Unixpath, Pattern[/^[A-Z]:/]]
