notice('mrtest notice')
warning('mrtest warning')
notify { 'mrtest-after-logging': }
