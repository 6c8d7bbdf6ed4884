notice(@(A), @("B"))
first
| A
second ${1 + 1}
- B
