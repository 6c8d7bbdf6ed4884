Puppet::Type.type(:mrtest_bump).provide(:ruby) do
  desc 'Keeps the counters in /tmp/mrtest-rbtypes/kv.conf.'

  def bump
    path = '/tmp/mrtest-rbtypes/kv.conf'
    lines = File.exist?(path) ? File.readlines(path, chomp: true) : []
    key = "bumped_#{resource[:name]}"
    count = lines.find { |l| l.start_with?("#{key}=") }.to_s.split('=', 2).last.to_i + 1
    lines = lines.reject { |l| l.start_with?("#{key}=") } + ["#{key}=#{count}"]
    File.write(path, lines.map { |l| "#{l}\n" }.join)
    notice("counted #{count}")
  end
end
