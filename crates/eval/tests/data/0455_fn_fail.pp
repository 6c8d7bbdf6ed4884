notice('before')
fail('custom failure message')
notice('after')
