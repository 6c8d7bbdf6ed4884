//! The Ruby host against the system's Ruby, with a small engine standing
//! in for the evaluator: functions of both APIs, nested calls, lambdas,
//! templates, type descriptions, and every way the host can fail.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use marionette_ruby::{
    Answer, Api, Call, Context, Engine, FunctionSpec, HostError, ParamKind, Question, RubyHost,
    Settings, Template,
};
use marionette_values::{PHash, PType, Value};

fn modules() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/modules")
}

fn module_file(relative: &str) -> PathBuf {
    modules().join("mrtest_ruby").join(relative)
}

fn host() -> RubyHost {
    assert!(
        std::process::Command::new("ruby")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success()),
        "these tests need Ruby 3.1 or later: apt-get install ruby"
    );
    RubyHost::new(Settings::new("production", vec![modules()]))
}

/// The engine's side: a few variables, `upcase` as a built-in, module
/// functions run back through the host, and a lambda that doubles.
struct Fake<'h> {
    host: &'h RubyHost,
    logs: Vec<(String, String)>,
}

impl Fake<'_> {
    fn call(
        &mut self,
        name: &str,
        args: &[Value],
        block: Option<usize>,
    ) -> Result<Value, HostError> {
        let host = self.host;
        let (file, api) = match name {
            "mrtest_old" => (
                module_file("lib/puppet/parser/functions/mrtest_old.rb"),
                Api::V3,
            ),
            _ => {
                let short = name.trim_start_matches("mrtest_ruby::");
                (
                    module_file(&format!("lib/puppet/functions/mrtest_ruby/{short}.rb")),
                    Api::V4,
                )
            }
        };
        let spec = host.load_function(name, &file, api, self)?;
        // The fixtures' dispatchers are told apart by their first argument.
        let dispatcher = match (&spec, args.first()) {
            (FunctionSpec::V4 { dispatchers, .. }, Some(Value::Array(_)))
                if dispatchers.len() > 1 =>
            {
                1
            }
            _ => 0,
        };
        host.call_function(
            &Call {
                name,
                api,
                dispatcher,
                args,
                block,
                ruby_block: false,
                context: Context {
                    module: Some("mrtest_caller".into()),
                    scope: "Class[main]".into(),
                },
            },
            self,
        )
    }
}

impl Engine for Fake<'_> {
    fn answer(&mut self, question: Question) -> Result<Answer, String> {
        Ok(match question {
            Question::LookupVar(name) => Answer::Variable(match name.trim_start_matches("::") {
                "greeting" => Some(Value::string("hi")),
                "servers" => Some(Value::array(vec![Value::string("a"), Value::string("b")])),
                _ => None,
            }),
            Question::Call { name, args, .. } if name == "upcase" => match args.first() {
                Some(Value::String(s)) => Answer::Value(Value::string(s.to_uppercase())),
                Some(Value::Array(items)) => match items.first() {
                    Some(Value::String(s)) => Answer::Value(Value::string(s.to_uppercase())),
                    _ => return Err("upcase: not a string".into()),
                },
                _ => return Err("upcase: not a string".into()),
            },
            Question::Call { name, args, .. } if name.starts_with("mrtest") => {
                Answer::Value(self.call(&name, &args, None).map_err(|e| e.to_string())?)
            }
            Question::Call { name, .. } => return Err(format!("Unknown function: '{name}'")),
            Question::Yield(args) => match args.first() {
                Some(Value::String(s)) => Answer::Value(Value::string(format!("{s}{s}"))),
                _ => Answer::Value(Value::Undef),
            },
            other => return Err(format!("not expected here: {other:?}")),
        })
    }

    fn log(&mut self, level: &str, _source: Option<&str>, message: &str) {
        self.logs.push((level.to_string(), message.to_string()));
    }
}

