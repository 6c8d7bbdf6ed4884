$a = "nl\n tab\t sp\s cr\r dollar\$ quote\" bs\\"
notice($a)
