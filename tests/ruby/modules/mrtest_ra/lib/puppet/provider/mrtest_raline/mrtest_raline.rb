# frozen_string_literal: true

# A provider with its own `set`: it gets only the lines asked for, and
# compares tags as sets.
class Puppet::Provider::MrtestRaline::MrtestRaline
  def entries(path)
    return [] unless File.exist?(path)

    File.readlines(path, chomp: true).map do |l|
      text, tags = l.split('|', 2)
      { path: path, line: text, tags: tags.to_s.split(',') }
    end
  end

  def get(context, names = nil)
    context.debug("get #{names.inspect}")
    Array(names).flat_map do |name|
      entries(name[:path]).select { |e| e[:line] == name[:line] }.map do |e|
        e.merge(ensure: 'present', title: "#{e[:path]}:#{e[:line]}")
      end
    end
  end

  def insync?(_context, _name, property, is_hash, should_hash)
    return nil unless property == :tags

    is_hash[:tags].sort == should_hash[:tags].sort
  end

  def set(context, changes)
    changes.each do |name, change|
      path = name[:path]
      rest = entries(path).reject { |e| e[:line] == name[:line] }
      if change[:should][:ensure] == 'present'
        rest << { line: name[:line], tags: change[:should][:tags] }
        context.updated(name[:line], message: "Wrote #{path}")
      else
        context.deleted(name[:line], message: "Removed from #{path}")
      end
      File.write(path, rest.map { |e| "#{e[:line]}|#{e[:tags].join(',')}\n" }.join)
    end
  end
end
