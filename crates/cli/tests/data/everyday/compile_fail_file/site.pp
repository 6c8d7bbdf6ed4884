notice('before')
fail('mrtest boom')
