notice(generate('/bin/echo; ls'))
