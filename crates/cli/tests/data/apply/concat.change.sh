# Edits an assembled file behind the runs' back: the next run puts the
# fragments back, keeping the edited content in the filebucket.
echo 'edited by hand' >> /tmp/mrtest-apply/motd
