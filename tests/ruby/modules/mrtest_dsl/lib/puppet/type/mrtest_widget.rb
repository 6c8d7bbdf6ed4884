# A widget kept in a file of key=value lines, written with every part of
# the type DSL that Puppet's custom-types page teaches: an ensure with a
# block (default values, an extra value with its own block and event, an
# alias, its own retrieve), a namevar other than name, values given as
# symbols and a regex with validate and munge calling super, a property
# matching whole arrays with its own insync? and munged elements, change
# messages of its own, features with methods, required features, a
# boolean parameter, a global validate, automatic relationships and a
# pre-run check.
require 'puppet/parameter/boolean'

Puppet::Type.newtype(:mrtest_widget) do
  @doc = %q{A widget kept in a file of key=value lines.

    Example:

        mrtest_widget { '/tmp/mrtest-rbtypes/w1.widget':
          color => blue,
        }
  }

  feature :paint, 'The ability to paint.', methods: [:paint]
  feature :draw, 'The ability to draw.'

  ensurable do
    desc 'Whether the widget exists, and whether it is enabled.'
    defaultvalues
    newvalue(:disabled, event: :widget_disabled) do
      provider.disable
    end
    aliasvalue(:off, :disabled)
    defaultto :present

    def retrieve
      provider.state
    end

    # A disabled widget is present too.
    def insync?(is)
      return true if should == :present && is == :disabled

      super
    end
  end

  newparam(:path, namevar: true) do
    desc 'Where the widget lives.'
    validate do |value|
      raise ArgumentError, "mrtest_widget: path must be absolute, not '#{value}'" unless value.start_with?('/')
    end
  end

  newproperty(:color) do
    desc 'Your color, and stuff.'
    newvalues(:blue, :red, /^[a-z]+$/)

    validate do |value|
      if value == 'green'
        raise ArgumentError, "Everyone knows green widgets don't have enough RAM"
      else
        super(value)
      end
    end

    munge do |value|
      case value
      when 'mauve', 'violet' then :purple
      else super(value)
      end
    end
  end

  newproperty(:labels, array_matching: :all) do
    desc 'Labels, in any order.'
    munge(&:downcase)

    def insync?(is)
      is.is_a?(Array) && is.sort == should.sort
    end

    def should_to_s(value)
      "[#{Array(value).join(' ')}]"
    end

    def is_to_s(value) # rubocop:disable Naming/PredicateName
      "[#{Array(value).join(' ')}]"
    end
  end

  newproperty(:size) do
    desc 'How big.'
    validate do |value|
      raise ArgumentError, "mrtest_widget: size must be a number, not '#{value}'" unless value.to_s =~ /\A\d+\z/
    end
    munge(&:to_i)

    def change_to_s(is, should)
      "resized from #{is} to #{should}"
    end
  end

  newproperty(:shade, required_features: :draw) do
    desc 'A shade, for providers that draw.'
  end

  newparam(:brush, required_features: %w[paint]) do
    desc 'A brush, for providers that paint.'
  end

  newparam(:force, boolean: true, parent: Puppet::Parameter::Boolean) do
    desc 'Whether a big widget is allowed.'
  end

  validate do
    raise ArgumentError, 'mrtest_widget: a size over 10 needs force' if self[:size].to_i > 10 && !force?
  end

  autorequire(:file) do
    File.dirname(self[:path])
  end

  def pre_run_check
    raise Puppet::Error, "mrtest_widget: #{self[:path]} is in a forbidden place" if self[:path].include?('/forbidden/')
  end
end