#[test]
fn a_4x_function_describes_its_dispatchers_and_answers() {
    let host = host();
    let mut engine = Fake {
        host: &host,
        logs: Vec::new(),
    };
    let file = module_file("lib/puppet/functions/mrtest_ruby/greet.rb");
    let spec = host
        .load_function("mrtest_ruby::greet", &file, Api::V4, &mut engine)
        .unwrap();
    let FunctionSpec::V4 { dispatchers, .. } = spec else {
        panic!("not a 4.x function: {spec:?}")
    };
    assert_eq!(dispatchers.len(), 2);
    assert_eq!(dispatchers[0].params[1].kind, ParamKind::Optional);
    assert_eq!(dispatchers[0].params[1].type_text, "Integer[1]");
    assert_eq!(dispatchers[0].returns.as_deref(), Some("String"));
    assert_eq!(
        dispatchers[1].block.as_ref().unwrap().type_text,
        "Callable[1,1]"
    );
    let value = engine
        .call(
            "mrtest_ruby::greet",
            &[Value::string("bob"), Value::Integer(2)],
            None,
        )
        .unwrap();
    assert_eq!(value, Value::string("hello BOB, hello BOB"));
    // The second dispatcher yields to the caller's lambda.
    let names = Value::array(vec![Value::string("x"), Value::string("y")]);
    let value = engine
        .call("mrtest_ruby::greet", &[names], Some(1))
        .unwrap();
    assert_eq!(
        value,
        Value::array(vec![Value::string("xx"), Value::string("yy")])
    );
}

#[test]
fn calls_nest_through_the_engine() {
    let host = host();
    let mut engine = Fake {
        host: &host,
        logs: Vec::new(),
    };
    let value = engine
        .call("mrtest_ruby::nested", &[Value::string("ann")], None)
        .unwrap();
    assert_eq!(
        value,
        Value::string("hi: hello ANN, hello ANN from mrtest_caller")
    );
}

#[test]
fn values_make_the_round_trip_through_ruby() {
    let host = host();
    let mut engine = Fake {
        host: &host,
        logs: Vec::new(),
    };
    let mut odd = PHash::default();
    odd.insert(Value::Integer(1), Value::Default);
    odd.insert(
        Value::string("s"),
        Value::Sensitive(Box::new(Value::string("pw"))),
    );
    let values = vec![
        Value::Undef,
        Value::Default,
        Value::Integer(i64::MIN),
        Value::Float(0.1),
        Value::string("ünï\ncode"),
        Value::Regexp(marionette_values::Regex::new("^a+$").unwrap()),
        Value::Timespan(marionette_values::Timespan(3_000_000_001)),
        Value::Timestamp(marionette_values::Timestamp(1_600_000_000_000_000_001)),
        Value::Binary(std::sync::Arc::new(vec![0, 1, 254])),
        Value::hash(odd),
        Value::Type(Box::new(PType::Alias {
            name: "Mrtest::Port".into(),
            target: Box::new(marionette_values::parse_type("Integer[1, 65535]").unwrap()),
        })),
    ];
    for value in values {
        let back = engine
            .call("mrtest_ruby::echo", std::slice::from_ref(&value), None)
            .unwrap();
        assert_eq!(back, value);
    }
}

#[test]
fn rubygems_is_there_as_in_puppets_ruby_and_loaded_whole_only_when_needed() {
    let host = host();
    let mut engine = Fake {
        host: &host,
        logs: Vec::new(),
    };
    let value = engine.call("mrtest_ruby::gems", &[], None).unwrap();
    let flags = |items: &[bool]| Value::array(items.iter().map(|b| Value::Boolean(*b)).collect());
    // Versions and requirements answer as RubyGems' own (2.10 > 2.9.1,
    // 1.10 within [1.2, 2)) without RubyGems loaded whole; naming anything
    // else of it loads it.
    assert_eq!(
        value,
        Value::array(vec![
            flags(&[true, true, false]),
            flags(&[true, true, true])
        ])
    );
}

#[test]
fn a_3x_function_gets_3x_arguments_and_checks_its_arity() {
    let host = host();
    let mut engine = Fake {
        host: &host,
        logs: Vec::new(),
    };
    let value = engine
        .call(
            "mrtest_old",
            &[Value::Undef, Value::array(vec![Value::Undef])],
            None,
        )
        .unwrap();
    assert_eq!(value, Value::string("\"\" [[nil]] hi "));
    let error = engine.call("mrtest_old", &[], None).unwrap_err();
    assert_eq!(
        error.to_string(),
        "mrtest_old(): Wrong number of arguments given (0 for minimum 1)"
    );
}

