"""Gateway settings: one dataclass, each field from a flag, an ``OTEL_GROUNDEDNESS_GATEWAY_*`` variable,
the YAML file (``--config``) or its default, in that order.

Unlike the in-process processor, where a bad variable warns and keeps its default so that an
application always starts, a service refuses to start on any bad value: ``ConfigError`` names the
flag, variable or file key in one line (docs/decisions.md).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from otel_groundedness.env_config import EnvProblem
from otel_groundedness.gateway.listen import ListenAddress, parse_listen
from otel_groundedness.scoring import GroundednessPolicy

ENV_PREFIX = "OTEL_GROUNDEDNESS_GATEWAY_"
LOG_LEVELS = ("debug", "info", "warning", "error")
_MIB = 1024 * 1024
DEFAULT_GRPC_LISTEN = ListenAddress("0.0.0.0", 4317)
DEFAULT_HTTP_LISTEN = ListenAddress("0.0.0.0", 4318)
DEFAULT_PROMETHEUS_LISTEN = ListenAddress("0.0.0.0", 9464)


class ConfigError(ValueError):
    """A setting the gateway cannot start with; the message is one line naming its source."""


@dataclass(frozen=True, slots=True)
class GatewaySettings:
    """Everything the gateway is configured with; docs/gateway.md has the table."""

    grpc_listen: ListenAddress = DEFAULT_GRPC_LISTEN
    http_listen: ListenAddress = DEFAULT_HTTP_LISTEN
    prometheus_listen: ListenAddress | None = DEFAULT_PROMETHEUS_LISTEN
    # Longer than the SDKs' default batch delay (5 s): a trace whose spans straddle one export tick
    # reaches the gateway in two requests about 5 s apart, and must still be scored whole.
    trace_idle_s: float = 10.0
    max_trace_wait_s: float = 60.0
    max_traces: int = 100_000
    max_buffer_bytes: int = 128 * _MIB
    # The Collector's OTLP/gRPC receiver default: what a gateway forwards or batches, a Collector takes.
    max_request_bytes: int = 4 * _MIB
    max_export_queue_bytes: int = 128 * _MIB
    export_retry_s: float = 60.0
    export_concurrency: int = 4
    shutdown_timeout_s: float = 30.0
    log_level: str = "info"
    # TLS on both receivers: with a certificate and key they serve TLS only; with a client CA as well,
    # clients must present a certificate that CA signed.
    tls_cert_file: Path | None = None
    tls_key_file: Path | None = None
    tls_client_ca_file: Path | None = None
    # The write-ahead log's directory; None is off. ``load_settings`` (the command) defaults it to
    # ``default_wal_dir``; a ``GatewaySettings`` built in code has it off unless given.
    wal_dir: Path | None = None
    max_wal_bytes: int = 1024 * _MIB
    # Acknowledged requests survive the gateway's death at once, the machine's after this long.
    wal_fsync_interval_s: float = 1.0
    dedup_window_spans: int = 262_144
    # The front tier's ring, to send log records to their trace's owner: its static endpoints, or its
    # DNS name and port; and this gateway's own name in it (as the front tier names it).
    ring_endpoints: tuple[str, ...] | None = None
    ring_dns_hostname: str | None = None
    ring_dns_port: int = 4317
    ring_dns_interval_s: float = 5.0
    ring_self: str | None = None
    policy: GroundednessPolicy = field(default_factory=GroundednessPolicy)


def _number(value: object) -> float:
    if isinstance(value, bool):
        raise ValueError(f"not a number: {value!r}")
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value.strip())
        except ValueError:
            raise ValueError(f"not a number: {value!r}") from None
    raise ValueError(f"not a number: {value!r}")


def _positive_int(value: object) -> int:
    number = _number(value)
    if not number.is_integer() or number < 1:
        raise ValueError(f"not a positive integer: {value!r}")
    return int(number)


def _positive_seconds(value: object) -> float:
    number = _number(value)
    if not (math.isfinite(number) and number > 0):
        raise ValueError(f"not a positive number of seconds: {value!r}")
    return number


def _non_negative_seconds(value: object) -> float:
    number = _number(value)
    if not (math.isfinite(number) and number >= 0):
        raise ValueError(f"not a number of seconds: {value!r}")
    return number


def _listen(value: object) -> ListenAddress:
    return parse_listen(str(value))


def _optional_listen(value: object) -> ListenAddress | None:
    if str(value).strip().lower() in ("", "off", "none"):
        return None
    return _listen(value)


def _file(value: object) -> Path:
    text = str(value).strip()
    if not text:
        raise ValueError("empty file name")
    return Path(text)


def _optional_dir(value: object) -> Path | None:
    if str(value).strip().lower() in ("off", "none"):
        return None
    return _file(value)


def _endpoints(value: object) -> tuple[str, ...]:
    """A YAML list, or text such as ``[g1:4317, g2:4317]`` (the front tier's ``GATEWAY_ENDPOINTS``)
    or ``g1:4317,g2:4317``."""
    items = value if isinstance(value, list) else str(value).strip().strip("[]").replace(",", " ").split()
    endpoints = tuple(str(item).strip() for item in items if str(item).strip())
    if not endpoints:
        raise ValueError("no endpoints")
    return endpoints


def _text(value: object) -> str:
    text = str(value).strip()
    if not text:
        raise ValueError("empty")
    return text


def _port(value: object) -> int:
    port = _positive_int(value)
    if port > 65535:
        raise ValueError(f"not a port: {value!r}")
    return port


def default_wal_dir(environ: Mapping[str, str], grpc_listen: ListenAddress) -> Path:
    """``$XDG_STATE_HOME/otel-groundedness/gateway-<gRPC port>`` (``~/.local/state`` when unset, as the
    XDG base directory specification says): a restart with the same settings finds it again, and
    gateways on one host with their own ports keep their own logs."""
    state = environ.get("XDG_STATE_HOME", "").strip()
    base = Path(state) if state and Path(state).is_absolute() else Path.home() / ".local" / "state"
    return base / "otel-groundedness" / f"gateway-{grpc_listen.port}"


def _log_level(value: object) -> str:
    level = str(value).strip().lower()
    if level not in LOG_LEVELS:
        raise ValueError(f"not one of {', '.join(LOG_LEVELS)}: {value!r}")
    return level


@dataclass(frozen=True, slots=True)
class Setting:
    """One configurable field: its name, parser and help text; flag and variable names derive from it."""

    name: str
    parse: Callable[[object], Any]
    metavar: str
    help: str

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")

    @property
    def env(self) -> str:
        return ENV_PREFIX + self.name.upper()


SETTINGS: tuple[Setting, ...] = (
    Setting("grpc_listen", _listen, "HOST:PORT", "OTLP/gRPC receiver address"),
    Setting("http_listen", _listen, "HOST:PORT", "OTLP/HTTP receiver address (also /healthz and /readyz)"),
    Setting("prometheus_listen", _optional_listen, "HOST:PORT", "Prometheus /metrics address, or off"),
    Setting(
        "trace_idle_s",
        _positive_seconds,
        "SECONDS",
        "a trace is scored once no record arrived for it this long",
    ),
    Setting(
        "max_trace_wait_s",
        _positive_seconds,
        "SECONDS",
        "a trace is scored at the latest this long after it arrived",
    ),
    Setting("max_traces", _positive_int, "N", "traces held at once; beyond it senders are asked to retry"),
    Setting(
        "max_buffer_bytes", _positive_int, "BYTES", "bytes held for those traces; beyond it senders retry"
    ),
    Setting("max_request_bytes", _positive_int, "BYTES", "largest export request accepted (after gzip)"),
    Setting(
        "max_export_queue_bytes",
        _positive_int,
        "BYTES",
        "bytes waiting for downstream; beyond it senders retry",
    ),
    Setting(
        "export_retry_s", _positive_seconds, "SECONDS", "how long a failing downstream export is retried"
    ),
    Setting("export_concurrency", _positive_int, "N", "downstream exports in flight at once"),
    Setting("shutdown_timeout_s", _positive_seconds, "SECONDS", "SIGTERM: time to score, forward and flush"),
    Setting("log_level", _log_level, "LEVEL", "one of " + ", ".join(LOG_LEVELS)),
    Setting("tls_cert_file", _file, "FILE", "PEM certificate chain: both receivers serve TLS only"),
    Setting("tls_key_file", _file, "FILE", "PEM private key of the TLS certificate"),
    Setting(
        "tls_client_ca_file",
        _file,
        "FILE",
        "PEM CA certificates: clients must present a certificate one of them signed (mutual TLS)",
    ),
    Setting(
        "wal_dir",
        _optional_dir,
        "DIR",
        "write-ahead log directory (accepted requests on disk before they are acknowledged), or off",
    ),
    Setting(
        "max_wal_bytes",
        _positive_int,
        "BYTES",
        "bytes of requests not yet delivered in the log; beyond it senders retry",
    ),
    Setting(
        "wal_fsync_interval_s",
        _non_negative_seconds,
        "SECONDS",
        "the log is synced to disk at most this often (0: before every acknowledgement)",
    ),
    Setting(
        "dedup_window_spans",
        _positive_int,
        "N",
        "span ids remembered: a span received again among the last N accepted is a duplicate, left out",
    ),
    Setting(
        "ring_endpoints",
        _endpoints,
        "LIST",
        "the front tier's static resolver endpoints ([g1:4317, g2:4317]): log records go to their trace's "
        "owner",
    ),
    Setting("ring_dns_hostname", _text, "NAME", "or the front tier's DNS resolver hostname"),
    Setting("ring_dns_port", _port, "PORT", "the DNS resolver's port"),
    Setting("ring_dns_interval_s", _positive_seconds, "SECONDS", "how often the DNS name is resolved"),
    Setting("ring_self", _text, "HOST:PORT", "this gateway's endpoint as the front tier's ring names it"),
)
_DEFAULTS = GatewaySettings()


WAL_DIR_DEFAULT_TEXT = "$XDG_STATE_HOME/otel-groundedness/gateway-<grpc port>"


def default_text(setting: Setting) -> str:
    if setting.name == "wal_dir":
        return WAL_DIR_DEFAULT_TEXT
    value = getattr(_DEFAULTS, setting.name)
    return "off" if value is None else str(value)


def load_settings(
    flags: Mapping[str, str | None],
    environ: Mapping[str, str],
    config_file: Path | None = None,
    policy: GroundednessPolicy | None = None,
) -> GatewaySettings:
    """Settings from ``flags`` (by field name; None = not given), ``environ``, then ``config_file``.

    ``policy`` (from ``--policy``) wins over the file's ``policy:`` mapping, which wins over the
    ``OTEL_GROUNDEDNESS_*`` policy variables.
    """
    document = _read_yaml(config_file) if config_file is not None else {}
    values: dict[str, Any] = {}
    for setting in SETTINGS:
        flag, env = flags.get(setting.name), environ.get(setting.env)
        if flag is not None:
            raw, source = flag, setting.flag
        elif env is not None and env.strip():
            raw, source = env, setting.env
        elif setting.name in document:
            raw, source = document[setting.name], f"{setting.name} in {config_file}"
        else:
            continue
        try:
            values[setting.name] = setting.parse(raw)
        except ValueError as error:
            raise ConfigError(f"invalid {source}: {error}") from None
    values["policy"] = policy or _policy(document.get("policy"), config_file, environ)
    if "wal_dir" not in values:
        values["wal_dir"] = default_wal_dir(environ, values.get("grpc_listen", DEFAULT_GRPC_LISTEN))
    settings = GatewaySettings(**values)
    _check_bounds(settings)
    return settings


def _read_yaml(path: Path) -> dict[str, Any]:
    try:
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise ConfigError(f"cannot read config file {path}: {error.strerror or error}") from None
    except (yaml.YAMLError, UnicodeDecodeError) as error:
        raise ConfigError(f"invalid config file {path}: {' '.join(str(error).split())}") from None
    if document is None:
        return {}
    if not isinstance(document, dict):
        raise ConfigError(f"invalid config file {path}: expected a mapping of settings")
    known = {setting.name for setting in SETTINGS} | {"policy"}
    unknown = sorted(str(key) for key in document if key not in known)
    if unknown:
        raise ConfigError(f"invalid config file {path}: unknown setting {unknown[0]!r}")
    return document


def _policy(data: object, config_file: Path | None, environ: Mapping[str, str]) -> GroundednessPolicy:
    try:
        if data is None:
            problems: list[EnvProblem] = []
            policy = GroundednessPolicy.from_env(environ, problems=problems)
            if problems:  # in-process this would warn and keep the default; a service refuses to start
                raise ValueError(str(problems[0]))
            return policy
        if not isinstance(data, dict):
            raise ValueError("expected a mapping of policy fields")
        return GroundednessPolicy.from_dict(data)
    except (ValueError, TypeError) as error:
        source = "policy environment" if data is None else f"policy in {config_file}"
        raise ConfigError(f"invalid {source}: {error}") from None


def _check_bounds(settings: GatewaySettings) -> None:
    # A request must fit into an empty buffer and an empty queue, or its sender would retry forever.
    for name in ("max_buffer_bytes", "max_export_queue_bytes", "max_wal_bytes"):
        if settings.max_request_bytes > getattr(settings, name):
            raise ConfigError(f"max_request_bytes ({settings.max_request_bytes}) exceeds {name}")
    if (settings.tls_cert_file is None) != (settings.tls_key_file is None):
        raise ConfigError("tls_cert_file and tls_key_file go together: give both or neither")
    if settings.tls_client_ca_file is not None and settings.tls_cert_file is None:
        raise ConfigError("tls_client_ca_file needs tls_cert_file and tls_key_file")
    ring = settings.ring_endpoints is not None or settings.ring_dns_hostname is not None
    if settings.ring_endpoints is not None and settings.ring_dns_hostname is not None:
        raise ConfigError("ring_endpoints and ring_dns_hostname exclude each other: give one")
    if ring and settings.ring_self is None:
        raise ConfigError("a ring (ring_endpoints or ring_dns_hostname) needs ring_self")
    if settings.ring_endpoints is not None and settings.ring_self not in settings.ring_endpoints:
        raise ConfigError(f"ring_self {settings.ring_self!r} is not one of ring_endpoints")
    if settings.max_trace_wait_s < settings.trace_idle_s:
        raise ConfigError(
            f"max_trace_wait_s ({settings.max_trace_wait_s:g}) is shorter than trace_idle_s "
            f"({settings.trace_idle_s:g})"
        )
