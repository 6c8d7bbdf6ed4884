err('an error message')
notice('still running')
