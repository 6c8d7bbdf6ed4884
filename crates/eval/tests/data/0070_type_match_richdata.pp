notice(/x/ =~ RichData)
notice(Timestamp('2020-01-01T00:00:00Z') =~ RichData)
notice({1 => Integer} =~ RichData)
notice(default =~ RichData)
