"""TLS on the receivers: with a certificate and key, OTLP/gRPC and OTLP/HTTP (and the health endpoints)
are served over TLS only; with a client CA as well, a client must present a certificate it signed
(mutual TLS). Bad TLS settings stop the start with one line. Certificates come from ``trustme``, a test
CA; the clients are grpcio's and httpx's own TLS stacks."""

from __future__ import annotations

import ssl
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import grpc
import httpx
import pytest
import trustme
from cryptography.hazmat.primitives import serialization

from otel_groundedness.gateway.service import Gateway
from otel_groundedness.gateway.settings import ConfigError, load_settings
from otel_groundedness.telemetry import names

from .conftest import gateway_environ
from .otlp_sink import OtlpSink
from .traffic import GrpcClient, demo_requests, plain_request, span_ids


@pytest.fixture(scope="module")
def ca() -> trustme.CA:
    return trustme.CA()


def _pem_files(tmp_path: Path, ca: trustme.CA) -> tuple[Path, Path, Path]:
    """The server's chain and key for 127.0.0.1, and the CA that signed it, as PEM files."""
    server = ca.issue_cert("127.0.0.1", "localhost")
    chain, key, ca_file = tmp_path / "server.pem", tmp_path / "server.key", tmp_path / "ca.pem"
    server.private_key_pem.write_to_path(str(key))
    chain.write_bytes(b"".join(blob.bytes() for blob in server.cert_chain_pems))
    ca.cert_pem.write_to_path(str(ca_file))
    return chain, key, ca_file


def _tls_channel(port: int, ca: trustme.CA, client: trustme.LeafCert | None = None) -> grpc.Channel:
    credentials = grpc.ssl_channel_credentials(
        root_certificates=ca.cert_pem.bytes(),
        private_key=client.private_key_pem.bytes() if client else None,
        certificate_chain=b"".join(blob.bytes() for blob in client.cert_chain_pems) if client else None,
    )
    return grpc.secure_channel(f"127.0.0.1:{port}", credentials)


def test_tls_receivers_take_otlp_over_tls_and_refuse_plain_text(
    tmp_path: Path, ca: trustme.CA, sink: OtlpSink, start_gateway: Callable[..., Gateway]
) -> None:
    chain, key, ca_file = _pem_files(tmp_path, ca)
    gateway = start_gateway(tls_cert_file=chain, tls_key_file=key)
    traffic = [plain_request(5), *demo_requests(tmp_path / "recording.jsonl", 20_000)]

    client = GrpcClient(gateway.ports.grpc, channel=_tls_channel(gateway.ports.grpc, ca))
    assert [client.send(request) for request in traffic] == [None] * len(traffic)
    client.close()
    over_http = plain_request(3)
    base = f"https://127.0.0.1:{gateway.ports.http}"
    with httpx.Client(verify=ssl.create_default_context(cafile=ca_file)) as https:
        posted = https.post(
            f"{base}/v1/traces",
            content=over_http.SerializeToString(),
            headers={"Content-Type": "application/x-protobuf"},
        )
        assert posted.status_code == 200, posted.text
        assert https.get(f"{base}/readyz").status_code == 200

    plain = GrpcClient(gateway.ports.grpc)
    error = plain.send(plain_request(1))
    plain.close()
    assert error is not None and error.code() == grpc.StatusCode.UNAVAILABLE
    with pytest.raises(httpx.HTTPError):
        httpx.get(f"http://127.0.0.1:{gateway.ports.http}/readyz", timeout=5)

    sent = span_ids([*traffic, over_http])
    sink.wait_for("every span sent over TLS", lambda: len(sink.spans()) >= len(sent), timeout=60)
    assert sorted(span.span_id for span in sink.spans()) == sorted(sent)
    assert any(event.name == names.EVENT_EVALUATION_RESULT for span in sink.spans() for event in span.events)


