notice(bool2str('true'))
