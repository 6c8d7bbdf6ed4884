notice(generate('/nonexistent/cmd'))