def test_a_client_ca_makes_clients_present_a_certificate_it_signed(
    tmp_path: Path, ca: trustme.CA, sink: OtlpSink, start_gateway: Callable[..., Gateway]
) -> None:
    chain, key, ca_file = _pem_files(tmp_path, ca)
    gateway = start_gateway(tls_cert_file=chain, tls_key_file=key, tls_client_ca_file=ca_file)
    port = gateway.ports.grpc
    stranger = trustme.CA().issue_cert("front-collector")

    for refused in (_tls_channel(port, ca), _tls_channel(port, ca, stranger)):
        client = GrpcClient(port, channel=refused)
        error = client.send(plain_request(1))
        client.close()
        assert error is not None and error.code() == grpc.StatusCode.UNAVAILABLE
    front = ca.issue_cert("front-collector")
    accepted = plain_request(2)
    client = GrpcClient(port, channel=_tls_channel(port, ca, front))
    assert client.send(accepted) is None
    client.close()

    base = f"https://127.0.0.1:{gateway.ports.http}/readyz"
    anonymous = ssl.create_default_context(cafile=ca_file)
    with pytest.raises(httpx.HTTPError):
        httpx.get(base, verify=anonymous, timeout=5)
    known = ssl.create_default_context(cafile=ca_file)
    client_files = tmp_path / "client.pem"
    front.private_key_and_cert_chain_pem.write_to_path(str(client_files))
    known.load_cert_chain(client_files)
    assert httpx.get(base, verify=known, timeout=5).status_code == 200

    sink.wait_for("the accepted spans", lambda: len(sink.spans()) >= 2, timeout=30)
    assert sorted(span.span_id for span in sink.spans()) == sorted(span_ids([accepted]))


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        ({"tls_cert_file": "cert.pem"}, "tls_cert_file and tls_key_file go together"),
        ({"tls_key_file": "key.pem"}, "tls_cert_file and tls_key_file go together"),
        ({"tls_client_ca_file": "ca.pem"}, "tls_client_ca_file needs tls_cert_file and tls_key_file"),
    ],
)
def test_tls_settings_that_do_not_make_a_server_stop_the_start(flags: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_settings(flags, {})


def test_unreadable_or_invalid_tls_files_are_named(tmp_path: Path, ca: trustme.CA, sink: OtlpSink) -> None:
    chain, key, _ = _pem_files(tmp_path, ca)
    missing = tmp_path / "missing.pem"
    garbage = tmp_path / "garbage.pem"
    garbage.write_text("not a certificate\n")
    other_key = tmp_path / "other.key"
    ca.issue_cert("other").private_key_pem.write_to_path(str(other_key))
    encrypted_key = tmp_path / "encrypted.key"
    private_key = serialization.load_pem_private_key(key.read_bytes(), password=None)
    encrypted_key.write_bytes(
        private_key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.BestAvailableEncryption(b"passphrase"),
        )
    )
    cases = [
        ({"tls_cert_file": str(missing), "tls_key_file": str(key)}, f"cannot read TLS file {missing}"),
        ({"tls_cert_file": str(garbage), "tls_key_file": str(key)}, "invalid TLS certificate or key"),
        ({"tls_cert_file": str(chain), "tls_key_file": str(other_key)}, "invalid TLS certificate or key"),
        ({"tls_cert_file": str(chain), "tls_key_file": str(encrypted_key)}, "is encrypted"),
        (
            {"tls_cert_file": str(chain), "tls_key_file": str(key), "tls_client_ca_file": str(garbage)},
            f"invalid TLS client CA file {garbage}",
        ),
    ]
    for flags, message in cases:
        with pytest.raises(ConfigError, match=message):
            Gateway(load_settings(flags, {}), gateway_environ(sink))


def test_the_command_says_which_tls_file_is_wrong_and_exits_2(tmp_path: Path) -> None:
    missing = tmp_path / "missing.pem"
    argv = [
        sys.executable, "-m", "otel_groundedness", "gateway", "--grpc-listen", "127.0.0.1:0",
        "--http-listen", "127.0.0.1:0", "--prometheus-listen", "off",
        "--tls-cert-file", str(missing), "--tls-key-file", str(missing),
    ]  # fmt: skip
    completed = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)
    assert completed.returncode == 2
    assert completed.stderr.splitlines() == [
        f"otel-groundedness gateway: error: cannot read TLS file {missing}: No such file or directory"
    ]
