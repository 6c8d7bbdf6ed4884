# A path of components without NUL (the pattern holds \0).
type Mrtest_types::Unixpath = Pattern[/^\/([^\/\0]+(\/)?)+$/]
