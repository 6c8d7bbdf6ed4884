validate_re('abc', ['^b'], 'custom message')
