notice(@(X).upcase)
  shout
  | X
