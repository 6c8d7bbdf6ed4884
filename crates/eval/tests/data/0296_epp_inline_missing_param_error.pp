notice(inline_epp('<%- | String $who | -%>Hi <%= $who %>'))
