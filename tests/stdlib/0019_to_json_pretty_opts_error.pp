notice(to_json_pretty([1], false, { 'indent' => 2 }))
