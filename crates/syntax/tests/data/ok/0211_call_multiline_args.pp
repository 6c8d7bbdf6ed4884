notice(
  'a',
  'b',
)
