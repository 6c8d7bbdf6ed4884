$r = [@(A), @(B)]
first text
A
second text
B
notice($r)
