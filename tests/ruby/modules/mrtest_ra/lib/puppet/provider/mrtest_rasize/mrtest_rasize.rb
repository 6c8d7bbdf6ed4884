# frozen_string_literal: true

# Reads and writes /tmp/mrtest-rbtypes/sizes.conf, `NAME SIZE LABEL` a
# line. Its `set` requires the `noop:` argument a provider that supports
# noop is given.
class Puppet::Provider::MrtestRasize::MrtestRasize
  def path
    '/tmp/mrtest-rbtypes/sizes.conf'
  end

  def get(_context)
    return [] unless File.exist?(path)

    File.readlines(path, chomp: true).map do |line|
      name, size, label = line.split(' ', 3)
      { name: name, ensure: 'present', size: Integer(size), label: label }
    end
  end

  def set(context, changes, noop:)
    lines = get(context).to_h { |entry| [entry[:name], entry] }
    changes.each do |name, change|
      should = change[:should]
      context.notice("Setting '#{name}' (noop: #{noop})")
      next if noop

      if should[:ensure] == 'absent'
        lines.delete(name)
      else
        lines[name] = should
      end
    end
    return if noop

    File.write(path, lines.values.map { |e| "#{e[:name]} #{e[:size]} #{e[:label]}\n" }.join)
  end
end
