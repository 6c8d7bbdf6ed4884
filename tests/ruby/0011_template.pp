# A module's ERB template: every visible variable as an instance variable,
# scope lookups, functions, and the - trim mode.
include mrtest_rb
