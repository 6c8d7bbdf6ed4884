# A custom fact file that stops the Ruby host as it loads: it is reported
# by its file, and the other files' facts still resolve.
warn 'mrtest: about to exit while loading'
exit!(3)
