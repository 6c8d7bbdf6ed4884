# frozen_string_literal: true

require 'puppet/resource_api/simple_provider'

# Reads and writes /tmp/mrtest-rbtypes/ra.conf: `KEY=VALUE;WEIGHT;ENABLED # NOTE`.
class Puppet::Provider::MrtestRakv::MrtestRakv < Puppet::ResourceApi::SimpleProvider
  def path
    '/tmp/mrtest-rbtypes/ra.conf'
  end

  def lines
    File.exist?(path) ? File.readlines(path, chomp: true) : []
  end

  def get(context)
    context.debug("Reading #{path}")
    lines.map do |line|
      body, _note = line.split(' # ', 2)
      key, rest = body.split('=', 2)
      value, weight, enabled = rest.to_s.split(';', 3)
      {
        name: key,
        ensure: 'present',
        value: value,
        weight: weight.to_s.empty? ? nil : Integer(weight),
        enabled: enabled == 'on',
        checksum: line.length.to_s,
      }
    end
  end

  def canonicalize(_context, resources)
    resources.each do |r|
      r[:value] = r[:value].downcase if r[:value].is_a?(String)
    end
  end

  def render(name, should)
    line = "#{name}=#{should[:value]};#{should[:weight]};#{should[:enabled] ? 'on' : 'off'}"
    should[:note] ? "#{line} # #{should[:note]}" : line
  end

  def write(kept)
    File.write(path, kept.map { |l| "#{l}\n" }.join)
  end

  def create(context, name, should)
    raise ArgumentError, "the value 'forbidden' may not be written" if should[:value] == 'forbidden'

    context.notice("Creating '#{name}' with #{should[:value].inspect}")
    write(lines + [render(name, should)])
  end

  def update(context, name, should)
    context.notice("Updating '#{name}' with #{should[:value].inspect}")
    write(lines.map { |l| l.start_with?("#{name}=") ? render(name, should) : l })
  end

  def delete(context, name)
    context.notice("Deleting '#{name}'")
    write(lines.reject { |l| l.start_with?("#{name}=") })
  end
end
