# The conversation with the engine: one JSON object per line on the
# protocol pipe, requests both ways, nested. While the host waits for the
# answer to a question it asked (a variable, a function call), the engine
# may ask it something in turn (to run another Ruby function); that
# request is served on the spot, and the wait goes on.

require 'monitor'

module Marionette
  # A failure the engine reported while answering the host.
  class EngineError < StandardError; end

  # The protocol itself broke: nothing sensible can follow.
  class ProtocolError < StandardError; end

  class Connection
    def initialize(input, output, handler)
      @input = input
      @output = output
      @handler = handler
      @next_id = 0
      # Custom facts resolve on threads of their own: one question at a
      # time, and whole lines. A thread asking serves what the engine asks
      # in turn, so the lock is reentrant.
      @lock = Monitor.new
      # Requests whose answers the host stopped waiting for, and a line
      # read but not yet handled.
      @abandoned = {}
      @unread = nil
    end

    # Serves the engine's requests until it says to stop or closes the pipe.
    def serve
      while (message = read)
        next if stale?(message)

        raise ProtocolError, "expected a request, got #{message.inspect[0, 200]}" unless message['method']

        serve_request(message)
      end
    end

    # Asks the engine something and waits for its answer.
    def call(method, params)
      @lock.synchronize { ask(method, params) }
    end

    def log(level, message, source = nil)
      params = { 'level' => level.to_s, 'message' => message.to_s }
      params['source'] = source.to_s if source
      return @captured << params if @captured

      write('method' => 'log', 'params' => params)
    end

    # Tells the engine which custom fact file (and fact) runs now, or
    # none: if the host stops there, the engine names them.
    def running(params)
      write('method' => 'running', 'params' => params)
    end

    # Keeps what is logged while the block runs in `logs` instead of
    # sending it, for work done ahead of the time its messages belong to.
    def capturing(logs)
      outer = @captured
      @captured = logs
      yield
    ensure
      @captured = outer
    end

    private

    def ask(method, params)
      @next_id += 1
      id = "h#{@next_id}"
      write('id' => id, 'method' => method, 'params' => params)
      answered = false
      loop do
        message = read
        raise ProtocolError, "the engine closed the pipe while the host waited for '#{method}'" if message.nil?

        if message['method']
          serve_request(message)
        elsif message['id'] == id
          answered = true
          error = message['error']
          raise EngineError, error['message'].to_s if error

          return message['result'] || {}
        elsif !stale?(message)
          raise ProtocolError, "an answer to another request: #{message.inspect[0, 200]}"
        end
      end
    ensure
      # Given up, as when a provider's own `Timeout` fires while the engine
      # runs its command (corosync's wait for its cluster): the answer
      # still comes, and is dropped then, as Puppet's run goes on.
      @abandoned[id] = true unless answered
    end

    # An answer to a request the host gave up.
    def stale?(message)
      !message['method'] && @abandoned.delete(message['id'])
    end

    def serve_request(message)
      id = message['id']
      begin
        result = @handler.handle(message['method'], message['params'] || {})
        write('id' => id, 'result' => result)
      rescue ProtocolError
        raise
      rescue SystemExit
        raise
      rescue Exception => e # rubocop:disable Lint/RescueException
        write('id' => id, 'error' => Marionette.describe_error(e))
      end
      exit 0 if message['method'] == 'shutdown'
    end

    # One whole line: a `Timeout` firing meanwhile waits until the line is
    # in (a line cut in two would break every answer after it), and the
    # line is then kept for the next read.
    def read
      Thread.handle_interrupt(Object => :never) { @unread = @input.gets } if @unread.nil?
      line = @unread
      @unread = nil
      return nil if line.nil?

      JSON.parse(line)
    rescue JSON::ParserError => e
      raise ProtocolError, "a line that is not JSON: #{e.message[0, 200]}"
    end

    def write(message)
      text = JSON.generate(message)
      @lock.synchronize do
        @output.write(text, "\n")
        @output.flush
      end
    end
  end

  class << self
    attr_accessor :engine

    # An exception as the engine reports it: the message, the class, and
    # where in a module's Ruby (not the host's) it was raised.
    def describe_error(error)
      where = (error.backtrace || []).find { |l| !l.start_with?('-e:', '<internal:') }
      described = { 'message' => error.message.to_s, 'class' => error.class.name }
      if where && (m = where.match(/\A(.*?):(\d+):/))
        described['file'] = m[1]
        described['line'] = m[2].to_i
      end
      described
    end
  end
end
