notice(['it\'s', "say \"hi\""])
notice(String(['it\'s', "say \"hi\""]))
notice({'k' => "line\nbreak"})
