private