#[test]
fn templates_see_variables_scope_and_functions() {
    let host = host();
    let mut engine = Fake {
        host: &host,
        logs: Vec::new(),
    };
    let mut variables = PHash::default();
    variables.insert(
        Value::string("servers"),
        Value::array(vec![Value::string("a"), Value::string("b")]),
    );
    let context = Context::default();
    let file = module_file("templates/page.erb");
    let text = host
        .render(Template::File(&file), &variables, &context, &mut engine)
        .unwrap()
        .text;
    assert_eq!(
        text,
        "server a\nserver b\ngreeting=hi hi\nup=X Y\nmissing=nil\n"
    );
    let inline = host
        .render(
            Template::Inline("<%= @servers.join('+') -%>\n!<% @servers << 'c' %>"),
            &variables,
            &context,
            &mut engine,
        )
        .unwrap();
    assert_eq!(inline.text, "a+b!");
    // The template changed the array in place: the new value comes back.
    assert_eq!(
        inline.changed,
        [(
            "servers".to_string(),
            Value::array(vec![
                Value::string("a"),
                Value::string("b"),
                Value::string("c")
            ])
        )]
    );
    let broken = module_file("templates/broken.erb");
    match host.render(Template::File(&broken), &variables, &context, &mut engine) {
        Err(HostError::Raised {
            template_line,
            class,
            ..
        }) => {
            assert_eq!(template_line, Some(2));
            assert_eq!(class, "NoMethodError");
        }
        other => panic!("expected a failure at line 2, got {other:?}"),
    }
}

#[test]
fn a_template_is_kept_compiled_and_the_next_host_renders_it_without_erb() {
    host();
    let cache = tempfile::tempdir().unwrap();
    let templates = tempfile::tempdir().unwrap();
    let file = templates.path().join("mrtest-kept.erb");
    std::fs::write(
        &file,
        "<% @servers.each do |s| -%>\nserver <%= s %>\n<% end -%>\nerb=<%= $LOADED_FEATURES.any? { |f| f.end_with?('/erb.rb') } %>\n<%= @missing.upcase %>\n",
    )
    .unwrap();
    let mut variables = PHash::default();
    variables.insert(
        Value::string("servers"),
        Value::array(vec![Value::string("a"), Value::string("b")]),
    );
    let render = |variables: &PHash| {
        let mut settings = Settings::new("production", vec![modules()]);
        settings.cache = Some(cache.path().to_path_buf());
        let host = RubyHost::new(settings);
        let mut engine = Fake {
            host: &host,
            logs: Vec::new(),
        };
        host.render(
            Template::File(&file),
            variables,
            &Context::default(),
            &mut engine,
        )
    };
    // Line 5 calls a method of nil: the same failure, at the same line,
    // whether the template was compiled now or loaded compiled.
    for erb_loaded in [true, false] {
        match render(&variables) {
            Err(HostError::Raised {
                template_line,
                class,
                ..
            }) => {
                assert_eq!(template_line, Some(5), "erb loaded: {erb_loaded}");
                assert_eq!(class, "NoMethodError");
            }
            other => panic!("expected a failure at line 5, got {other:?}"),
        }
    }
    variables.insert(Value::string("missing"), Value::string("x"));
    // The first host compiled the template with ERB and kept it; this one
    // renders it from the cache, without loading ERB.
    let text = render(&variables).unwrap().text;
    assert_eq!(text, "server a\nserver b\nerb=false\nX\n");
    // A changed template is compiled again, and replaces what was kept.
    std::fs::write(&file, "changed <%= @missing %>\n").unwrap();
    assert_eq!(render(&variables).unwrap().text, "changed x\n");
    let kept = std::fs::read_dir(cache.path().join("templates"))
        .unwrap()
        .count();
    assert_eq!(kept, 1, "one entry for the template's file");
}

