# Fails the host itself: exits, or hangs. Called only by the command-line
# tests of how such failures are reported.
Puppet::Functions.create_function(:'mrtest_rb::misbehave') do
  dispatch :misbehave do
    param 'Enum[exit, hang]', :how
  end

  def misbehave(how)
    warn 'mrtest: about to misbehave'
    how == 'exit' ? exit!(7) : sleep(60)
  end
end
