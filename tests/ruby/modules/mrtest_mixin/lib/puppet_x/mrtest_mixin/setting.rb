# The attributes of an INI-like setting, declared by a method the type
# calls, as OpenStack's modules share them between their config types.
module PuppetX
  module MrtestMixin
    module Setting
      def declare_setting
        ensurable

        newparam(:name, :namevar => true) do
          desc 'section/key of the setting.'
          newvalues(/\S+\/\S+/)
        end

        newproperty(:value) do
          desc 'The setting value.'
          munge { |value| value.to_s.strip }
        end
      end
    end
  end
end
