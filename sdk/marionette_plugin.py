"""Helpers for writing Marionette providers and functions in Python.

Marionette runs a plugin as a separate process and talks to it with JSON
lines on standard input and output (docs/plugin-protocol.md, version 1).
This module speaks that protocol, so a plugin only describes itself and
implements its methods. It needs Python 3.11 and nothing but the standard
library, so a module can carry it along: copy this file into the module,
usually as ``MODULE/lib/marionette/marionette_plugin.py``, and make it
importable from the plugin before importing it::

    #!/usr/bin/env python3
    import os
    import sys

    sys.dont_write_bytecode = True  # module directories may be read-only
    sys.path.insert(
        0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    )
    import marionette_plugin as mp

A provider subclasses :class:`Provider`, declares what the handshake
answers as class attributes, and implements ``get`` and either ``set`` or
the per-change methods ``create``, ``update`` and ``delete``::

    class Motd(mp.Provider):
        doc = "Keeps a message of the day in /etc/motd."
        features = []

        def get(self, names):
            try:
                with open("/etc/motd", encoding="utf-8") as f:
                    return [{"name": "motd", "ensure": "present", "text": f.read()}]
            except FileNotFoundError:
                return []

        def create(self, name, should):
            with open("/etc/motd", "w", encoding="utf-8") as f:
                f.write(should["text"])

        def update(self, name, is_, should):
            self.create(name, should)

    mp.serve(Motd())

A function subclasses :class:`Function`, declares its parameters and
return type, and implements ``call``; arguments arrive in order, and
optional ones the caller left out are missing, so give them defaults::

    class Double(mp.Function):
        parameters = [{"name": "n", "type": "Integer"}]
        returns = "Integer"

        def call(self, n):
            return n * 2

    mp.serve(Double())

What the helpers take care of:

- One answer per request, written as one line and flushed at once. While
  :func:`serve` runs, ``sys.stdout`` points at standard error, so a stray
  ``print`` cannot break the conversation; it shows up in the engine's
  debug output instead.
- An exception raised by a method becomes an error answer whose message
  is ``str(exception)``. Raise :class:`Error` for failures you expect (a
  file that cannot be read): other exceptions also print their traceback
  on standard error, since they are probably bugs.
- Values Puppet marks sensitive arrive as :class:`Sensitive` objects
  wherever they occur in parameters, and a :class:`Sensitive` in a result
  is sent back marked, so the engine keeps redacting it.
- ``self.log(level, message, name=None)`` sends a log message that the
  engine shows and keeps in its report.
- The loop ends after answering ``shutdown`` or when standard input
  closes. A handshake for another protocol version or another kind of
  plugin is refused with an error answer.
- A line that is not a request (not JSON, not an object, no method) is
  answered with an error and the line's id, or ``"id": null`` when it has
  none; the engine treats either as a protocol error. An unknown method
  gets an error answer too. Blank lines are skipped.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import traceback
from typing import Any, BinaryIO, Iterable

__all__ = [
    "PROTOCOL",
    "Change",
    "Error",
    "Function",
    "Plugin",
    "Provider",
    "Sensitive",
    "Wanted",
    "reveal",
    "serve",
]

#: The protocol version these helpers speak.
PROTOCOL = 1

LEVELS = ("debug", "info", "notice", "warning", "err")


class Error(Exception):
    """A failure the plugin expected: its message is the whole answer.

    Raising any other exception fails the request the same way, but also
    prints the traceback on standard error.
    """


class Sensitive:
    """A value Puppet keeps secret.

    ``.value`` is the secret itself; printing the object, formatting it
    or putting it in a log message shows only ``Sensitive [value
    redacted]``, the form Puppet prints, so a secret does not leak by
    accident. Two Sensitive objects are equal when their values are, so a
    provider can compare states without unwrapping them.
    """

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __repr__(self) -> str:
        return "Sensitive [value redacted]"

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        return format(repr(self), spec)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sensitive) and self.value == other.value

    def __hash__(self) -> int:
        return hash(("Sensitive", json.dumps(self.value, sort_keys=True, default=str)))


def reveal(value: Any) -> Any:
    """The value inside a :class:`Sensitive`, or the value itself."""
    return value.value if isinstance(value, Sensitive) else value


def _decode(value: Any) -> Any:
    """Replaces Puppet's rich-data form of Sensitive values with objects."""
    if isinstance(value, dict):
        if value.get("__ptype") == "Sensitive" and "__pvalue" in value:
            return Sensitive(_decode(value["__pvalue"]))
        return {key: _decode(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_decode(item) for item in value]
    return value


def _encode_default(value: Any) -> Any:
    # json.dumps calls this for objects it cannot write itself; the
    # result is then written in their place, recursively.
    if isinstance(value, Sensitive):
        return {"__ptype": "Sensitive", "__pvalue": value.value}
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    raise TypeError(f"cannot send a {type(value).__name__} to Marionette: {value!r}")


class Wanted(str):
    """A resource ``get`` is asked about: a string, its name (its namevar,
    or its title for a type with several namevars), whose ``identity``
    maps every identity attribute to its value.

    A title need not spell the identity out (``kv_entry { 'port': path =>
    '/etc/app.ini', key => 'port' }``): read ``identity``, not the name.
    It is empty when an engine older than it sent names alone.
    """

    identity: dict[str, Any]

    def __new__(cls, name: str, identity: dict[str, Any] | None = None) -> "Wanted":
        wanted = super().__new__(cls, name)
        wanted.identity = identity or {}
        return wanted


@dataclasses.dataclass
class Change:
    """One resource a ``set`` request asks to change.

    ``is_`` is the state ``get`` returned (``ensure`` is ``absent`` when
    the thing does not exist), ``should`` the desired state: identity,
    ``ensure``, managed properties and the parameters the resource gives.
    """

    name: str
    resource: str
    is_: dict[str, Any]
    should: dict[str, Any]

    @property
    def action(self) -> str:
        """``"create"``, ``"update"`` or ``"delete"``."""
        if self.should.get("ensure") == "absent":
            return "delete"
        if not self.is_ or self.is_.get("ensure") == "absent":
            return "create"
        return "update"


class Plugin:
    """What providers and functions share: the handshake and logging.

    After the handshake, ``self.environment`` holds the environment's
    name and ``self.handshake_params`` everything the engine sent.
    """

    kind = ""
    doc = ""
    timeout: int | None = None
    # Class-level defaults, so a subclass whose __init__ forgets to call
    # super().__init__() still works.
    environment: str | None = None
    handshake_params: dict[str, Any] = {}
    _out: BinaryIO | None = None

    def describe(self) -> dict[str, Any]:
        """The handshake's answer; the default collects class attributes."""
        raise NotImplementedError

    def log(self, level: str, message: Any, name: str | None = None) -> None:
        """Sends a log message; ``name`` is the resource it is about.

        ``level`` is one of debug, info, notice, warning and err.
        """
        if level not in LEVELS:
            raise ValueError(f"unknown log level {level!r}; use one of {', '.join(LEVELS)}")
        params: dict[str, Any] = {"level": level, "message": str(message)}
        if name is not None:
            params["name"] = str(name)
        self._send({"method": "log", "params": params})

    def _methods(self) -> dict[str, Any]:
        return {}

    def _handshake(self, params: dict[str, Any]) -> dict[str, Any]:
        protocol = params.get("protocol")
        if protocol != PROTOCOL or isinstance(protocol, bool):
            raise Error(f"this plugin speaks protocol {PROTOCOL}, not {json.dumps(protocol)}")
        kind = params.get("kind")
        if kind is not None and kind != self.kind:
            raise Error(f"this is a {self.kind} plugin, not a {kind}")
        self.handshake_params = params
        self.environment = params.get("environment")
        self._handshake_hook(params)
        answer = {"protocol": PROTOCOL}
        answer.update({k: v for k, v in self.describe().items() if v is not None})
        answer["protocol"] = PROTOCOL
        return answer

    def _handshake_hook(self, params: dict[str, Any]) -> None:
        pass

    def _send(self, message: dict[str, Any]) -> None:
        if self._out is None:
            # Outside serve (in a unit test of the plugin, say) there is
            # no conversation; show the message rather than lose it.
            print(json.dumps(message, default=_encode_default), file=sys.stderr)
            return
        line = json.dumps(message, ensure_ascii=False, separators=(",", ":"), default=_encode_default)
        self._out.write(line.encode("utf-8") + b"\n")
        self._out.flush()


class Provider(Plugin):
    """A provider: subclass it, set the class attributes, implement ``get``.

    The class attributes are what the handshake declares:

    - ``doc``: the provider's documentation.
    - ``commands``: ``{name: program}``; the provider is suitable only
      when every program exists.
    - ``confine``: ``{"exists": [...], "facts": {fact: [values]},
      "features": [...]}``.
    - ``defaultfor``: a list of ``{fact: [values]}`` sets.
    - ``features``: the type's features this provider has.
    - ``batch``: collect the run's changes into one ``set``.
    - ``supports_noop``: receive ``set`` in noop runs too.
    - ``timeout``: seconds per request after the handshake, or None for
      the engine's default.

    After the handshake, ``self.type_name`` and ``self.provider_name`` say
    what the engine asked for.
    """

    kind = "provider"
    commands: dict[str, str] = {}
    confine: dict[str, Any] = {}
    defaultfor: list[dict[str, Any]] = []
    features: list[str] = []
    batch = False
    supports_noop = False

    type_name: str | None = None
    provider_name: str | None = None

    def describe(self) -> dict[str, Any]:
        return {
            "doc": self.doc,
            "commands": dict(self.commands),
            "confine": dict(self.confine),
            "defaultfor": list(self.defaultfor),
            "features": list(self.features),
            "batch": bool(self.batch),
            "supports_noop": bool(self.supports_noop),
            "timeout": self.timeout,
        }

    def get(self, names: list[Wanted] | None) -> list[dict[str, Any]]:
        """Current states of the named resources, or of all when None.

        ``names`` is a hint: return more if that is easier, and leave out
        what does not exist. Each is a :class:`Wanted`, a name with the
        resource's ``identity``.
        """
        raise Error(f"{type(self).__name__} does not implement get")

    def instances(self) -> list[dict[str, Any]]:
        """Every resource the provider can find; by default ``get(None)``."""
        return self.get(None)

    def set(self, changes: list[Change], noop: bool) -> list[Any]:
        """Applies changes; returns one result per change, in order.

        A result is None (or True) for success, a string or an exception
        for a failure of that change alone, or a protocol result dict.
        Raising fails every change.

        The default calls ``create``, ``update`` or ``delete`` for each
        change and turns what they raise into that change's failure. In a
        noop run (only sent when ``supports_noop`` is set) it calls none of
        them and logs what it would do.
        """
        results: list[Any] = []
        for change in changes:
            if noop:
                self.log("notice", f"would {change.action} {change.name}", change.name)
                results.append(None)
                continue
            try:
                if change.action == "delete":
                    self.delete(change.name, change.is_)
                elif change.action == "create":
                    self.create(change.name, change.should)
                else:
                    self.update(change.name, change.is_, change.should)
            except Exception as e:  # noqa: BLE001 - each change fails alone
                if not isinstance(e, Error):
                    traceback.print_exc()
                results.append(e)
            else:
                results.append(None)
        return results

    def create(self, name: str, should: dict[str, Any]) -> None:
        raise Error(f"{type(self).__name__} cannot create {name}")

    def update(self, name: str, is_: dict[str, Any], should: dict[str, Any]) -> None:
        raise Error(f"{type(self).__name__} cannot update {name}")

    def delete(self, name: str, is_: dict[str, Any]) -> None:
        raise Error(f"{type(self).__name__} cannot delete {name}")

    def _handshake_hook(self, params: dict[str, Any]) -> None:
        self.type_name = params.get("type")
        self.provider_name = params.get("provider")

    def _methods(self) -> dict[str, Any]:
        return {"get": self._get, "instances": self._instances, "set": self._set}

    def _get(self, params: dict[str, Any]) -> dict[str, Any]:
        names = params.get("names")
        if names is not None and not (
            isinstance(names, list) and all(isinstance(n, str) for n in names)
        ):
            raise Error("'names' must be null or a list of strings")
        identities = params.get("identities")
        if identities is None and names is not None:
            identities = [{}] * len(names)
        if names is not None and not (
            isinstance(identities, list)
            and len(identities) == len(names)
            and all(isinstance(i, dict) for i in identities)
        ):
            raise Error("'identities' must be a list of objects, one per name")
        wanted = None if names is None else [
            Wanted(name, _decode(identity)) for name, identity in zip(names, identities)
        ]
        return {"resources": _states(self.get(wanted), "get")}

    def _instances(self, params: dict[str, Any]) -> dict[str, Any]:
        return {"resources": _states(self.instances(), "instances")}

    def _set(self, params: dict[str, Any]) -> dict[str, Any]:
        raw = params.get("changes")
        if not isinstance(raw, list) or not all(isinstance(c, dict) for c in raw):
            raise Error("'changes' must be a list of objects")
        changes = [
            Change(
                name=str(c.get("name", "")),
                resource=str(c.get("resource", "")),
                is_=c.get("is") or {},
                should=c.get("should") or {},
            )
            for c in raw
        ]
        results = list(self.set(changes, bool(params.get("noop", False))))
        if len(results) != len(changes):
            raise Error(f"set returned {len(results)} results for {len(changes)} changes")
        return {"results": [_result(r) for r in results]}


def _states(states: Iterable[dict[str, Any]] | None, method: str) -> list[dict[str, Any]]:
    states = list(states or [])
    for state in states:
        if not isinstance(state, dict):
            raise Error(f"{method} must return dicts, not {type(state).__name__}")
    return states


def _result(result: Any) -> dict[str, Any]:
    if result is None or result is True:
        return {"ok": True}
    if isinstance(result, dict):
        return result
    if isinstance(result, BaseException):
        return {"ok": False, "message": str(result) or type(result).__name__}
    return {"ok": False, "message": str(result)}


class Function(Plugin):
    """A function: subclass it, declare its signature, implement ``call``.

    - ``doc``: the function's documentation.
    - ``parameters``: ``[{"name": ..., "type": "Puppet type"}]`` in order;
      the last may add ``"repeated": True``.
    - ``returns``: the Puppet type of the result.
    - ``timeout``: seconds per call, or None for the engine's default.

    After the handshake, ``self.function_name`` is the name the function
    was called by (``module::name``).
    """

    kind = "function"
    parameters: list[dict[str, Any]] = []
    returns = "Any"

    function_name: str | None = None

    def describe(self) -> dict[str, Any]:
        return {
            "doc": self.doc,
            "parameters": [dict(p) for p in self.parameters],
            "returns": self.returns,
            "timeout": self.timeout,
        }

    def call(self, *args: Any) -> Any:
        raise Error(f"{type(self).__name__} does not implement call")

    def _handshake_hook(self, params: dict[str, Any]) -> None:
        self.function_name = params.get("function")

    def _methods(self) -> dict[str, Any]:
        return {"call": self._call}

    def _call(self, params: dict[str, Any]) -> dict[str, Any]:
        arguments = params.get("arguments", [])
        if not isinstance(arguments, list):
            raise Error("'arguments' must be a list")
        return {"value": self.call(*arguments)}


def serve(plugin: Plugin, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
    """Answers the engine's requests until ``shutdown`` or end of input.

    ``stdin`` and ``stdout`` default to the process's; tests can pass
    byte streams (``io.BytesIO``) instead.
    """
    real_stdin = stdin if stdin is not None else sys.stdin.buffer
    plugin._out = stdout if stdout is not None else sys.stdout.buffer
    saved_stdout = sys.stdout
    if stdout is None:
        sys.stdout = sys.stderr
    try:
        for raw in real_stdin:
            if not raw.strip():
                continue
            if not _answer(plugin, raw):
                break
    except BrokenPipeError:
        # The engine is gone; nobody is left to answer.
        pass
    finally:
        sys.stdout = saved_stdout


def _answer(plugin: Plugin, raw: bytes) -> bool:
    """Answers one request line; False once the conversation is over."""
    try:
        request = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        plugin._send({"id": None, "error": {"message": f"bad request: {e}"}})
        return True
    if not isinstance(request, dict):
        plugin._send({"id": None, "error": {"message": "bad request: not a JSON object"}})
        return True
    request_id = request.get("id")
    method = request.get("method")
    params = request.get("params")
    if params is None:
        params = {}
    if not isinstance(method, str):
        plugin._send({"id": request_id, "error": {"message": "bad request: no 'method'"}})
        return True
    if not isinstance(params, dict):
        plugin._send({"id": request_id, "error": {"message": "bad request: 'params' must be an object"}})
        return True
    if method == "shutdown":
        plugin._send({"id": request_id, "result": {}})
        return False
    handler = {"handshake": plugin._handshake, **plugin._methods()}.get(method)
    if handler is None:
        plugin._send({"id": request_id, "error": {"message": f"unknown method '{method}'"}})
        return True
    try:
        result = handler(_decode(params))
    except Exception as e:  # noqa: BLE001 - the engine gets the message
        if not isinstance(e, Error):
            traceback.print_exc()
        message = str(e) or type(e).__name__
        plugin._send({"id": request_id, "error": {"message": message}})
        return True
    try:
        plugin._send({"id": request_id, "result": result})
    except (TypeError, ValueError) as e:
        # The result could not be written as JSON; say so rather than
        # leave the engine waiting for an answer that never comes.
        plugin._send({"id": request_id, "error": {"message": f"cannot encode the result: {e}"}})
    return True
