notice(inline_epp('a<%# comment %>b <%% literal %>'))
