notice(to_json_pretty([1], 'yes'))
