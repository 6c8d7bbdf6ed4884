$a = @("END"/tsrnuL$)
\t\s\r\n\u0041\$ \
end
END
notice($a)
