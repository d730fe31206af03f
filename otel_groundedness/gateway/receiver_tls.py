"""TLS for the receivers: the PEM files of the settings, read and checked once at start, as gRPC server
credentials and uvicorn options. Both receivers serve the same certificate, as a Collector's OTLP
receiver does with one ``tls`` block."""

from __future__ import annotations

import ssl
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import grpc

from otel_groundedness.gateway.settings import ConfigError, GatewaySettings


@dataclass(frozen=True, slots=True)
class ReceiverTls:
    cert_file: Path
    key_file: Path
    client_ca_file: Path | None
    cert_chain: bytes
    private_key: bytes
    client_ca: bytes | None

    @property
    def mode(self) -> Literal["tls", "mutual_tls"]:
        return "tls" if self.client_ca is None else "mutual_tls"

    def grpc_credentials(self) -> grpc.ServerCredentials:
        return grpc.ssl_server_credentials(
            [(self.private_key, self.cert_chain)],
            root_certificates=self.client_ca,
            require_client_auth=self.client_ca is not None,
        )

    def uvicorn_options(self) -> dict[str, Any]:
        options: dict[str, Any] = {"ssl_certfile": str(self.cert_file), "ssl_keyfile": str(self.key_file)}
        if self.client_ca_file is not None:
            options.update(ssl_ca_certs=str(self.client_ca_file), ssl_cert_reqs=ssl.CERT_REQUIRED)
        return options


def receiver_tls(settings: GatewaySettings) -> ReceiverTls | None:
    """The receivers' TLS, or None for plain text; ``ConfigError`` naming the file that is unreadable
    or does not hold what it should (checked here, so a bad file never reaches a server thread)."""
    if settings.tls_cert_file is None or settings.tls_key_file is None:
        return None
    cert_file, key_file, ca_file = settings.tls_cert_file, settings.tls_key_file, settings.tls_client_ca_file
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    cert_chain, private_key = _read(cert_file), _read(key_file)
    try:
        # Without a callback OpenSSL would prompt on the terminal for an encrypted key's passphrase.
        context.load_cert_chain(cert_file, key_file, password=lambda: _refuse_encrypted(key_file))
    except ssl.SSLError as error:
        raise ConfigError(
            f"invalid TLS certificate or key ({cert_file}, {key_file}): {error.reason or error}"
        ) from None
    client_ca = None
    if ca_file is not None:
        client_ca = _read(ca_file)
        try:
            context.load_verify_locations(cafile=ca_file)
        except ssl.SSLError as error:
            raise ConfigError(f"invalid TLS client CA file {ca_file}: {error.reason or error}") from None
    return ReceiverTls(cert_file, key_file, ca_file, cert_chain, private_key, client_ca)


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as error:
        raise ConfigError(f"cannot read TLS file {path}: {error.strerror or error}") from None


def _refuse_encrypted(key_file: Path) -> bytes:
    raise ConfigError(
        f"TLS key file {key_file} is encrypted: give an unencrypted key, readable by the gateway only"
    )
