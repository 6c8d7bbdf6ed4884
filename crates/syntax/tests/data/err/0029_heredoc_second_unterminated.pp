notice(@(A), @(B))
one
A
two