#[test]
fn a_type_is_described_from_its_file() {
    let host = host();
    let mut engine = Fake {
        host: &host,
        logs: Vec::new(),
    };
    let spec = host
        .describe_type(
            "mrtest_entry",
            &module_file("lib/puppet/type/mrtest_entry.rb"),
            &mut engine,
        )
        .unwrap();
    let names: Vec<(&str, bool, bool)> = spec
        .attributes
        .iter()
        .map(|a| (a.name.as_str(), a.namevar, a.property))
        .collect();
    assert_eq!(
        names,
        [
            ("ensure", false, true),
            ("key", true, false),
            ("path", true, false),
            ("value", false, true),
            ("force", false, false)
        ]
    );
    assert!(spec.ensurable);
    assert!(spec.attributes[4].boolean);
    assert_eq!(
        spec.title_patterns[0],
        (
            "(?-mix:^([^:]+):(.*)$)".to_string(),
            vec!["path".to_string(), "key".to_string()]
        )
    );
}

#[test]
fn ruby_exceptions_fail_the_call_and_name_the_file() {
    let host = host();
    let mut engine = Fake {
        host: &host,
        logs: Vec::new(),
    };
    match engine.call("mrtest_ruby::fail", &[Value::string("raise")], None) {
        Err(HostError::Raised {
            message,
            class,
            file,
            line,
            ..
        }) => {
            assert_eq!(message, "mrtest failure");
            assert_eq!(class, "Puppet::ParseError");
            assert!(file.unwrap().ends_with("mrtest_ruby/fail.rb"));
            assert_eq!(line, Some(9));
        }
        other => panic!("expected a Ruby exception, got {other:?}"),
    }
    // An engine failure passes through the Ruby code and is known as such.
    match engine.call("mrtest_ruby::fail", &[Value::string("engine")], None) {
        Err(HostError::Raised {
            message,
            from_engine,
            ..
        }) => {
            assert_eq!(message, "Unknown function: 'nosuchfunction'");
            assert!(from_engine);
        }
        other => panic!("expected the engine's failure, got {other:?}"),
    }
    // A value Puppet has no type for is refused, and the host goes on.
    let error = engine
        .call("mrtest_ruby::fail", &[Value::string("object")], None)
        .unwrap_err();
    assert!(error.to_string().contains("Ruby class Object"), "{error}");
    // What a function prints goes to standard error, not into the protocol.
    let value = engine
        .call("mrtest_ruby::fail", &[Value::string("print")], None)
        .unwrap();
    assert_eq!(value, Value::string("still fine"));
    assert!(host.running());
}

#[test]
fn a_crash_or_garbage_stops_the_host_and_the_next_call_starts_another() {
    let host = host();
    let mut engine = Fake {
        host: &host,
        logs: Vec::new(),
    };
    let error = engine
        .call("mrtest_ruby::fail", &[Value::string("crash")], None)
        .unwrap_err();
    assert_eq!(
        error,
        HostError::Broken("the Ruby host exited with status 7".into())
    );
    assert!(!host.running());
    let error = engine
        .call("mrtest_ruby::fail", &[Value::string("garbage")], None)
        .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("printed something that is not the protocol: \"garbage\""),
        "{error}"
    );
    let value = engine
        .call("mrtest_ruby::greet", &[Value::string("z")], None)
        .unwrap();
    assert_eq!(value, Value::string("hello Z"));
}

#[test]
fn a_hung_host_is_stopped_at_the_time_limit() {
    let mut settings = Settings::new("production", vec![modules()]);
    settings.timeout = Duration::from_millis(500);
    let host = RubyHost::new(settings);
    let mut engine = Fake {
        host: &host,
        logs: Vec::new(),
    };
    let started = Instant::now();
    let error = engine
        .call("mrtest_ruby::fail", &[Value::string("hang")], None)
        .unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(
        error,
        HostError::Broken(
            "the Ruby host did not answer 'call' within 0.5 s; it was stopped".into()
        )
    );
}

#[test]
fn without_ruby_the_error_says_so() {
    // Also when the host was to start ahead: the first request says why
    // it did not.
    for ruby in ["/nonexistent/mrtest-ruby", "/nonexistent/mrtest-ruby-ahead"] {
        let mut settings = Settings::new("production", vec![modules()]);
        settings.ruby = ruby.into();
        if ruby.ends_with("ahead") {
            RubyHost::prestart(&settings);
        }
        let host = RubyHost::new(settings);
        let mut engine = Fake {
            host: &host,
            logs: Vec::new(),
        };
        let error = engine
            .call("mrtest_ruby::echo", &[Value::Integer(1)], None)
            .unwrap_err();
        assert!(matches!(error, HostError::NoRuby { .. }), "{error:?}");
        assert_eq!(error.to_string(), format!("{ruby} was not found"));
    }
}

