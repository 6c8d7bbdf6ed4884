$a = "smile \u{1F600} and \u{41}"
notice($a)
