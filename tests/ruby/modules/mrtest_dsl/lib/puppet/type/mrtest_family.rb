# A type whose property munges its value by the resource's provider, as
# firewall's `source` and `destination` make an address a network of the
# provider's family (iptables or ip6tables): Puppet sets `provider`, the
# one named or the type's default for the machine, before the other
# attributes.
Puppet::Type.newtype(:mrtest_family) do
  @doc = 'An address kept in a file, as a network of its provider family.'

  ensurable do
    defaultvalues
    defaultto :present
  end

  newparam(:name, namevar: true) do
    desc 'The file under /tmp/mrtest-rbtypes/family.'
  end

  newproperty(:address) do
    desc 'The address; a network of one host of the provider family.'

    munge do |value|
      case @resource[:provider]
      when :ipv4 then "#{value}/32"
      when :ip6 then "#{value}/128"
      else raise('cannot work out protocol family')
      end
    end
  end

  newproperty(:flags, array_matching: :all) do
    desc 'Flags, kept sorted (as firewall keeps its `state`).'

    validate do |value|
      raise ArgumentError, "Invalid flag #{value}" unless value.to_s =~ /\A\w+\z/
    end

    # Sorted as the provider reads them back, so that the order given
    # does not count. Only a list is taken, whole (as cs_colocation's
    # `primitives`): each of its values alone is not refused.
    def should=(values)
      raise Puppet::Error, 'flags must be a list' unless values.is_a?(Array)

      @should = super(values).sort_by(&:to_s)
    end
  end
end
