Puppet::Type.type(:mrtest_crash).provide(:ruby) do
  desc 'Stops the host while reading the resource.'

  def exists?
    warn "mrtest: about to #{resource[:how]}"
    case resource[:how].to_s
    when 'exit' then exit!(7)
    when 'abort' then abort('mrtest: aborted')
    when 'segv' then Process.kill('SEGV', Process.pid)
    when 'hang' then sleep(600)
    when 'garbage'
      # What reaches the protocol's pipe: a module's `puts` goes to
      # standard error, so this is the only way to write garbage there.
      ObjectSpace.each_object(Marionette::Connection).first.instance_variable_get(:@output).write("garbage\n")
    end
    false
  end

  def create; end

  def destroy; end
end