#[test]
fn a_host_started_ahead_is_the_one_the_first_request_uses() {
    host();
    let dir = tempfile::tempdir().unwrap();
    let starts = dir.path().join("starts");
    let ruby = dir.path().join("mrtest-ruby");
    std::fs::write(
        &ruby,
        format!(
            "#!/bin/sh\necho started >> '{}'\nexec ruby \"$@\"\n",
            starts.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&ruby, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let mut settings = Settings::new("production", vec![modules()]);
    settings.ruby = ruby;
    RubyHost::prestart(&settings);
    let started = || {
        std::fs::read_to_string(&starts)
            .unwrap_or_default()
            .lines()
            .count()
    };
    let deadline = Instant::now() + Duration::from_secs(10);
    while started() == 0 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(started(), 1, "the process was started ahead");
    let host = RubyHost::new(settings);
    assert!(!host.running(), "a host is in service only once greeted");
    let mut engine = Fake {
        host: &host,
        logs: Vec::new(),
    };
    let value = engine.call("mrtest_ruby::echo", &[Value::Integer(7)], None);
    assert_eq!(value.unwrap(), Value::Integer(7));
    assert_eq!(started(), 1, "the request took the process started ahead");
}

#[test]
fn a_change_shows_hashes_and_arrays_as_puppet_does() {
    let host = host();
    let mut engine = Fake {
        host: &host,
        logs: Vec::new(),
    };
    host.load_providers(
        "mrtest_state",
        &module_file("lib/puppet/type/mrtest_state.rb"),
        &[module_file("lib/puppet/provider/mrtest_state/fixed.rb")],
        &mut engine,
    )
    .unwrap();
    let s = Value::string;
    let hash = |pairs: Vec<(&str, Value)>| {
        let mut hash = PHash::default();
        for (k, v) in pairs {
            hash.insert(Value::string(k), v);
        }
        Value::hash(hash)
    };
    let mut said = |is: Value, should: Value| {
        let mut values = PHash::default();
        values.insert(s("name"), s("mrtest-shown"));
        values.insert(s("size"), should.clone());
        host.change_to_s(
            "mrtest_state",
            ("mrtest-shown", &values),
            ("size", &is, &should),
            false,
            &mut engine,
        )
        .unwrap()
        .unwrap()
    };
    // As Puppet 7.23's Puppet::Parameter.format_value_for_display shows
    // them (its StringConverter's `%#p`).
    assert_eq!(
        said(hash(vec![]), hash(vec![("bridge-id", s("br-ex"))])),
        "size changed {\n\n} to {\n  'bridge-id' => 'br-ex'\n}"
    );
    assert_eq!(
        said(
            Value::array(vec![s("a"), hash(vec![("k", s("v"))])]),
            hash(vec![
                ("a", Value::array(vec![s("x"), Value::Integer(1)])),
                ("b", hash(vec![("c", s("d"))])),
            ])
        ),
        "size changed ['a',\n  {\n    'k' => 'v'\n  }] to {\n  'a' => ['x', 1],\n  'b' => {\n    'c' => 'd'\n  }\n}"
    );
    assert_eq!(
        said(
            Value::array(vec![
                hash(vec![("a", Value::Integer(1))]),
                hash(vec![("b", Value::Integer(2))]),
                s("c"),
            ]),
            s("c")
        ),
        "size changed [\n  {\n    'a' => 1\n  },\n  {\n    'b' => 2\n  },\n  'c'] to 'c'"
    );
}

#[test]
fn a_resource_state_reads_what_the_resource_layer_would_ask_for() {
    let host = host();
    let mut engine = Fake {
        host: &host,
        logs: Vec::new(),
    };
    let providers = host
        .load_providers(
            "mrtest_state",
            &module_file("lib/puppet/type/mrtest_state.rb"),
            &[module_file("lib/puppet/provider/mrtest_state/fixed.rb")],
            &mut engine,
        )
        .unwrap();
    assert_eq!(providers[0].name, "fixed");
    let made = |title: &str, ensure: &str, engine: &mut Fake<'_>| {
        let mut values = PHash::default();
        for (k, v) in [
            ("name", title),
            ("ensure", ensure),
            ("size", "3"),
            ("color", "red"),
        ] {
            values.insert(Value::string(k), Value::string(v));
        }
        host.new_resource(
            "mrtest_state",
            "fixed",
            (title, title),
            (&values, &[]),
            engine,
        )
        .unwrap()
    };
    let present = made("present1", "present", &mut engine);
    let absent = made("gone", "present", &mut engine);
    let attrs = ["ensure", "size", "color"];
    // The provider has no `prefetch` of its own, and says so.
    assert!(
        !host
            .prefetch("mrtest_state", "fixed", &[present, absent], &mut engine)
            .unwrap()
    );

    // Present and in sync: every getter runs, up to the one that raises,
    // and what they log goes to the engine at once.
    let state = host.resource_state(present, &attrs, &mut engine).unwrap();
    let read: Vec<(&str, String, bool)> = state
        .values
        .iter()
        .map(|(a, v, s)| (a.as_str(), marionette_values::format::to_s(v), *s))
        .collect();
    assert_eq!(
        read,
        [
            ("ensure", "present".into(), true),
            ("size", "3".into(), true)
        ]
    );
    let (failed, error) = state.failed.unwrap();
    assert_eq!(failed, "color");
    assert!(matches!(error, HostError::Raised { message, .. } if message == "no color here"));
    assert_eq!(
        engine.logs,
        [(
            "notice".to_string(),
            "reading the size of present1".to_string()
        )]
    );
    assert!(state.logs.is_empty());

    // Absent where it should be present: only `ensure` is read.
    let state = host.resource_state(absent, &attrs, &mut engine).unwrap();
    assert_eq!(state.values.len(), 1);
    assert!(!state.values[0].2 && state.failed.is_none());

    // Read ahead for several resources: what the getters log is kept
    // with each state.
    engine.logs.clear();
    let states = host
        .resource_states(
            &[(present, vec!["size"]), (absent, vec!["ensure", "size"])],
            &mut engine,
        )
        .unwrap();
    assert!(engine.logs.is_empty());
    assert_eq!(states.len(), 2);
    assert_eq!(states[0].logs.len(), 1);
    assert_eq!(states[0].logs[0].message, "reading the size of present1");
    assert!(states[1].logs.is_empty() && states[1].values.len() == 1);
}

/// A state read through getters `mk_resource_methods` made, and an
/// `exists?` in the usual words, reads only the provider's own record of
/// the resource, and says so: the engine keeps it across other
/// resources' changes. Getters that read the system do not say so.
#[test]
fn a_state_read_from_the_property_hash_says_so() {
    let host = host();
    let mut engine = Fake {
        host: &host,
        logs: Vec::new(),
    };
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/ruby/modules/mrtest_rb");
    let mut read = |type_name: &str, attrs: &[&str]| {
        let providers = host
            .load_providers(
                type_name,
                &shared.join(format!("lib/puppet/type/{type_name}.rb")),
                &[shared.join(format!("lib/puppet/provider/{type_name}/plain.rb"))],
                &mut engine,
            )
            .unwrap();
        let mut values = PHash::default();
        for (k, v) in [
            ("ensure", "present"),
            ("value", "1"),
            ("path", "/nonexistent/mrtest-kv.conf"),
        ] {
            values.insert(Value::string(k), Value::string(v));
        }
        let id = host
            .new_resource(
                type_name,
                &providers[0].name,
                ("key", "key"),
                (&values, &[]),
                &mut engine,
            )
            .unwrap();
        host.resource_state(id, attrs, &mut engine).unwrap()
    };
    let own = read("mrtest_kv", &["ensure", "value"]);
    assert!(own.own && own.failed.is_none(), "{own:?}");
    assert!(read("mrtest_kv", &["value"]).own);
    let system = read("mrtest_pair", &["ensure", "value"]);
    assert!(!system.own && system.failed.is_none(), "{system:?}");
    assert!(!read("mrtest_pair", &["value"]).own);
}
